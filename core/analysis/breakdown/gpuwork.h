#pragma once
// What a piece of GPU work is, for the time breakdown: compute, communication, memcpy, memset,
// sync/wait or other. Decided from the track kind (Memcpy/Memset/Sync tracks) and, for Kernel
// tracks, from the kernel's name, with HTA's rules (../shared/testdata/peer/hta/README.md §1.6,
// hta/common/types.py) extended to the names of the other formats:
//   communication  NCCL/RCCL (nccl*, rccl*, *ncclKernel*, *ncclDevKernel*), HTA's ^hip, HCCL
//                  (hccl*) and Ascend communication tasks (hcom_*, named from
//                  COMMUNICATION_TASK_INFO by the Ascend reader);
//   memcpy/memset  ^(hip)?Memcpy, ^dma, Ascend MEMCPY_ASYNC/SDMA; ^(hip)?Memset;
//   sync           names ending in Sync, Stream Wait Event, Ascend EVENT_RECORD/EVENT_WAIT/Notify;
//   other          HTA's non-compute names (*Memcpy*, *Memset*, *dma*, *Sync*, cuda*LaunchKernel,
//                  runFunction, job_exe, ...) and Ascend profiling markers / Write Value;
//   compute        everything else.
// HTA's kernel types follow: COMPUTATION = compute, COMMUNICATION = communication, MEMORY =
// memcpy + memset, OTHER = sync + other.

#include "core/trace/store/tracetypes.h"

#include <array>
#include <cstdint>
#include <string_view>

namespace ps::core::analysis {

enum class GpuWork : uint8_t { Compute = 0, Communication = 1, Memcpy = 2, Memset = 3, Sync = 4, Other = 5 };
inline constexpr int kGpuWorkCount = 6;

// Stable lowercase names: "compute", "communication", "memcpy", "memset", "sync", "other".
std::string_view gpuWorkName(GpuWork w);

// Class of a GPU event of kind `kind` (a GPU kind) named `name`.
GpuWork classifyGpuWork(trace::TrackKind kind, std::string_view name);

// HTA's kernel types (hta/common/types.py KernelType).
enum class HtaKernelType : uint8_t { Computation = 0, Communication = 1, Memory = 2, Other = 3 };
std::string_view htaKernelTypeName(HtaKernelType t); // "COMPUTATION", ...

constexpr HtaKernelType htaKernelType(GpuWork w)
{
    switch (w) {
    case GpuWork::Compute:
        return HtaKernelType::Computation;
    case GpuWork::Communication:
        return HtaKernelType::Communication;
    case GpuWork::Memcpy:
    case GpuWork::Memset:
        return HtaKernelType::Memory;
    default:
        return HtaKernelType::Other;
    }
}

} // namespace ps::core::analysis
