#pragma once
// The Configure workspace: open a Hydra config (RLinf, verl) and see it. The composition,
// validation, launch-plan and export panes build on the config and profiling engines.

#include "views/common/workspace.h"

class QLabel;
class QPlainTextEdit;
class QStackedWidget;

namespace ps::views {

class EmptyState;

class ConfigureWorkspace : public Workspace
{
    Q_OBJECT
public:
    explicit ConfigureWorkspace(QWidget *parent = nullptr);

    QString title() const override { return QStringLiteral("Configure"); }
    bool accepts(const QString &path) const override;
    void openPaths(const QStringList &paths) override;

    QString currentPath() const { return m_path; }

private:
    void openFile(const QString &path);

    QStackedWidget *m_stack = nullptr;
    EmptyState *m_empty = nullptr;
    QLabel *m_header = nullptr;
    QPlainTextEdit *m_source = nullptr;
    QString m_path;
};

} // namespace ps::views
