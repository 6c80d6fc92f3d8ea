#pragma once
// The memory summary a digest carries (digest section "MEMS", reportsource.h), so that a
// 1024-rank run triages memory from digests: every memory lane's peak (nsys, Kineto, Ascend,
// rocpd counters and PyTorch's own memory files alike) and, for a CUDA memory snapshot, each
// device's peak with the allocation sites live at it (top kMemorySummarySites, their user
// frames) and the OOMs. The snapshot part is made from the file itself (the report keeps only
// its lanes), so it needs the snapshot where the report was read from.

#include "core/analysis/memorypeak.h"
#include "core/trace/reportsource.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::core::analysis {

inline constexpr size_t kMemorySummarySites = 10;
inline constexpr size_t kMemorySummaryFrames = 8;

struct MemorySummary
{
    struct Lane
    {
        uint32_t device = 0;
        std::string source;
        int64_t peakBytes = 0;
        std::optional<int64_t> peakTimeNs;
    };
    struct Site
    {
        int64_t bytes = 0;
        int64_t blocks = 0;
        std::vector<trace::MemFrame> frames; // user frames, innermost first
        int foldedFrames = 0;
    };
    struct Device
    {
        int64_t device = 0;
        int64_t peakBytes = 0;
        std::optional<int64_t> peakTimeNs;
        int64_t peakReservedBytes = 0;
        std::vector<Site> liveAtPeak; // largest first
        std::vector<MemoryOom> ooms;
    };
    std::vector<Lane> lanes;
    std::vector<Device> snapshot; // a torch memory snapshot's devices; empty for other reports
};

// From the report's lanes, and its snapshot file when it is one. Nullopt with `error` when the
// snapshot cannot be read again.
std::optional<MemorySummary> computeMemorySummary(const trace::Report &report, const trace::EventStore &events,
                                                  const trace::CancelToken *cancel, std::string &error);
std::string encodeMemorySummary(const MemorySummary &s);
bool decodeMemorySummary(std::string_view bytes, MemorySummary &s, std::string &error);

extern const trace::SummaryKind<MemorySummary> kMemorySummary;

} // namespace ps::core::analysis
