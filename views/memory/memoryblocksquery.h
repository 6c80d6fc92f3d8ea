#pragma once
// What holds the memory at a point of a memory lane, worked out off the GUI thread: for a CUDA
// memory snapshot, the blocks allocated on the lane's device at that time (trace::liveBlocksAt,
// memory_viz's counting, what `trace memory --at` lists) or at its peak, grouped by allocation
// site, largest first, each with its stack split into user frames and the torch internals
// folded under them, and the device's OOMs; for a memory-timeline export, the
// bytes per category there (it records categories, not blocks). The snapshot is read again from
// the report's file, which the report does not keep in memory; a pane reuses the last one read.

#include "core/common/canceltoken.h"
#include "core/trace/memory/torchmemory.h"
#include "core/trace/store/report.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ps::views {

// Where the user pointed on a memory lane.
struct MemoryPoint
{
    core::trace::ReportPtr report;
    size_t series = 0;  // index into report->meta.memory
    int64_t timeNs = 0; // on the report's own clock (its events' and lanes' times)
    QString where;      // "ActorGroup r3 · GPU 0 · torch allocated at 12.5 ms", for the heading
    QString lane;       // the same without the time
    // The lane's peak rather than a time: the blocks right after the entry that made the peak
    // (trace memory's peak_event), as several entries can share its time. timeNs is then the
    // peak's time, set by the query.
    bool atPeak = false;

    // The heading's name of the point: `where`, or the lane "at its peak" (the peak's entry, not
    // the time that was clicked).
    QString title() const { return atPeak ? lane + QStringLiteral(" at its peak") : where; }
};

// Blocks that share one allocation site (trace::memorySiteKey, as `trace memory` groups them).
struct MemorySiteRow
{
    int64_t bytes = 0; // every live block of the site, listed or not
    int64_t blocks = 0;
    std::vector<core::trace::MemFrame> userFrames; // innermost first
    int foldedFrames = 0;
    std::vector<size_t> rows; // its blocks among MemoryBlocks::blocks, largest first
};

struct MemoryBlockRow
{
    int64_t bytes = 0;
    uint64_t addr = 0;
    std::optional<int64_t> agoNs; // allocated this long before the point; absent: before the history
    std::vector<core::trace::MemFrame> userFrames, internalFrames; // innermost first
};

struct MemoryBlocks
{
    QString heading;                                    // what the list shows, or why there is nothing to list
    bool failed = false;                                // the heading is an error (the snapshot could not be read)
    std::vector<MemoryBlockRow> blocks;                 // largest first, at most kMemoryBlocksShown
    std::vector<MemorySiteRow> sites;                   // the blocks by allocation site, largest first
    std::optional<int64_t> peakTimeNs;                  // the point was the lane's peak, at this time
    size_t blockCount = 0;                              // every block live at the point
    int64_t bytes = 0;                                  // their sum
    std::vector<core::trace::MemoryOom> ooms;           // the device's OOMs
    std::vector<std::pair<size_t, int64_t>> categories; // a memory timeline: (category, bytes) at the point
    std::shared_ptr<const core::trace::MemorySnapshot> snapshot; // the snapshot read or reused
};

// A list of more blocks is no help to a reader and costs the tree its speed.
inline constexpr size_t kMemoryBlocksShown = 2000;

// Whether the lane comes from a CUDA memory snapshot (its live blocks can be listed).
bool isSnapshotLane(const core::trace::Report &report, size_t series);

// The answer for `point`. `cached` is reused when it is the snapshot of the same file as loaded;
// a file changed since it was opened is not read (its blocks would not match the lanes).
MemoryBlocks queryMemoryBlocks(const MemoryPoint &point, std::shared_ptr<const core::trace::MemorySnapshot> cached,
                               const core::CancelToken &cancel);

} // namespace ps::views
