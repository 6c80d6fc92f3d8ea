#include "core/trace/collectiverecord.h"

#include <array>
#include <utility>

namespace ps::core::trace {

std::string_view collectiveOpOfKernel(std::string_view name)
{
    // NCCL names its kernels ncclKernel_<Coll>_... (< 2.19) or ncclDevKernel_<Coll>_... (2.19+);
    // RCCL keeps the names. A demangled name may start with "void ".
    size_t at = name.find("ncclKernel_");
    size_t skip = 11;
    if (at == std::string_view::npos) {
        at = name.find("ncclDevKernel_");
        skip = 14;
    }
    if (at == std::string_view::npos || (at != 0 && name.substr(0, at) != "void "))
        return {};
    std::string_view coll = name.substr(at + skip);
    coll = coll.substr(0, coll.find_first_of("_(<"));
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kOps = {{
        {"AllReduce", "allreduce"},
        {"AllGather", "allgather"},
        {"ReduceScatter", "reducescatter"},
        {"AlltoAll", "alltoall"},
        {"AllToAll", "alltoall"},
        {"Broadcast", "broadcast"},
        {"Reduce", "reduce"},
        {"SendRecv", "sendrecv"},
        {"Send", "send"},
        {"Recv", "recv"},
    }};
    for (const auto &[kernel, op] : kOps)
        if (coll == kernel)
            return op;
    return "nccl"; // a generic or unknown NCCL kernel: a collective of unknown type
}

} // namespace ps::core::trace
