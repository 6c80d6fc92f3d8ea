#include "core/trace/store/collectiverecord.h"

#include <array>
#include <cstring>
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

std::string encodeCollectiveRecords(std::span<const CollectiveRecord> records)
{
    if (records.empty()) // no pointer to copy from
        return {};
    return std::string(reinterpret_cast<const char *>(records.data()), records.size_bytes());
}

std::optional<std::vector<CollectiveRecord>> decodeCollectiveRecords(std::string_view bytes, std::string &why)
{
    if (bytes.size() % sizeof(CollectiveRecord) != 0) {
        why = std::to_string(bytes.size()) + " bytes is not a whole number of " +
              std::to_string(sizeof(CollectiveRecord)) + "-byte records";
        return std::nullopt;
    }
    std::vector<CollectiveRecord> out(bytes.size() / sizeof(CollectiveRecord));
    if (!out.empty()) // memcpy takes no null pointer, even for nothing
        std::memcpy(static_cast<void *>(out.data()), bytes.data(), bytes.size());
    return out;
}

} // namespace ps::core::trace
