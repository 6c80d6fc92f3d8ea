#pragma once
// HTA's idle-time breakdown per GPU stream (../shared/testdata/peer/hta/README.md §4,
// hta/analyzers/breakdown_analysis.py get_idle_time_breakdown). Over the kernels, memcpys and
// memsets of one stream (sync records excluded), in start order, each gap between an event and
// the one before it (gap = start - previous end, negative when they overlap) is
//   host_wait    when the CPU call that launched the event began after the previous event
//                ended (the GPU waited for the host);
//   kernel_wait  else when the gap is shorter than `consecutiveKernelDelayNs` (30 µs in HTA);
//   other        otherwise.
// The first event of a stream has no gap.

#include "core/analysis/breakdown/breakdown.h"

#include <array>
#include <vector>

namespace ps::core::analysis {

enum class IdleCategory : uint8_t { HostWait = 0, KernelWait = 1, Other = 2 };
inline constexpr int kIdleCategoryCount = 3;
std::string_view idleCategoryName(IdleCategory c); // "host_wait", "kernel_wait", "other"

// pandas describe() of the gaps of one category, in ns.
struct GapStats
{
    size_t count = 0;
    int64_t sum = 0;
    double mean = 0, stddev = 0; // stddev: n-1, 0 when count <= 1
    double min = 0, p25 = 0, p50 = 0, p75 = 0, max = 0;
};

struct StreamIdle
{
    uint32_t device = 0;
    uint32_t stream = 0;
    std::array<GapStats, kIdleCategoryCount> categories;
    int64_t totalNs() const;
};

struct IdleOptions
{
    int64_t consecutiveKernelDelayNs = 30000;
};

struct IdleBreakdown
{
    std::vector<StreamIdle> streams; // by (device, stream)
    bool cancelled = false;
};

IdleBreakdown idleTimeBreakdown(const trace::EventStore &store, const IdleOptions &options = {},
                                const core::CancelToken *cancel = nullptr);

} // namespace ps::core::analysis
