#pragma once
// The GPU kernels of the demo's training step: names as CUPTI reports them for a bf16 FSDP
// transformer on an A100 (cuBLAS/cuBLASLt GEMMs, FlashAttention-2, PyTorch ATen elementwise and
// reduction kernels, NCCL 2.19+ device kernels), with launch geometry and a nominal duration.

#include <cstdint>

namespace ps::core::demo {

enum class Kernel : int {
    GemmFwd,
    GemmFwdWide,
    GemmDgrad,
    GemmWgrad,
    FlashFwd,
    FlashBwd,
    FlashBwdDotDo,
    FlashBwdConvertDq,
    LayerNorm,
    LayerNormBwd,
    Add,
    Gelu,
    GeluBwd,
    Mul,
    LogSoftmax,
    LogSoftmaxBwd,
    ReduceSum,
    FillZero,
    AdamW,
    NcclAllGather,
    NcclReduceScatter,
    NcclAllReduceF32,
    Count
};

struct KernelSpec
{
    const char *shortName;     // StringIds value behind CUPTI_ACTIVITY_KIND_KERNEL.shortName
    const char *demangledName; // ... behind demangledName (full signature, templates)
    bool externC;              // name is an extern "C" symbol: mangledName = shortName; else NULL
    int registersPerThread;
    int gridX, gridY, gridZ;
    int blockX, blockY, blockZ;
    int staticSharedMemory;
    int dynamicSharedMemory;
    int64_t nominalNs; // typical duration for the demo's layer sizes
};

const KernelSpec &kernelSpec(Kernel k);
constexpr int kKernelCount = static_cast<int>(Kernel::Count);

} // namespace ps::core::demo
