#pragma once
// A pane that computes what it shows in the background (the Breakdown and Collectives tabs, the
// cluster overview): its jobs are LatestJobs made with addJob(), isBusy() is true while one runs,
// and busyChanged says when that changes, so the workspace can say it is busy without knowing
// the pane's jobs.

#include "views/common/latestjob.h"

#include <QPointer>
#include <QWidget>

#include <functional>
#include <vector>

namespace ps::views {

class BackgroundPane : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;

    bool isBusy() const;

signals:
    void busyChanged(bool busy);

protected:
    // A job of this pane; `done` receives its newest result on the GUI thread.
    template <typename T> LatestJob<T> *addJob(std::function<void(T)> done)
    {
        auto *job = new LatestJob<T>(this, std::move(done));
        watch(job);
        return job;
    }
    // Runs `start` now when the pane can be seen, else when it is next shown: a tab nobody looks
    // at does not sum 17 M collective members of a 1024-rank run. `start` is for new inputs, so
    // the pane's running jobs and a start still waiting are dropped first (their results would
    // be of the inputs before). For panes whose results only they show.
    void whenShown(std::function<void()> start);
    // Cancels every job of the pane and forgets a start waiting to be shown.
    void cancelJobs();
    // A job the pane reads but does not own (one shared by several panes): counted in isBusy,
    // never cancelled by cancelJobs.
    void watchShared(LatestJobBase *job);
    void showEvent(QShowEvent *event) override;

private:
    void watch(LatestJobBase *job);

    void onBusyChanged();

    std::vector<LatestJobBase *> m_jobs;
    std::vector<QPointer<LatestJobBase>> m_shared; // may go before the pane
    bool m_wasBusy = false;
    std::function<void()> m_waiting; // a start deferred until the pane is shown
};

} // namespace ps::views
