#pragma once
// Where the step model puts its events. Times are ns relative to the report's session start,
// as nsys stores them. Correlation ids tie a CUDA API call to the GPU work it started.

#include "core/demo/kernelcatalog.h"

#include <cstdint>

namespace ps::core::demo {

// CPU threads of a worker process that call CUDA or push NVTX ranges.
enum class DemoThread : int { Main, Autograd, Count };

// The CUDA API calls the model makes (eventClass 0 runtime, 1 driver).
enum class ApiCall : int { LaunchKernel, MemcpyAsync, MemsetAsync, StreamSynchronize, CuLaunchKernelEx, Count };

// NVTX ranges. The RLinf ones are Worker.timer labels (profiling-config.md A9), pushed by
// torch.cuda.nvtx.range_push into the default domain with the label as `text`; the NCCL ones are
// NCCL's own ranges, registered strings in domain "NCCL".
enum class Range : int {
    SyncModelToRollout,
    RecvTraj,
    ComputeAdv,
    RunTraining,
    TrainingStep,
    ForwardActor,
    ForwardCritic,
    NcclAllGather,
    NcclReduceScatter,
    NcclAllReduce,
    Count
};

// Stream ids as PyTorch processes get them: 7 is the legacy default stream PyTorch computes on,
// NCCL and the side copy stream are created later.
constexpr int kComputeStream = 7;
constexpr int kNcclStream = 13;
constexpr int kCopyStream = 14;

// ENUM_CUDA_MEMCPY_OPER / ENUM_CUDA_MEM_KIND values.
constexpr int kCopyHtoD = 1;
constexpr int kCopyDtoH = 2;
constexpr int kCopyDtoD = 8;
constexpr int kMemPageable = 0;
constexpr int kMemPinned = 1;
constexpr int kMemDevice = 2;
// ENUM_CUPTI_SYNC_TYPE: stream synchronize.
constexpr int kSyncStream = 3;

class EventSink
{
public:
    virtual ~EventSink() = default;
    virtual void runtime(int64_t start, int64_t end, ApiCall api, DemoThread thread, int64_t correlationId) = 0;
    virtual void kernel(int64_t start, int64_t end, int streamId, int64_t correlationId, Kernel kernel,
                        int64_t gridId) = 0;
    virtual void memcpy(int64_t start, int64_t end, int streamId, int64_t correlationId, int64_t bytes, int copyKind,
                        int srcKind, int dstKind) = 0;
    virtual void memset(int64_t start, int64_t end, int streamId, int64_t correlationId, int64_t bytes) = 0;
    virtual void synchronization(int64_t start, int64_t end, int streamId, int64_t correlationId) = 0;
    virtual void range(int64_t start, int64_t end, DemoThread thread, Range range) = 0;
    // The NCCL domain's creation record (NvtxEventType::DomainCreate), once, before its first range.
    virtual void ncclDomainCreated(int64_t time, DemoThread thread) = 0;
    // A device-memory allocation or free at `address` (nsys --cuda-memory-usage=true).
    virtual void memoryUsage(int64_t time, int64_t address, int64_t bytes, bool allocated) = 0;
};

// Counts rows; used to size a report before writing it.
class CountingSink : public EventSink
{
public:
    int64_t rows = 0;
    void runtime(int64_t, int64_t, ApiCall, DemoThread, int64_t) override { ++rows; }
    void kernel(int64_t, int64_t, int, int64_t, Kernel, int64_t) override { ++rows; }
    void memcpy(int64_t, int64_t, int, int64_t, int64_t, int, int, int) override { ++rows; }
    void memset(int64_t, int64_t, int, int64_t, int64_t) override { ++rows; }
    void synchronization(int64_t, int64_t, int, int64_t) override { ++rows; }
    void range(int64_t, int64_t, DemoThread, Range) override { ++rows; }
    void ncclDomainCreated(int64_t, DemoThread) override { ++rows; }
    void memoryUsage(int64_t, int64_t, int64_t, bool) override { ++rows; }
};

} // namespace ps::core::demo
