#pragma once
// The memory summary a digest carries (digest section kMemorySummaryTag, reportsource.h), so that a
// 1024-rank run triages memory from digests: every memory lane's peak (nsys, Kineto, Ascend,
// rocpd counters and PyTorch's own memory files alike) and, for a CUDA memory snapshot, each
// device's peak with the allocation sites live at it (top kMemorySummarySites, their user
// frames) and the OOMs. The snapshot part is what the reader kept with the report
// (ReportMeta::memoryPeaks, in the report cache too): the file is not read again.

#include "core/analysis/memory/memorypeak.h"
#include "core/trace/read/reportsource.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::core::analysis {

inline constexpr std::string_view kMemorySummaryTag = "MEMS";

inline constexpr size_t kMemorySummarySites = trace::kMemoryPeakSites;
inline constexpr size_t kMemorySummaryFrames = trace::kMemoryPeakFrames;

struct MemorySummary
{
    struct Lane
    {
        uint32_t device = 0;
        std::string source;
        int64_t peakBytes = 0;
        std::optional<int64_t> peakTimeNs;
    };
    using Site = trace::MemoryPeakSite;
    using Device = trace::MemoryDevicePeak;
    std::vector<Lane> lanes;
    std::vector<Device> snapshot; // a torch memory snapshot's devices; empty for other reports
};

// From the report's lanes and, for a snapshot, the devices its reader kept. Never fails.
std::optional<MemorySummary> computeMemorySummary(const trace::Report &report, const trace::EventStore &events,
                                                  const core::CancelToken *cancel, std::string &error);
std::string encodeMemorySummary(const MemorySummary &s);
bool decodeMemorySummary(std::string_view bytes, MemorySummary &s, std::string &error);

extern const trace::SummaryKind<MemorySummary> kMemorySummary;

} // namespace ps::core::analysis
