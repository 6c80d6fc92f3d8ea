#pragma once
// When each GPU of a report is busy: the union of its kernels, copies, memsets and syncs, with
// the busy time before each interval, so that the busy share of any time bin is two binary
// searches. The timeline's utilization lane asks it once per pixel column.

#include "core/analysis/breakdown/intervals.h"
#include "core/common/canceltoken.h"
#include "core/trace/store/eventstore.h"

#include <vector>

namespace ps::core::analysis {

class DeviceBusy
{
public:
    DeviceBusy(uint32_t device, std::vector<Interval> busy);

    uint32_t device() const { return m_device; }
    const std::vector<Interval> &intervals() const { return m_busy; }
    // Busy ns within [t0, t1) (report clock).
    int64_t busyIn(int64_t t0, int64_t t1) const { return busyBefore(t1) - busyBefore(t0); }
    int64_t totalBusy() const
    {
        return m_before.empty() ? 0 : m_before.back() + (m_busy.back().end - m_busy.back().start);
    }

    // Busy ns before t.
    int64_t busyBefore(int64_t t) const;

    // busyBefore() for times asked in ascending order, as a pass over pixel columns does: each
    // answer searches forward from the previous one (galloping), so a frame costs the log of the
    // intervals per column, not of all intervals.
    class Cursor
    {
    public:
        explicit Cursor(const DeviceBusy &busy) : m_busy(busy) {}
        int64_t busyBefore(int64_t t);

    private:
        const DeviceBusy &m_busy;
        size_t m_next = 0; // first interval starting after the last time asked
    };

private:
    uint32_t m_device;
    std::vector<Interval> m_busy;
    std::vector<int64_t> m_before; // busy ns before m_busy[i].start
};

// One per device with GPU work, by device id; empty when cancelled.
std::vector<DeviceBusy> deviceBusy(const trace::EventStore &store, const core::CancelToken *cancel = nullptr);

} // namespace ps::core::analysis
