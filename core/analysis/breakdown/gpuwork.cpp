#include "core/analysis/breakdown/gpuwork.h"

namespace ps::core::analysis {

using trace::TrackKind;

namespace {

bool startsWith(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}
bool contains(std::string_view s, std::string_view p)
{
    return s.find(p) != std::string_view::npos;
}
bool endsWith(std::string_view s, std::string_view p)
{
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

bool isCommunicationName(std::string_view n)
{
    return startsWith(n, "nccl") || startsWith(n, "rccl") || startsWith(n, "hip") || startsWith(n, "hccl") ||
           startsWith(n, "hcom_") || contains(n, "ncclKernel") || contains(n, "ncclDevKernel");
}

// Names HTA treats as non-compute (types.py, the negated COMPUTATION pattern), beyond the
// communication and memory prefixes already tested.
bool isHtaNonComputeName(std::string_view n)
{
    static constexpr std::string_view kPrefixes[] = {"Stream Wait Event",
                                                     "runFunction",
                                                     "job_exe",
                                                     "packet",
                                                     "pe_exe",
                                                     "cpum_exe_subgraph",
                                                     "collective_subgraph_execution"};
    for (std::string_view p : kPrefixes)
        if (startsWith(n, p))
            return true;
    if (contains(n, "Memcpy") || contains(n, "Memset") || contains(n, "dma") || contains(n, "Sync"))
        return true;
    // cuda.*LaunchKernel
    const size_t cuda = n.find("cuda");
    return cuda != std::string_view::npos && n.find("LaunchKernel", cuda + 4) != std::string_view::npos;
}

GpuWork classifyKernelName(std::string_view n)
{
    if (isCommunicationName(n))
        return GpuWork::Communication;
    if (startsWith(n, "Memcpy") || startsWith(n, "hipMemcpy") || startsWith(n, "dma") || n == "MEMCPY_ASYNC" ||
        n == "SDMA")
        return GpuWork::Memcpy;
    if (startsWith(n, "Memset") || startsWith(n, "hipMemset"))
        return GpuWork::Memset;
    if (endsWith(n, "Sync") || startsWith(n, "Stream Wait Event") || n == "EVENT_RECORD" || n == "EVENT_WAIT" ||
        startsWith(n, "Notify"))
        return GpuWork::Sync;
    if (isHtaNonComputeName(n) || startsWith(n, "PROFILING_") || n == "Write Value" || n == "STARS_COMMON")
        return GpuWork::Other;
    return GpuWork::Compute;
}

} // namespace

std::string_view gpuWorkName(GpuWork w)
{
    static constexpr std::string_view kNames[kGpuWorkCount] = {"compute", "communication", "memcpy",
                                                               "memset",  "sync",          "other"};
    return kNames[size_t(w)];
}

std::string_view htaKernelTypeName(HtaKernelType t)
{
    static constexpr std::string_view kNames[] = {"COMPUTATION", "COMMUNICATION", "MEMORY", "OTHER"};
    return kNames[size_t(t)];
}

GpuWork classifyGpuWork(TrackKind kind, std::string_view name)
{
    switch (kind) {
    case TrackKind::Memcpy:
        return GpuWork::Memcpy;
    case TrackKind::Memset:
        return GpuWork::Memset;
    case TrackKind::Sync:
        return GpuWork::Sync;
    default:
        return classifyKernelName(name);
    }
}

} // namespace ps::core::analysis
