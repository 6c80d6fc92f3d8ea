#pragma once
// Who the phase table names as a row's straggler: the rank that made the others wait.
//   - A phase with matched collectives: the rank whose late arrivals caused the most wait in
//     the phase's collectives (collectivephases.h); its lag is that wait per other rank.
//   - A phase without: the rank with the longest work time (wall time minus its wait inside
//     collectives and in waiting OS runtime calls, osrtwait.h: CPU ranks that synchronize
//     through the OS), when it is strictly longer than every other rank's; its lag is its work time
//     over the median rank's (what the others wait for at the driver's barrier).
//   - No late rank (nobody waited, or several ranks tie for the longest): none (-1).
// Wall times stay in the row (maxWallNs, medianWallNs) beside it.

#include "core/analysis/phases/collectivephases.h"
#include "core/analysis/phases/phases.h"

#include <map>
#include <span>

namespace ps::core::analysis {

// Sets row.straggler and row.lagNs. `byArrival` is the phase's collective row, if any;
// `columnOfRank` maps a collective rank to its column of the table; `osWaits`, per column, the
// time waited in OS runtime calls inside the row's phase (osrtWaitsOf).
void chooseStraggler(PhaseRow &row, const CollectivePhaseRow *byArrival, const std::map<int, size_t> &columnOfRank,
                     std::span<const int64_t> osWaits = {});

// Matches the reports' collectives (collectivesOfRun) in the phases their cells were made of
// (perReport[i] is reports[i]'s) and chooses every row's straggler. Reports whose collectives
// cannot be matched are judged by work time; when none can (the matcher refused the run), why is
// in table.stragglerNotes. Sets table.cancelled when cancelled.
void nameStragglers(PhaseTable &table, std::span<const trace::ReportPtr> reports,
                    std::span<const ReportPhaseCells> perReport, const core::CancelToken *cancel = nullptr);
// The same from a matching made elsewhere (PhaseTableOptions::match): `rankOfReport[r]` is
// reports[r]'s rank in it, -1 for a report it holds no collectives of.
void nameStragglers(PhaseTable &table, const RunCollectives &run, std::span<const int> rankOfReport,
                    std::span<const trace::ReportPtr> reports, std::span<const ReportPhaseCells> perReport);

} // namespace ps::core::analysis
