#pragma once
// The RL phase table of a step overlay: the overlay stacks the occurrences of a range (a step)
// of one rank, so the table's columns are those occurrences, not the rank's report repeated once
// per occurrence. Each column holds the phases that start inside its occurrence; a row is one
// phase, and its "straggler" is the occurrence where the phase took longest.

#include "core/analysis/phases/phases.h"
#include "views/scene/runanalyses.h"

#include <vector>

namespace ps::views {

// `byReport` was computed over the distinct reports (PhaseColumn::report indexes them);
// `reportOfEntry` as distinctReports (runanalyses.h) gave it. Columns of the result: one per entry, its
// PhaseColumn::report the index into `entries`, labelled with the entry's label.
core::analysis::PhaseTable phasesPerOccurrence(const core::analysis::PhaseTable &byReport, const TimelineScene &scene,
                                               const std::vector<int> &entries,
                                               const std::vector<size_t> &reportOfEntry);

} // namespace ps::views
