#pragma once
// The one worker pool of core. parallelFor runs body(i) for every i in [0, count) on `threads`
// threads (the caller's among them), each taking the next index as it finishes the last: for
// independent jobs of uneven size, such as one report each. Workers that need state of their own
// (a database connection each) use runWorkers with a JobQueue.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <optional>
#include <thread>
#include <vector>

namespace ps::core {

// The indexes [0, count) handed out once each, in order, to whichever worker asks first.
class JobQueue
{
public:
    explicit JobQueue(size_t count) : m_count(count) {}
    // The next index, or nothing once every index is taken or stop() was called.
    std::optional<size_t> take()
    {
        const size_t i = m_next.fetch_add(1);
        return i < m_count ? std::optional<size_t>(i) : std::nullopt;
    }
    // No index is handed out after this (jobs already taken run to their end).
    void stop() { m_next.store(m_count); }

private:
    const size_t m_count;
    std::atomic<size_t> m_next{0};
};

// Runs worker(w) once for each w in [0, workers): w = 0 on the caller's thread, the others on
// threads of their own, all joined before it returns. An exception that leaves a worker (out of
// memory, say) is rethrown here after the join, the first one only, instead of terminating.
template <typename Worker> void runWorkers(size_t workers, Worker &&worker)
{
    std::vector<std::exception_ptr> failures(std::max<size_t>(1, workers));
    const auto guarded = [&](size_t w) {
        try {
            worker(w);
        } catch (...) {
            failures[w] = std::current_exception();
        }
    };
    std::vector<std::thread> pool;
    for (size_t w = 1; w < workers; ++w)
        pool.emplace_back(guarded, w);
    guarded(0);
    for (std::thread &t : pool)
        t.join();
    for (const std::exception_ptr &e : failures)
        if (e)
            std::rethrow_exception(e);
}

template <typename Body> void parallelFor(size_t count, int threads, Body &&body)
{
    JobQueue queue(count);
    const size_t workers = std::max<size_t>(1, std::min<size_t>(size_t(std::max(1, threads)), count));
    runWorkers(workers, [&](size_t) {
        while (const std::optional<size_t> i = queue.take())
            body(*i);
    });
}

} // namespace ps::core
