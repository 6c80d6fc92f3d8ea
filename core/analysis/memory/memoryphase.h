#pragma once
// Which phase a rank was in when its memory peaked: the memory report's time (on the wall clock)
// looked up in the annotation ranges (NVTX, record_function, mstx, roctx) of the same rank's
// traces. A phase is the outermost range whose label the phase mapping knows (phases.h); where
// none covers the time, the outermost annotation range that does is named instead.

#include "core/analysis/phases/phasemapping.h"
#include "core/trace/store/report.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ps::core::analysis {

struct MemoryPhase
{
    std::string phase;           // the mapped phase, or the range's label when `mapped` is false
    bool mapped = false;         // a phase of the mapping (else an unmapped annotation range)
    std::optional<int64_t> step; // the phase's step (mapped phases only)
    std::string range;           // the annotation range's own label
    std::string trace;           // the trace's path
};

// The traces (not memory reports) of the rank `rank` and, when both say, of step `step`.
std::vector<trace::ReportPtr> sameRankTraces(std::optional<int> rank, std::optional<int> step,
                                             std::span<const trace::ReportPtr> reports);

// The phase at `utcNs` (ns since the epoch) in the first of `traces` that covers it; traces
// without a UTC origin cannot be tied to the wall clock and are skipped. Nullopt when none covers it.
std::optional<MemoryPhase> phaseAtUtc(int64_t utcNs, std::span<const trace::ReportPtr> traces,
                                      const PhaseMapping &mapping);

} // namespace ps::core::analysis
