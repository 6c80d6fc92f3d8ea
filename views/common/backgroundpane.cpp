#include "views/common/backgroundpane.h"

#include <algorithm>
#include <utility>

namespace ps::views {

bool BackgroundPane::isBusy() const
{
    const auto busy = [](const LatestJobBase *job) { return job->isBusy(); };
    return std::any_of(m_jobs.begin(), m_jobs.end(), busy) ||
           std::any_of(m_shared.begin(), m_shared.end(),
                       [&](const QPointer<LatestJobBase> &j) { return j && busy(j); });
}

void BackgroundPane::whenShown(std::function<void()> start)
{
    cancelJobs();
    if (isVisible())
        start();
    else
        m_waiting = std::move(start);
}

void BackgroundPane::cancelJobs()
{
    m_waiting = nullptr;
    for (LatestJobBase *job : m_jobs)
        job->cancel();
}

void BackgroundPane::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (auto start = std::exchange(m_waiting, nullptr))
        start();
}

void BackgroundPane::watch(LatestJobBase *job)
{
    m_jobs.push_back(job);
    connect(job, &LatestJobBase::busyChanged, this, &BackgroundPane::onBusyChanged);
}

void BackgroundPane::watchShared(LatestJobBase *job)
{
    if (std::find(m_shared.begin(), m_shared.end(), job) != m_shared.end())
        return;
    m_shared.emplace_back(job);
    connect(job, &LatestJobBase::busyChanged, this, &BackgroundPane::onBusyChanged);
}

// The pane's state, not the job's: with several jobs, one ending while another runs is no change.
void BackgroundPane::onBusyChanged()
{
    const bool busy = isBusy();
    if (busy != m_wasBusy)
        emit busyChanged(busy);
    m_wasBusy = busy;
}

} // namespace ps::views
