#pragma once
// The composed YAML against the preset's (base without the user's edits), as unified-diff hunks.

#include "views/config/sessionresult.h"

#include <QPlainTextEdit>

namespace ps::views {

class DiffPane : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit DiffPane(QWidget *parent = nullptr);
    void showResult(const SessionResultPtr &result);
};

} // namespace ps::views
