#pragma once
// HTA's GPU kernel breakdown (../shared/testdata/peer/hta/README.md §5) of one report:
//   * kernel-type frame: time per set of overlapping kernel types (COMPUTATION, COMMUNICATION,
//     MEMORY), labelled as HTA labels it ("COMPUTATION overlapping COMMUNICATION"), both exact
//     in ns and as HTA sums it (each elementary segment truncated to whole µs);
//   * kernels frame: per (kernel type, name) count, sum, min, max, mean and sample stddev of
//     the durations (OTHER is not reported, as in HTA).

#include "core/analysis/breakdown/breakdown.h"

#include <string>
#include <vector>

namespace ps::core::analysis {

struct KernelTypeRow
{
    std::string label; // e.g. "COMPUTATION overlapping MEMORY"
    int64_t ns = 0;
    int64_t truncatedUs = 0; // HTA's sum of per-segment int(µs)
};

struct KernelNameRow
{
    HtaKernelType type = HtaKernelType::Computation;
    std::string name;
    uint64_t count = 0;
    int64_t sumNs = 0, minNs = 0, maxNs = 0;
    double meanNs = 0;
    double stddevNs = 0; // n-1; 0 for one instance
};

struct KernelBreakdown
{
    std::vector<KernelTypeRow> types;   // by ns, descending
    std::vector<KernelNameRow> kernels; // by (type, name)
    bool cancelled = false;
};

KernelBreakdown kernelBreakdown(const trace::EventStore &store, const BreakdownFilter &filter = {},
                                const core::CancelToken *cancel = nullptr);

// HTA's label of a set of kernel types: bit 0 COMPUTATION, 1 COMMUNICATION, 2 MEMORY.
std::string htaOverlapLabel(uint32_t typeMask);

} // namespace ps::core::analysis
