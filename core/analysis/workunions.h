#pragma once
// The unions of a report's GPU work per class (gpuwork.h), the common input of the breakdown
// and of HTA's kernel-type breakdown.

#include "core/analysis/breakdown.h"
#include "core/analysis/intervals.h"

namespace ps::core::analysis {

struct WorkUnions
{
    std::array<std::vector<Interval>, kGpuWorkCount> byClass; // each a union in start order
    size_t events = 0;
};

// nullopt when cancelled.
std::optional<WorkUnions> gpuWorkUnions(const trace::EventStore &store, const WorkClassTable &classes,
                                        const BreakdownFilter &filter, const trace::CancelToken *cancel);

} // namespace ps::core::analysis
