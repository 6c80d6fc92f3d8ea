#pragma once
// PyTorch's own memory records, as files:
//  - CUDA memory snapshots (torch.cuda.memory._dump_snapshot, verl's torch_memory tool
//    `stepS/torch_memory_rankR_pidP.pickle`): the allocator's segments and blocks at dump time
//    and, per device, the trace of allocator events since history recording began (a ring
//    buffer of max_entries: the oldest may be gone);
//  - the profiler's export_memory_timeline outputs: `.raw.json.gz` rows (time ns, action,
//    signed bytes, category index) and `.json`/`.json.gz` [times µs, sizes by category].
// Schemas: ../shared/spec/analysis-definitions-2026.md B1, B3, B4.

#include "core/trace/memory/memorypeaks.h" // MemFrame

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ps::core::trace {

enum class MemAction : uint8_t {
    Alloc,
    FreeRequested,
    FreeCompleted, // also the legacy "free"
    SegmentAlloc,
    SegmentFree,
    SegmentMap,
    SegmentUnmap,
    Snapshot,
    Oom,
    Annotate,
    Other
};
std::string_view memActionName(MemAction a);

struct MemTraceEntry
{
    int64_t timeUs = 0;
    uint64_t addr = 0;   // oom: the device's free bytes (device_free)
    int64_t size = 0;    // oom: the requested size
    uint32_t stack = 0;  // MemorySnapshot::stack(); 0 = no frames
    uint16_t stream = 0; // index into MemorySnapshot::streams
    MemAction action = MemAction::Other;
};

enum class MemBlockState : uint8_t { ActiveAllocated, ActivePendingFree, Inactive, Other };

struct MemBlock
{
    uint64_t addr = 0;
    int64_t size = 0;
    int64_t requestedSize = 0;
    uint32_t stack = 0;
    MemBlockState state = MemBlockState::Other;
};

struct MemSegment
{
    int64_t device = 0;
    uint64_t addr = 0;
    int64_t totalSize = 0;
    int64_t allocatedSize = 0;
    int64_t activeSize = 0;
    int64_t requestedSize = 0;
    int64_t stream = 0;
    std::string type; // "small" | "large"
    bool expandable = false;
    uint32_t stack = 0;
    uint32_t firstBlock = 0; // into MemorySnapshot::blocks
    uint32_t blockCount = 0;
};

// Who wrote a memory file, as its name says (memoryFileIdentity, formats/torchmemoryfiles.h).
struct MemoryFileIdentity
{
    std::optional<int> rank;
    std::optional<int> step;
    std::optional<uint32_t> pid;
};

struct MemorySnapshot
{
    std::string path;
    MemoryFileIdentity identity;
    std::vector<MemSegment> segments;
    std::vector<MemBlock> blocks;
    // device_traces: the list index is the device.
    std::vector<std::vector<MemTraceEntry>> traces;
    std::vector<MemFrame> frames;
    std::vector<int64_t> streams;
    std::vector<std::pair<std::string, std::string>> allocatorSettings; // key, value as text
    std::vector<std::string> warnings;
    bool hasTimes = false; // some trace entry has time_us (older torch wrote none)

    size_t stackCount() const { return m_stackStart.size() - 1; }
    // Frame indices of a stack, innermost first, as the file lists them.
    std::pair<const uint32_t *, size_t> stack(uint32_t s) const
    {
        return {m_stackFrames.data() + m_stackStart[s], m_stackStart[s + 1] - m_stackStart[s]};
    }
    uint32_t addStack(const uint32_t *frames, size_t n);

private:
    std::vector<uint32_t> m_stackFrames;
    std::vector<uint32_t> m_stackStart{0, 0}; // stack 0 is empty
};

// a + b wrapping on overflow (sums over hostile files stay defined; real ones never wrap).
inline int64_t addWrapping(int64_t a, int64_t b)
{
    return int64_t(uint64_t(a) + uint64_t(b));
}
inline int64_t subWrapping(int64_t a, int64_t b)
{
    return int64_t(uint64_t(a) - uint64_t(b));
}

// export_memory_timeline's categories, in the order of _CATEGORY_TO_INDEX (None last).
inline constexpr std::array<std::string_view, 8> kMemoryCategories = {
    "PARAMETER", "OPTIMIZER_STATE", "INPUT", "TEMPORARY", "ACTIVATION", "GRADIENT", "AUTOGRAD_DETAIL", "unknown"};

// The lanes of a snapshot report, per device (torchmemoryreader.h).
inline constexpr std::string_view kSnapshotAllocatedSource = "torch allocated";
inline constexpr std::string_view kSnapshotReservedSource = "torch reserved";

// The lanes a memory-timeline report has (torchmemoryreader.h): the total, then one per category
// it uses, named by these; a view stacks the categories under the total.
inline constexpr std::string_view kTimelineTotalSource = "timeline total";
std::string timelineCategorySource(size_t category); // "timeline ACTIVATION"
// The category (index into kMemoryCategories) a lane's source names; nullopt for other lanes.
std::optional<size_t> timelineCategoryOfSource(std::string_view source);

struct MemoryTimeline
{
    std::string path;
    MemoryFileIdentity identity;
    bool raw = false; // .raw.json.gz rows, else [times, sizes]
    std::vector<int64_t> timeNs;
    std::vector<std::array<int64_t, 8>> bytes; // bytes per category from timeNs[i] on
};

} // namespace ps::core::trace
