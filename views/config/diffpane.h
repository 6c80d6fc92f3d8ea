#pragma once
// The composed YAML against the preset's (base without the user's edits), as unified-diff hunks.

#include "core/configedit/sessionresult.h"

#include <QPlainTextEdit>

namespace ps::views {

class DiffPane : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit DiffPane(QWidget *parent = nullptr);
    void showResult(const core::configedit::SessionResultPtr &result);

private:
    std::string m_shown; // the diff text shown; an edit elsewhere often leaves it unchanged
};

} // namespace ps::views
