#pragma once
// The launch plan per worker: the driver line, then every worker with its wrapped command (as the
// framework renders it), the environment profiling adds, its capture ranges and output files,
// or why it is not wrapped; then where to collect the reports.

#include "core/configedit/sessionresult.h"

#include <QTreeWidget>

namespace ps::views {

class LaunchPlanPane : public QTreeWidget
{
    Q_OBJECT
public:
    explicit LaunchPlanPane(QWidget *parent = nullptr);
    void showResult(const core::configedit::SessionResultPtr &result);
    // The command shown for a worker ("ActorGroup:0"), or empty.
    QString commandOf(const QString &worker) const;

private:
    std::string m_shown; // signature of the plan shown, to rebuild only when it changed
};

} // namespace ps::views
