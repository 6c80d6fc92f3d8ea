#pragma once
// A run's collectives and phases taken one report at a time, so that a large run of digests
// costs the memory of its instances, not of its stores (collectivestream.cpp).

#include "core/analysis/phases/collectivephases.h"

#include <functional>
#include <string>
#include <vector>

namespace ps::core::analysis {

// The same for a run opened one report at a time (a large run of digests): open(i) gives report i,
// or null when it cannot (the caller says why). Each report is held only while its collective
// records and phase occurrences are taken, on `threads` threads, so the run costs the memory of
// its instances. `opened` gets the reports that opened, in order, without their stores (path,
// meta, identity, extent): the instances' report indexes point into it.
RunCollectives
collectivesOfOpened(size_t count, const std::function<trace::ReportPtr(size_t)> &open,
                    const std::function<std::vector<PhaseOccurrence>(const trace::Report &)> &occurrencesOf,
                    int threads, std::vector<trace::ReportPtr> &opened, const core::CancelToken *cancel = nullptr,
                    const CollectiveQuery &query = {});

// collectivesOfOpened over digests, each opened as its outline (whole when made before outlines)
// with the built-in phases of its summary. errors[i] says why files[i] did not open, "" when it did.
RunCollectives collectivesOfDigests(const std::vector<std::string> &files, int threads,
                                    std::vector<std::string> &errors, std::vector<trace::ReportPtr> &opened,
                                    const core::CancelToken *cancel = nullptr, const CollectiveQuery &query = {});

} // namespace ps::core::analysis
