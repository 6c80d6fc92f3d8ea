#pragma once
// Cancellation shared between the caller (any thread) and a job's workers: readers, the loader,
// analyses and the desktop's background jobs poll it. Generic, so that code which only needs to
// stop early (views/common, Configure) does not link the trace layer.

#include <atomic>

namespace ps::core {

class CancelToken
{
public:
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return m_cancelled.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> m_cancelled{false};
};

} // namespace ps::core
