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

private:
    std::string m_shown; // the diff text shown; an edit elsewhere often leaves it unchanged
};

} // namespace ps::views
