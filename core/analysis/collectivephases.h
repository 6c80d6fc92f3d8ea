#pragma once
// Collectives per RL phase and step: which phase occurrence (phases.h: verl's marked_timer /
// RLinf's labels, e.g. `update_actor`) each member's kernel started in, and per (step, phase)
// the waits, transfers and the rank that arrived last most often: the rank that made the
// others wait in that phase.

#include "core/analysis/collectives.h"
#include "core/analysis/phasemapping.h"
#include "core/analysis/phases.h"

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

// Rows by step, then phase start. Members whose kernel starts outside every phase are left out.
std::vector<CollectivePhaseRow> collectivesByPhase(std::span<const trace::ReportPtr> reports,
                                                   std::span<const int64_t> offsets, const CollectiveAnalysis &a,
                                                   const PhaseMapping &mapping);
// The same from phase occurrences already found, per report (e.g. a digest's phase cells).
std::vector<CollectivePhaseRow> collectivesByPhase(std::span<const int64_t> offsets, const CollectiveAnalysis &a,
                                                   std::vector<std::vector<PhaseOccurrence>> phases);

} // namespace ps::core::analysis
