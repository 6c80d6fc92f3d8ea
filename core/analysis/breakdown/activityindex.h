#pragma once
// The index of a report's GPU activity that makes the breakdown of any time window cost
// O(log n + GPU tracks) instead of a pass over its events, so the phase table (a breakdown per
// phase and rank) and run-against-run compare read each event once per report, not once per
// question:
//   - the elementary segments of the sweep over the per-class unions (breakdown.h), each with
//     the set of classes active in it, in time order, and the running time per set every
//     kStride segments;
//   - per GPU track, whether its events also end in start order; then the events a window
//     holds are counted by binary search, else by a pass over the track's window;
//   - the breakdown of the whole report.
// Built once per store by the first analysis that needs it and kept with the store
// (EventStore::derived); every view and command then shares it.

#include "core/analysis/breakdown/breakdown.h"

#include <memory>
#include <vector>

namespace ps::core::analysis {

struct ActivityIndex
{
    static constexpr size_t kStride = 32;

    GpuBreakdown whole; // the breakdown of the report's whole capture

    // Sweep segments: disjoint, in time order; mask = the active classes (bit = GpuWork). 17
    // bytes each, one per change of the mask: at most two per event, whatever the events' times
    // (a 2^62 ns kernel is one segment; lengths are 64-bit so no duration is ever split).
    std::vector<int64_t> segmentStart;
    std::vector<int64_t> segmentLength;
    std::vector<uint8_t> segmentSlot; // index into `masks`
    std::vector<uint8_t> masks;       // the distinct masks that occur
    // checkpoints[c * masks.size() + slot]: time of that mask over segments [0, c * kStride).
    std::vector<int64_t> checkpoints;

    struct GpuTrack
    {
        uint32_t track = 0;
        bool endsInStartOrder = false;
    };
    std::vector<GpuTrack> gpuTracks; // non-empty GPU tracks

    int64_t segmentEnd(size_t i) const { return segmentStart[i] + segmentLength[i]; }
    // Adds the time per mask of whole segments [from, to) to `maskNs`.
    void addSegmentTimes(size_t from, size_t to, std::array<int64_t, 1u << kGpuWorkCount> &maskNs) const;
    size_t memoryBytes() const;
};

// The index of `store`, built on first use (a pass over its GPU events) and then shared; null
// when cancelled while building.
std::shared_ptr<const ActivityIndex> activityIndex(const trace::EventStore &store,
                                                   const core::CancelToken *cancel = nullptr);

// The breakdown of the GPU events in `window` (as computeBreakdown with only a window filter).
GpuBreakdown windowBreakdown(const trace::EventStore &store, const ActivityIndex &index, TimeWindow window);

} // namespace ps::core::analysis
