#pragma once
// The RL phase table: rows are (step, phase), columns are the reports of a run (one per worker
// rank, all roles and worker groups together), and each cell holds that phase's wall time on that
// rank in that step with its GPU breakdown. Each row names its straggler: the rank that made the
// others wait (phasestraggler.h), by its arrival at the phase's collectives or by work time.
//
// Phases are the outermost annotation ranges (NVTX, roctx, mstx, record_function) whose label
// the PhaseMapping knows; a range nested in another known range is part of it. Steps:
//   - a report that is one step (per-step exports, identity.h) puts every phase in that step;
//   - a report with PyTorch "ProfilerStep#N" ranges puts each phase in the step it starts in;
//   - a report with ranges that name their step ("step 3", stepnumbering.h) likewise;
//   - otherwise steps are counted: a phase that already ran in the current step starts the next
//     one (capture step 1, 2, ... of the report, the same count on every rank). A table whose
//     steps are all counted numbers them as the run's config names the profiled steps, when a
//     config beside the reports does (stepnumbering.h: e.g. 2, 3, 4 for a demo run).
// A pure function of immutable reports: safe on any thread, cancellable.

#include "core/analysis/breakdown/breakdown.h"
#include "core/analysis/phases/phasemapping.h"
#include "core/trace/store/report.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ps::core::analysis {

// One phase range of one report.
struct PhaseOccurrence
{
    std::string phase;
    int64_t step = 0;
    TimeWindow window;
    trace::EventRef range; // the annotation range itself
};

// The phases of one report, in time order. `stepsCounted`, when given, says whether the steps
// were counted (no per-step report, no ProfilerStep#N ranges). `reportStepIsCapture`: the report's
// step is its capture range's number (verl's <RID>): the report's own step ranges win, and
// without them its phases take that number as a counted step (the k-th profiled step).
std::vector<PhaseOccurrence> findPhases(const trace::EventStore &store, const PhaseMapping &mapping,
                                        std::optional<int> reportStep, bool *stepsCounted = nullptr,
                                        bool reportStepIsCapture = false);
// Counted steps 1..N of the report at `path` renumbered as the config beside it says the run
// profiled them, when it lists N steps (stepnumbering.h); `stepsCounted` is then cleared and the
// config named in `stepsFrom`. Unchanged otherwise.
void numberCountedSteps(std::vector<PhaseOccurrence> &occurrences, bool &stepsCounted, const std::string &path,
                        std::string *stepsFrom = nullptr);

struct PhaseCell
{
    bool present = false;
    int occurrences = 0;   // ranges of the phase in the step (a retried phase runs twice)
    int64_t wallNs = 0;    // their summed durations
    int64_t startNs = 0;   // the first one's start, on the report's own clock
    trace::EventRef first; // the first range (what a view selects for the cell)
    GpuBreakdown gpu;      // GPU work inside them (spans and idle summed over the ranges)
};

struct PhaseColumn
{
    size_t report = 0; // index into the input reports
    std::string group;
    std::optional<int> rank;
    std::string label; // "ActorGroup:3", or the file name when the report has no rank
};

struct PhaseRow
{
    int64_t step = 0;
    std::string phase;
    std::vector<PhaseCell> cells; // one per column
    int straggler = -1;           // the column that made the others wait (phasestraggler.h); -1: none
    int64_t lagNs = 0;            // the wait it caused
    bool byArrival = false;       // found by its arrival at the phase's collectives (else by work time)
    int64_t maxWallNs = 0;
    int64_t medianWallNs = 0;
    // The straggler's lag in % of the median rank's wall time.
    double lagPct() const;
};

