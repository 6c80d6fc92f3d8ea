#include "views/common/latestjob.h"

namespace ps::views {

LatestJobBase::~LatestJobBase()
{
    // Jobs hold only copies of their inputs, but a job still running at exit would outlive the
    // statics it uses: cancel, then wait (cancelled work returns soon).
    if (m_newest)
        m_newest->cancel();
    for (QFutureWatcherBase *w : findChildren<QFutureWatcherBase *>(Qt::FindDirectChildrenOnly))
        w->waitForFinished();
}

std::shared_ptr<CancelToken> LatestJobBase::begin()
{
    const bool wasBusy = isBusy();
    if (m_newest)
        m_newest->cancel();
    m_newest = std::make_shared<CancelToken>();
    ++m_running;
    setBusy(wasBusy);
    return m_newest;
}

void LatestJobBase::cancel()
{
    const bool wasBusy = isBusy();
    m_queued = nullptr;
    if (m_newest)
        m_newest->cancel();
    setBusy(wasBusy);
}

void LatestJobBase::queue(std::function<void()> start)
{
    if (m_running == 0) {
        start();
        return;
    }
    const bool wasBusy = isBusy();
    // The running job's result is stale now, but it keeps running: the newest request starts
    // when it ends.
    if (m_newest)
        m_newest->cancel();
    m_queued = std::move(start);
    setBusy(wasBusy);
}

void LatestJobBase::ended()
{
    const bool wasBusy = isBusy();
    --m_running;
    if (m_queued && m_running == 0) {
        const std::function<void()> start = std::move(m_queued);
        m_queued = nullptr;
        start();
    }
    setBusy(wasBusy);
}

void LatestJobBase::setBusy(bool wasBusy)
{
    if (wasBusy != isBusy())
        emit busyChanged(isBusy());
}

} // namespace ps::views
