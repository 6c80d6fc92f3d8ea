#pragma once
// The vocabulary of collective communication shared by the cross-rank analysis and its
// consumers: which collective an op name is, how many bytes an element of a dtype has, and
// nccl-tests' bus-bandwidth factor (spec A2, NVIDIA/nccl-tests doc/PERFORMANCE.md).

#include <optional>
#include <string_view>

namespace ps::core::analysis {

enum class CollectiveKind {
    AllReduce,
    AllGather,
    ReduceScatter,
    AllToAll,
    Broadcast,
    Reduce,
    SendRecv, // send, recv and NCCL's SendRecv kernels
    Barrier,
    Other,
};

// The kind of an op as PyTorch (`Collective name`: "allreduce", "_allgather_base",
// "all_gather_into_tensor_coalesced", "_reduce_scatter_base", "all_to_all", "send", ...), NCCL
// kernels (collectiveOpOfKernel) or HCCL ("hcom_allReduce__210_0_1") spell it.
CollectiveKind collectiveKind(std::string_view op);
// "allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "reduce", "sendrecv",
// "barrier", "other".
std::string_view collectiveKindName(CollectiveKind k);
bool isPointToPoint(std::string_view op);

// Bytes per element of a PyTorch dtype as c10d writes it ("Float", "BFloat16", ...) or torch's
// own spelling ("float32", "bfloat16"); nullopt when unknown.
std::optional<int> dtypeBytes(std::string_view dtype);

// nccl-tests' busbw / algbw for a group of n ranks: allreduce 2(n-1)/n; allgather,
// reduce-scatter and alltoall (n-1)/n; broadcast, reduce and send/recv 1; nullopt for others.
std::optional<double> busBandwidthFactor(CollectiveKind k, int n);

} // namespace ps::core::analysis
