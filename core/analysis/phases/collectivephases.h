#pragma once
// Collectives per RL phase and step: which phase occurrence (phases.h: verl's marked_timer /
// RLinf's labels, e.g. `update_actor`) each member's kernel started in, and per (step, phase)
// the waits, transfers and the rank that arrived last most often: the rank that made the
// others wait in that phase.

#include "core/analysis/collectives/collectives.h"
#include "core/analysis/collectives/collectivewait.h"
#include "core/analysis/phases/phasemapping.h"
#include "core/analysis/phases/phases.h"

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace ps::core::analysis {

struct CollectivePhaseRow
{
    int64_t step = 0;
    std::string phase;
    size_t instances = 0;   // complete instances whose last arrival fell in this phase
    int64_t waitNs = 0;     // members' waits in this phase
    int64_t transferNs = 0; // those instances' transfers
    int lastRank = -1;      // most often last; -1 when none or a tie
    size_t timesLast = 0;
    // The rank that made the others wait longest here, by its arrival; -1 when nobody waited.
    int straggler = -1;
    int64_t lagNs = 0;                       // the wait it caused
    std::vector<CollectiveRankTotals> ranks; // ascending
};

// One report's phase occurrences, to put its collectives in: found in its events, else (a digest
// opened without them) one window per cell of its phase summary, from the cell's first start for
// its summed wall time. None without events for a mapping of the user's (digests keep the
// built-in phases only).
std::vector<PhaseOccurrence> phaseOccurrencesOf(const trace::Report &report, const PhaseMapping &mapping,
                                                const core::CancelToken *cancel = nullptr);
// The same from the report's cells already made: the ranges they were made of, else their windows.
std::vector<PhaseOccurrence> phaseOccurrencesOf(const ReportPhaseCells &cells);

struct RunCollectives
{
    CollectiveAnalysis analysis;
    std::vector<CollectivePhaseRow> phases; // none when the analysis has errors or no instance
    std::vector<int64_t> offsets;           // per report: the shared axis the members' times are on
    // Per report, when RunMatchOptions::waits asked: its members' waits on its own clock (the
    // breakdown's communication split, collectivewait.h).
    std::vector<std::vector<MemberWait>> waits;
    bool cancelled = false; // then the rest is partial
};
// What one matching of a run answers: the desktop matches a scene once for its Collectives, RL
// Phases and Breakdown panes, with the scene's offsets and every instance its table shows.
struct RunMatchOptions
{
    // Per report; empty: clock-aligned as trace/alignment.h does by default.
    std::vector<int64_t> offsets;
    CollectiveQuery query;
    bool waits = false;
};
using PhaseOccurrencesOf = std::function<std::vector<PhaseOccurrence>(size_t)>;
// The reports' collectives matched and put in their phases: `occurrencesOf(i)` gives reports[i]'s,
// asked only when some report has collective records.
RunCollectives collectivesOfRun(std::span<const trace::ReportPtr> reports, const PhaseOccurrencesOf &occurrencesOf,
                                const core::CancelToken *cancel = nullptr, const CollectiveQuery &query = {});
RunCollectives collectivesOfRun(std::span<const trace::ReportPtr> reports, const PhaseOccurrencesOf &occurrencesOf,
                                const RunMatchOptions &options, const core::CancelToken *cancel = nullptr);

} // namespace ps::core::analysis

namespace ps::core::analysis::detail {

struct ReportCollectives; // collectiveinput.h

// The reports matched as `query` asks, each complete instance's members also put in their phases
// (phases[report], on its own clock; PhaseRows in collectivephases.cpp).
// With `waits`, also each member's wait by report (RunCollectives::waits).
RunCollectives matchWithPhases(std::vector<ReportCollectives> &reports, std::span<const int64_t> offsets,
                               std::vector<std::vector<PhaseOccurrence>> phases, const CollectiveQuery &query,
                               const core::CancelToken *cancel, bool waits = false);

} // namespace ps::core::analysis::detail