struct PhaseTable
{
    std::vector<PhaseColumn> columns;
    std::vector<PhaseRow> rows; // by step, then by when the phase runs in it
    bool stepsCounted = false;  // steps were counted from repeats, not read from the data
    // Counted steps are capture ranges numbered in the order nsys wrote them (verl's
    // worker_process_<PID>.<RID>), where no config renumbered them.
    bool stepsByCapture = false;
    // Counted steps numbered as the run's config names the profiled steps (stepnumbering.h):
    // where that list is ("cluster.profiling.steps in /run/config/demo.yaml"); stepsCounted is
    // then false. Empty when the steps were read from the data or stayed counted.
    std::string stepsFrom;
    // Why counted steps stayed 1..N though a config names the profiled steps (configs disagree,
    // or list another number of steps than the reports hold); empty when no config names them.
    std::string stepsNote;
    bool cancelled = false;
    // Reports that could not answer (a digest without a sound phase summary, one opened without
    // events for a mapping of the user's, one that ran out of memory): (index into the input
    // reports, why, naming it). Left out of the columns unless PhaseTableOptions keeps them.
    std::vector<std::pair<size_t, std::string>> problems;
    // Every report that answered did so from its digest's phase summary, without its events.
    bool fromSummaries = false;
    // Why the run's collectives could not be matched, so every straggler was judged by work time
    // (row.byArrival false): e.g. a digest without its collective records (#37: never silent).
    std::vector<std::string> stragglerNotes;
};

struct RunCollectives; // collectivephases.h

struct PhaseTableOptions
{
    // Name each row's straggler (phasestraggler.h: matches the run's collectives); without, every
    // row's straggler is -1 (for callers that read wall times only).
    bool withStragglers = true;
    // Keep a report that cannot answer as a column of empty cells (run comparison pairs columns
    // by position); by default it is left out, and only its problem says why.
    bool keepUnanswered = false;
    // How the run's collectives are matched to name the stragglers: given every input report
    // (those that cannot answer too) and each one's phase occurrences, a matching the caller keeps.
    // The desktop passes its one matching per scene (views/scene/runanalyses.h), whose instances
    // and waits its other panes show. Null: collectivesOfRun, keeping no instance.
    std::function<const RunCollectives &(std::span<const trace::ReportPtr>,
                                         const std::function<std::vector<PhaseOccurrence>(size_t)> &)>
        match;
};

// The one phase table of a run, for the desktop, the CLI and run comparison alike: each report's
// cells (from its events, else its digest's summary), assembled into columns and rows.
PhaseTable computePhaseTable(const std::vector<trace::ReportPtr> &reports, const PhaseMapping &mapping,
                             const core::CancelToken *cancel = nullptr, const PhaseTableOptions &options = {});

// One report's part of the table: (step, phase) -> cell, and the phase's position in its step.
// Digests keep it (phasesummary.h), so a table can be made without the events.
struct ReportPhaseCells
{
    std::map<std::pair<int64_t, std::string>, PhaseCell> cells;
    std::map<std::pair<int64_t, std::string>, size_t> position;
    bool counted = false; // steps were counted from repeats
    // Counted steps renumbered as the config beside the report names them (stepnumbering.h):
    // where from; kept in digests, so a digest read far from the config numbers them the same.
    std::string stepsFrom;
    std::optional<int> rank; // the rank the report states about itself (meta.rank), kept in digests
    // The phase ranges the cells were made of (findPhases), when made from the events; digests
    // do not keep them.
    std::vector<PhaseOccurrence> occurrences;
};
// From the report's events (a report without them has no cells: use reportPhaseCells).
// `direct`: each cell's breakdown by a pass over its window's events instead of through the
// report's activity index (cheaper for a report analysed once, as when digesting it).
ReportPhaseCells phaseCellsOf(const trace::Report &report, const PhaseMapping &mapping,
                              const core::CancelToken *cancel = nullptr, bool direct = false);
// One report's cells, whatever it holds: with the built-in mapping its phase summary
// (phasesummary.h: the digest's, or computed from the events and kept), with a user's mapping
// computed from the events. Nullopt with `error` naming the report when it cannot answer (a
// digest without a sound summary, a mapping of the user's without events) or when cancelled.
std::optional<ReportPhaseCells> reportPhaseCells(const trace::Report &report, const PhaseMapping &mapping,
                                                 std::string &error, const core::CancelToken *cancel = nullptr);
// The table of reports whose cells are known (perReport[i] is reports[i]'s); the reports give the
// columns' names and the collectives that name the stragglers (`withStragglers`, as above).
PhaseTable assemblePhaseTable(const std::vector<trace::ReportPtr> &reports,
                              const std::vector<ReportPhaseCells> &perReport, const PhaseMapping &mapping,
                              const core::CancelToken *cancel = nullptr, bool withStragglers = true);

// Adds `part`'s times to `into` (events, span, busy, idle, per-class and overlap times).
void accumulate(GpuBreakdown &into, const GpuBreakdown &part);

} // namespace ps::core::analysis
