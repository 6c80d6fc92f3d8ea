#pragma once
// Aligning reports on an RL phase as on a range: `--align range:update_actor#2`, `trace align
// --by range:update_actor#2` and the Timeline's "On range" take a phase name (verl's marked_timer
// names, RLinf's labels, as the phase table shows them) where no range of that name exists.

#include "core/analysis/phases/phasemapping.h"
#include "core/trace/alignment.h"

namespace ps::core::analysis {

// The K-th occurrence of the range so named, else the K-th occurrence (by start) of the phase so
// named under `mapping`, from the report's events or its digest's phase summary.
trace::AnchorFinder rangeOrPhaseAnchor(PhaseMapping mapping = PhaseMapping::defaults());

} // namespace ps::core::analysis
