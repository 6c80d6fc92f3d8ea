#pragma once
// A CUDA memory snapshot's history on one device, counted as memory_viz's Active Memory Timeline
// counts it (../shared/spec/analysis-definitions-2026.md B2): `alloc` opens a block,
// `free_completed` closes it, `free_requested` changes nothing; blocks that predate the recorded
// history (freed in the trace without an alloc in it, or active_allocated in the dump-time
// segments but never allocated in the trace) count from the start. Reserved bytes follow the
// segment events, anchored at the dump-time segments (the last state is known exactly; the ring
// buffer may have lost the first).
//
// The reader (lanes on the timeline), the peak analysis (core/analysis/memory/memorypeak.h) and a view
// listing the blocks live at a point all count from here.

#include "core/trace/memory/torchmemory.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ps::core::trace {

inline constexpr size_t kMemBefore = SIZE_MAX - 1; // allocated before the recorded history
inline constexpr size_t kMemNever = SIZE_MAX;      // still allocated when the snapshot was taken

// One allocation: from its alloc (trace index, or kMemBefore) to its free_completed (or kMemNever).
struct MemElement
{
    uint64_t addr = 0;
    int64_t size = 0;
    uint32_t stack = 0;
    size_t start = kMemBefore;
    size_t end = kMemNever;

    // Allocated right after trace entry `event` (nullopt: before the first entry).
    bool liveAfter(std::optional<size_t> event) const
    {
        const bool started = start == kMemBefore || (event && start <= *event);
        const bool ended = end != kMemNever && event && end <= *event;
        return started && !ended;
    }
};

// The devices the snapshot speaks of (a trace or a segment), ascending; at most 4096.
std::vector<int64_t> memoryDevices(const MemorySnapshot &s);
// The device's trace (empty when the file has none for it).
const std::vector<MemTraceEntry> &memoryTrace(const MemorySnapshot &s, int64_t device);
std::vector<MemElement> memoryElements(const MemorySnapshot &s, int64_t device);

// Where trace entry `index` stands on the report's time axis: time_us in ns when the file has
// times, entries that share a µs with the ones before them 1 ns apart in file order (torch
// writes whole µs, and an alloc and a free in one µs must stay two samples of a lane, or the
// peak between them is lost); else its place in the trace, one µs per entry (memory_viz's x
// axis is event order).
int64_t memoryEntryTimeNs(const MemorySnapshot &s, const std::vector<MemTraceEntry> &trace, size_t index);

// Wall-clock times are >= 1e17 ns since the epoch (1973 on), as the Kineto reader decides.
inline constexpr int64_t kMemoryEpochFloorNs = int64_t(1e17);
// The earliest entry's time over every device (memoryEntryTimeNs); nullopt without entries.
std::optional<int64_t> memoryFirstTimeNs(const MemorySnapshot &s);
// True when the snapshot's times are on the wall clock (µs since the epoch, as PyTorch writes
// time_us), so that they tie to the traces' clock.
bool memoryOnWallClock(const MemorySnapshot &s);

struct MemoryCurve
{
    int64_t baselineBytes = 0;      // allocated before the history began
    std::vector<int64_t> timeNs;    // per alloc / free_completed, in trace order
    std::vector<int64_t> allocated; // bytes allocated after that entry
    std::vector<size_t> event;      // the entry's index in the trace
    int64_t peakBytes = 0;
    std::optional<size_t> peakEvent; // none: nothing rose above the baseline
    int64_t reservedStartBytes = 0;  // reserved before the first segment event
    std::vector<int64_t> reservedTimeNs, reserved;
    int64_t peakReservedBytes = 0;
};
MemoryCurve memoryCurve(const MemorySnapshot &s, int64_t device, const std::vector<MemElement> &elements);

// A block allocated at a point in time, for a list of what holds the memory there.
struct LiveBlock
{
    uint64_t addr = 0;
    int64_t size = 0;
    uint32_t stack = 0;                 // MemorySnapshot::stack()
    std::optional<int64_t> allocTimeNs; // absent when allocated before the history
};
// The last of the device's trace entries at or before `timeNs` (the report's axis,
// memoryEntryTimeNs), in file order (times need not be sorted); nullopt when none is.
std::optional<size_t> memoryEventAt(const MemorySnapshot &s, const std::vector<MemTraceEntry> &trace, int64_t timeNs);
// The blocks allocated on `device` right after trace entry `event` (nullopt: before the first),
// largest first; `total` (if given) gets their sum. What "the blocks at the peak" lists: several
// entries can share the peak's time, so the peak is an entry, not a time.
// `elements` are the device's (memoryElements).
std::vector<LiveBlock> liveBlocksAfter(const MemorySnapshot &s, int64_t device, const std::vector<MemElement> &elements,
                                       std::optional<size_t> event, int64_t *total = nullptr);
// The allocation site of a stack, as liveGroups groups blocks: its user frames (torch internals
// left out), or the stack itself when it has none. Equal keys, one site.
std::string memorySiteKey(const MemorySnapshot &s, uint32_t stack);
// The blocks allocated on `device` at `timeNs` (the report's axis, memoryEntryTimeNs): after
// every trace entry at or before it. Largest first; `total` (if given) gets their sum.
std::vector<LiveBlock> liveBlocksAt(const MemorySnapshot &s, int64_t device, int64_t timeNs, int64_t *total = nullptr);

// A frame is a torch internal (folded) when it is C/C++ (stacks="all") or in the torch package
// (POSIX or Windows paths).
bool isTorchInternalFrame(const MemFrame &f);

// Live blocks that share one allocation site: the same user frames (or, without any, the same stack).
struct LiveGroup
{
    int64_t bytes = 0;
    int64_t blocks = 0;
    uint32_t stack = 0;           // the first block's full stack (MemorySnapshot::stack)
    std::vector<uint32_t> frames; // user frames, innermost first (torch internals folded)
    int foldedFrames = 0;         // torch-internal frames left out of `frames`
};
// The elements live right after trace entry `event` (nullopt: before the first), grouped by
// site, largest first.
std::vector<LiveGroup> liveGroups(const MemorySnapshot &s, const std::vector<MemElement> &elements,
                                  std::optional<size_t> event);

// The device's OOMs in trace order (times absent when the file has none).
std::vector<MemoryOom> memoryOoms(const MemorySnapshot &s, int64_t device);

// The device at its peak, as the report keeps it (memorypeaks.h): the curve's peak, the top
// kMemoryPeakSites sites live at it with their first kMemoryPeakFrames user frames, the OOMs.
MemoryDevicePeak memoryDevicePeak(const MemorySnapshot &s, int64_t device, const std::vector<MemElement> &elements,
                                  const MemoryCurve &curve);

} // namespace ps::core::trace
