#pragma once
// What each device held at its peak, from a CUDA memory snapshot or a memory-timeline export
// (core/trace/memory/torchmemory.h), and which rank peaks highest across a run.
//
// Allocated bytes follow memory_viz's Active Memory Timeline (../shared/spec/
// analysis-definitions-2026.md B2): `alloc` adds, `free_completed` removes, `free_requested`
// changes nothing; blocks that predate the recorded history (freed in the trace without an
// alloc in it, or active_allocated in the dump-time segments but never allocated in the trace)
// count from the start. Reserved bytes come from the segment events, anchored at the
// dump-time segments (the last state is known exactly; the ring buffer may have lost the first).

#include "core/trace/memory/torchmemoryhistory.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::core::analysis {

// Live blocks at the peak that share one allocation site (user frames first, torch internals folded).
using trace::LiveGroup;
using trace::MemoryOom;
// {"time_ns", "bytes", "device_free"}: an OOM as `trace memory` and the digests' MEMS write it.
using trace::writeOomJson;
// A frame is a torch internal (folded) when it is C/C++ (stacks="all") or in the torch package.
using trace::isTorchInternalFrame;

struct DeviceMemory
{
    int64_t device = 0;
    int64_t baselineBytes = 0;      // allocated before the recorded history began
    std::vector<int64_t> timeNs;    // per allocator event (alloc / free_completed), in order
    std::vector<int64_t> allocated; // bytes allocated after that event
    std::vector<int64_t> reservedTimeNs, reserved;
    int64_t peakBytes = 0;
    // Absent when the peak is the start (no event raised it) or the file has no times.
    std::optional<int64_t> peakTimeNs;
    std::optional<size_t> peakEvent; // index into the device's trace (memory_viz's x axis)
    int64_t peakReservedBytes = 0;
    std::vector<LiveGroup> liveAtPeak; // largest first
    std::vector<MemoryOom> ooms;
};

struct SnapshotMemory
{
    std::vector<DeviceMemory> devices; // by device id
};

SnapshotMemory analyzeSnapshot(const trace::MemorySnapshot &s);

// What a device held at a time of the report's axis (`trace memory --at`, and the desktop's
// Memory tab for a click there): the state after every trace entry at or before it
// (trace::memoryEventAt), its blocks grouped by allocation site, largest first.
struct MemoryAt
{
    int64_t device = 0;
    std::optional<size_t> event; // the last entry at or before the time; none: before the first
    int64_t bytes = 0;
    int64_t blocks = 0;
    std::vector<LiveGroup> sites;
};
MemoryAt memoryAt(const trace::MemorySnapshot &s, int64_t device, int64_t timeNs);
// The same right after trace entry `event` (none: before the first), of the device's `elements`
// (trace::memoryElements): what "the blocks at the peak" lists for the peak's entry.
MemoryAt memoryAfter(const trace::MemorySnapshot &s, int64_t device, const std::vector<trace::MemElement> &elements,
                     std::optional<size_t> event);

struct TimelineMemory
{
    int64_t peakBytes = 0;
    std::optional<int64_t> peakTimeNs;
    std::array<int64_t, 8> categoriesAtPeak{}; // trace::kMemoryCategories order
};
TimelineMemory analyzeTimeline(const trace::MemoryTimeline &t);

// Across reports: the highest peak and how far above the median of the reports' peaks.
struct RankPeak
{
    std::optional<int> rank;
    std::string path;
    int64_t peakBytes = 0;
};
struct CrossRankPeak
{
    size_t highest = 0; // index into the input
    int64_t medianBytes = 0;
    int64_t overMedianBytes = 0;
    double overMedianRatio = 0; // highest / median (0 when the median is 0)
};
std::optional<CrossRankPeak> crossRankPeak(const std::vector<RankPeak> &peaks);

} // namespace ps::core::analysis
