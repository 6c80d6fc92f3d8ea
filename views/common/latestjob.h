#pragma once
// Runs "the newest of a series" of background jobs: a search as the user types, a realignment
// after each loaded report, a recomposition after each edit. Only the newest job's result is
// handed over (on the owner's thread); a job that a newer one supersedes has its CancelToken set
// and its result dropped. This replaces per-call generation counters: the token identifies the
// newest job.
//
// It is the one way views run work in the background: the job holds copies of its inputs, reports
// back only on the owner's thread, is cancelled when superseded or asked, and is waited for when
// its owner goes (no worker outlives the objects it reports to). Work that reports as it goes
// (a load's progress, each report as it is ready) posts to the owner with QMetaObject::invokeMethod
// from inside the job; the job's end still comes through here.
//
// Three ways to start a job:
//   run(work)             cancels the running job and starts `work` at once (cheap, cancellable
//                         work such as search or statistics);
//   runAfterCurrent(make) lets the running job finish and then starts the newest request, built
//                         by `make` at that moment (expensive work that ignores cancellation,
//                         such as composing a config: a burst of edits costs two jobs, not N);
//   LatestJob<T>::once(owner, work, done)
//                         one job of its own, deleted when it ends: independent jobs that run side
//                         by side (the pager's loads, one per report; writing the demo run).

#include "core/common/canceltoken.h"

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <memory>

namespace ps::views {

using core::CancelToken;

class LatestJobBase : public QObject
{
    Q_OBJECT
public:
    explicit LatestJobBase(QObject *parent) : QObject(parent) {}
    ~LatestJobBase() override;

    // A job is running (superseded ones included: their threads still hold the CPU) or queued.
    bool isBusy() const { return m_running > 0 || m_queued; }
    // Cancels the newest job and any queued one; no result is delivered for them.
    void cancel();

signals:
    void busyChanged(bool busy);

protected:
    // Supersedes the current job and returns the token of a new one.
    std::shared_ptr<CancelToken> begin();
    bool isNewest(const std::shared_ptr<CancelToken> &token) const { return token == m_newest; }
    // A job ended (its result was delivered or dropped): starts the queued request, if any.
    void ended();
    void queue(std::function<void()> start);

private:
    void setBusy(bool wasBusy);

    std::shared_ptr<CancelToken> m_newest;
    std::function<void()> m_queued;
    int m_running = 0;
};

template <typename T> class LatestJob : public LatestJobBase
{
public:
    using Work = std::function<T(const CancelToken &)>;
    // `done` receives the newest job's result on the owner's thread.
    LatestJob(QObject *parent, std::function<void(T)> done) : LatestJobBase(parent), m_done(std::move(done)) {}

    // `seen` is shown every finished result, superseded ones included, before `done` (a cache
    // may still use a stale result's by-products).
    void setSeen(std::function<void(const T &)> seen) { m_seen = std::move(seen); }
    // The newest job's result is handed over even when it was cancelled (a load says what it
    // read before the cancel); superseded jobs' results are still dropped.
    void setDeliverCancelled(bool on) { m_deliverCancelled = on; }

    // Starts `work` as a job of its own, child of `owner`, which deletes itself when it ends.
    // cancel() on the returned job (or any LatestJobBase child of `owner`) drops its result.
    static LatestJob *once(QObject *owner, Work work, std::function<void(T)> done)
    {
        auto *job = new LatestJob(owner, std::move(done));
        connect(job, &LatestJobBase::busyChanged, job, [job](bool busy) {
            if (!busy)
                job->deleteLater();
        });
        job->run(std::move(work));
        return job;
    }

    void run(Work work)
    {
        const std::shared_ptr<CancelToken> token = begin();
        auto *watcher = new QFutureWatcher<T>(this);
        connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, token] {
            watcher->deleteLater();
            T result = watcher->result();
            if (m_seen)
                m_seen(result);
            if (isNewest(token) && (m_deliverCancelled || !token->cancelled()))
                m_done(std::move(result));
            ended();
        });
        watcher->setFuture(QtConcurrent::run([work = std::move(work), token] { return work(*token); }));
    }

    void runAfterCurrent(std::function<Work()> make)
    {
        queue([this, make = std::move(make)] { run(make()); });
    }

private:
    std::function<void(T)> m_done;
    std::function<void(const T &)> m_seen;
    bool m_deliverCancelled = false;
};

} // namespace ps::views
