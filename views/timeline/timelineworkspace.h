#pragma once
// The Timeline workspace: many reports opened together, one row group per report.

#include "views/common/workspace.h"

class QStackedWidget;
class QTreeWidget;

namespace ps::views {

class EmptyState;

class TimelineWorkspace : public Workspace
{
    Q_OBJECT
public:
    explicit TimelineWorkspace(QWidget *parent = nullptr);

    QString title() const override { return QStringLiteral("Timeline"); }
    bool accepts(const QString &path) const override;
    void openPaths(const QStringList &paths) override;

    // True for the file names ProfStudio reads as reports (nsys SQLite/.nsys-rep, rocpd and
    // Ascend .db, Kineto .json/.json.gz).
    static bool isReportFileName(const QString &fileName);

private:
    QStackedWidget *m_stack = nullptr;
    EmptyState *m_empty = nullptr;
    QTreeWidget *m_reports = nullptr;
};

} // namespace ps::views
