#pragma once
// Peak memory per matched rank between two runs (trace compare): for each matched pair of
// reports (runcompare.h's matchReports) and each memory source they record (memoryseries.h:
// "torch allocated" from snapshots, "CUDA device memory" from nsys, ...), the highest peak on
// either side, kept per match key ("ActorGroup:3#2") and source. Sources are never mixed: an
// allocator's allocated bytes and a device's used bytes are different quantities.

#include "core/analysis/runcompare.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::core::analysis {

struct MemoryPeakDelta
{
    std::string key;    // matchKey of the pair
    std::string source; // MemorySeries::source
    uint32_t device = 0;
    std::optional<int64_t> baselineBytes; // absent when only the other side records the source
    std::optional<int64_t> candidateBytes;
    // % of the baseline; none when either side lacks it or the baseline is 0.
    std::optional<double> deltaPct() const;
};

// In key order, then device and source; empty when no matched pair records memory.
std::vector<MemoryPeakDelta> compareMemoryPeaks(const RunMatch &match, const std::vector<trace::ReportPtr> &baseline,
                                                const std::vector<trace::ReportPtr> &candidate);

} // namespace ps::core::analysis
