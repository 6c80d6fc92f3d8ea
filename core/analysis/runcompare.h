#pragma once
// Run against run: what changed between a baseline and a candidate run of the same job.
//
// Reports are matched by who they are (identity.h): worker group, rank and step; a report
// without a rank is matched by its file name. Over the matched reports only, it compares
//   - phases   wall time per (step, phase, rank) and per (step, phase) on the slowest rank;
//   - ranges   total time per annotation range (nvtx_sum totals);
//   - kernels  total time per kernel (kernel_sum totals);
//   - breakdown  GPU compute / communication / memory / other / idle time, summed over the
//              matched reports (as msprof-analyze compare puts the two profiles side by side),
//              with communication also split into "communication wait" and "communication
//              transfer" (collectivewait.h: the side's collectives matched across its reports).
// A delta counts as a change when it moves by more than the tolerance (% of the baseline);
// deltas are ranked by their absolute size. A pure function of immutable reports.

#include "core/analysis/phases/phasemapping.h"
#include "core/common/canceltoken.h"
#include "core/trace/store/report.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::core::analysis {

enum class DeltaKind { Phase, PhaseRank, Range, Kernel, Breakdown };
// "phase", "phase_rank", "range", "kernel", "breakdown".
const char *deltaKindName(DeltaKind kind);

// Where a phase delta's time went in one run: the report (index into that run's reports as
// passed to compareRuns) and the cell's first range, for a view to select. A phase delta's site
// is its slowest rank's, the one its figure is.
struct DeltaSite
{
    size_t report = 0;
    trace::EventRef range;
};

struct Delta
{
    DeltaKind kind = DeltaKind::Range;
    std::string name;            // "update_actor", "ActorGroup:3 update_actor", a range, a kernel, "idle"
    std::optional<int64_t> step; // phases
    int64_t baselineNs = 0;
    int64_t candidateNs = 0;
    int64_t deltaNs() const { return candidateNs - baselineNs; }
    // % of the baseline; none when the baseline is 0 (the item is new).
    std::optional<double> deltaPct() const;
    bool changed = false;                                 // moved by more than the tolerance
    std::optional<DeltaSite> baselineSite, candidateSite; // phases, where the run has the cell
};

struct RunMatch
{
    std::vector<std::pair<size_t, size_t>> pairs; // (baseline index, candidate index)
    std::vector<size_t> baselineOnly;
    std::vector<size_t> candidateOnly;
};

struct RunComparison
{
    RunMatch match;
    std::vector<Delta> deltas; // ranked: largest |delta| first
    bool cancelled = false;
    // Matched reports that could not answer part of the comparison (a digest without a sound
    // summary), one reason each, naming it; the deltas are of what the others gave. Also runs
    // that profiled different steps, compared in step order (one line naming both lists).
    std::vector<std::string> problems;
};

struct CompareOptions
{
    double tolerancePct = 5.0;
    PhaseMapping phases = PhaseMapping::defaults();
};

// The key a report is matched by: "ActorGroup:3#2" (group, rank, step), else its file name.
std::string matchKey(const trace::Report &report);
RunMatch matchReports(const std::vector<trace::ReportPtr> &baseline, const std::vector<trace::ReportPtr> &candidate);

RunComparison compareRuns(const std::vector<trace::ReportPtr> &baseline, const std::vector<trace::ReportPtr> &candidate,
                          const CompareOptions &options, const core::CancelToken *cancel = nullptr);

} // namespace ps::core::analysis
