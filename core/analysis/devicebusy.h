#pragma once
// When each GPU of a report is busy: the union of its kernels, copies, memsets and syncs, with
// the busy time before each interval, so that the busy share of any time bin is two binary
// searches. The timeline's utilization lane asks it once per pixel column.

#include "core/analysis/intervals.h"
#include "core/trace/eventstore.h"

#include <vector>

namespace ps::core::trace {
class CancelToken;
}

namespace ps::core::analysis {

class DeviceBusy
{
public:
    DeviceBusy(uint32_t device, std::vector<Interval> busy);

    uint32_t device() const { return m_device; }
    const std::vector<Interval> &intervals() const { return m_busy; }
    // Busy ns within [t0, t1) (report clock).
    int64_t busyIn(int64_t t0, int64_t t1) const { return busyBefore(t1) - busyBefore(t0); }
    int64_t totalBusy() const { return m_before.empty() ? 0 : m_before.back() + (m_busy.back().end - m_busy.back().start); }

private:
    int64_t busyBefore(int64_t t) const;

    uint32_t m_device;
    std::vector<Interval> m_busy;
    std::vector<int64_t> m_before; // busy ns before m_busy[i].start
};

// One per device with GPU work, by device id; empty when cancelled.
std::vector<DeviceBusy> deviceBusy(const trace::EventStore &store, const trace::CancelToken *cancel = nullptr);

} // namespace ps::core::analysis
