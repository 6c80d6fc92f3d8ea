#pragma once
// GPU time breakdown of one report (HTA's temporal breakdown and comm/comp overlap,
// ../shared/testdata/peer/hta/README.md §2-3), over the whole capture, a time window, one
// device or one stream. A pure function of an immutable EventStore: safe on any thread,
// cancellable.
//
// GPU events are those of the Kernel, Memcpy, Memset and Sync tracks, each [start, end) and
// classed by gpuwork.h. Let U be their union and U_c the union of class c.
//   span     last end of U - first start of U (HTA kernel_time)
//   busy     |U|;  idle = span - busy (HTA idle_time)
//   union[c] |U_c| (union[Compute] is HTA compute_time)
//   exclusive[c]  busy time attributed to one class with the priority compute > communication >
//            memcpy > memset > sync > other, so the six add up to busy (HTA's non_compute_time
//            is busy - exclusive[Compute]).
//   mask[m]  time during which exactly the classes of bit set m are active.
//   overlap  |U_comm ∩ U_comp| / |U_comm| (HTA comp_comm_overlap_pctg / 100); none without
//            communication.
// With a window [t0, t1), the events that start before t1 and end after t0 (and instants at t0)
// are clipped to it, and the span is that of the clipped events; an inverted window holds none.
// Without a device or stream filter the answer comes from the store's ActivityIndex
// (activityindex.h), built on first use; computeBreakdownDirect always passes over the events.

#include "core/analysis/breakdown/gpuwork.h"
#include "core/common/canceltoken.h"
#include "core/common/timewindow.h"
#include "core/trace/store/eventstore.h"
#include "core/trace/store/report.h"

#include <array>
#include <optional>
#include <vector>

namespace ps::core::analysis {

struct Interval; // intervals.h

using core::TimeWindow;

// Which GPU events count; unset fields do not filter.
struct BreakdownFilter
{
    std::optional<TimeWindow> window;
    std::optional<uint32_t> device;
    std::optional<uint32_t> stream; // with `device`, one stream of one device
};

struct GpuBreakdown
{
    size_t events = 0; // GPU events counted (after filtering)
    int64_t firstStart = 0;
    int64_t lastEnd = 0;
    int64_t spanNs = 0;
    int64_t busyNs = 0;
    int64_t idleNs = 0;
    std::array<int64_t, kGpuWorkCount> unionNs{};
    std::array<int64_t, kGpuWorkCount> exclusiveNs{};
    std::array<int64_t, 1u << kGpuWorkCount> maskNs{};
    int64_t commCompOverlapNs = 0;
    bool cancelled = false;

    int64_t exclusive(GpuWork w) const { return exclusiveNs[size_t(w)]; }
    int64_t computeNs() const { return exclusive(GpuWork::Compute); }
    int64_t communicationNs() const { return exclusive(GpuWork::Communication); }
    int64_t memoryNs() const { return exclusive(GpuWork::Memcpy) + exclusive(GpuWork::Memset); }
    int64_t otherNs() const { return exclusive(GpuWork::Sync) + exclusive(GpuWork::Other); }
    // 100 * overlap / |U_comm|; none when the report has no communication.
    std::optional<double> overlapPct() const;
};

// Per-name class of every GPU event of a store, computed once (names are few, events many).
class WorkClassTable
{
public:
    explicit WorkClassTable(const trace::EventStore &store);
    GpuWork of(const trace::Track &track, size_t index) const;

private:
    std::vector<GpuWork> m_kernelClass; // by NameId
};

GpuBreakdown computeBreakdown(const trace::EventStore &store, const BreakdownFilter &filter = {},
                              const core::CancelToken *cancel = nullptr);
// Same, reusing a class table built for the store.
GpuBreakdown computeBreakdown(const trace::EventStore &store, const WorkClassTable &classes,
                              const BreakdownFilter &filter, const core::CancelToken *cancel);
// One pass over the selected events, without the index (what the index is built from and
// checked against). With `busy`, also the union of the selected GPU work (ascending, disjoint).
GpuBreakdown computeBreakdownDirect(const trace::EventStore &store, const WorkClassTable &classes,
                                    const BreakdownFilter &filter, const core::CancelToken *cancel,
                                    std::vector<Interval> *busy = nullptr);

// Completes a breakdown whose maskNs, firstStart and lastEnd are set: busy, per-class union and
// exclusive times, overlap, span and idle.
void finishBreakdown(GpuBreakdown &b);

} // namespace ps::core::analysis
