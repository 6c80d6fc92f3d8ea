#pragma once
// Step 1 of the matching: each report's collective records sorted into shapes
// (collectiveextract.cpp).

#include "core/analysis/collectives/collectiveinput.h"

#include <span>
#include <vector>

namespace ps::core::analysis::detail {

// One report's records sorted into shapes. `inPlace`: read from the report's store when it has
// its events (the report must then outlive the matching); else (or for a digest's outline) held as
// copies, so that the report can be let go. Stops early, leaving it partial, when cancelled.
ReportCollectives extractCollectives(const trace::Report &report, bool inPlace,
                                     const core::CancelToken *cancel = nullptr);
// Every report's, in place, on `threads` threads (0: a few; reading records is memory-bound).
std::vector<ReportCollectives> extractAll(std::span<const trace::ReportPtr> reports, const core::CancelToken *cancel,
                                          int threads = 0);

} // namespace ps::core::analysis::detail
