#pragma once
// The unions of a report's GPU work per class (gpuwork.h), the common input of the breakdown
// and of HTA's kernel-type breakdown.

#include "core/analysis/breakdown/breakdown.h"
#include "core/analysis/breakdown/intervals.h"

#include <functional>
#include <span>

namespace ps::core::analysis {

struct WorkUnions
{
    std::array<std::vector<Interval>, kGpuWorkCount> byClass; // each a union in start order
    size_t events = 0;
};

// nullopt when cancelled.
std::optional<WorkUnions> gpuWorkUnions(const trace::EventStore &store, const WorkClassTable &classes,
                                        const BreakdownFilter &filter, const core::CancelToken *cancel);

// Calls use(byClass, events) with the per-class unions, each in start order, held in the
// calling thread's buffers (valid during the call only: nothing is copied). False when cancelled.
bool withGpuWorkUnions(
    const trace::EventStore &store, const WorkClassTable &classes, const BreakdownFilter &filter,
    const core::CancelToken *cancel,
    const std::function<void(std::span<const std::span<const Interval>> byClass, size_t events)> &use);

} // namespace ps::core::analysis
