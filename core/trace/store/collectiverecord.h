#pragma once
// What a report records about its collective communication, kept beside the events so that a
// cross-rank analysis (core/analysis/collectives/collectives.h) needs no generic event arguments:
//   - one CollectiveRecord per collective kernel (or HCCL op) whose trace says what it was:
//     Kineto kernel args (`Collective name`, `Process Group Name`, ..., `Seq`), HCCL ops with
//     their group; a kernel known only by its NCCL/RCCL name gets one when an analysis asks
//     (namedcollectives.h: collectivesOf, which every reader of records uses);
//   - one ProcessGroupInfo per process group the report declares (Kineto
//     distributedInfo.pg_config), plus an entry for the world (distributedInfo.world_size).
// Both are plain data so the cache maps them in place. Strings are NameIds of the store.

#include "core/trace/store/tracetypes.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ps::core::trace {

// Where a record's facts come from, which decides how instances can be matched across ranks.
enum class CollectiveSource : uint8_t {
    KernelArgs = 0,  // PyTorch c10d metadata on the kernel (Kineto): group, sizes, maybe Seq
    HcclOp = 1,      // an Ascend COMMUNICATION_OP row: op name and group name
    KernelName = 2,  // only the kernel's name says it is NCCL/RCCL: order per stream
    NvtxPayload = 3, // nsys: NCCL's NVTX range around the launch and its payload (communicator, size)
};

// 2^50 elements (8 PiB of doubles): more than any device holds, so never a real message.
inline constexpr int64_t kMaxCollectiveElements = int64_t(1) << 50;

struct CollectiveRecord
{
    EventRef event;    // the kernel (or HCCL op range); set by StoreBuilder::build()
    int64_t start = 0; // the event's start and end, own clock
    int64_t end = 0;
    int64_t inNelems = -1; // -1: not recorded
    int64_t outNelems = -1;
    int64_t seq = -1;    // per-group sequence number (PyTorch `Seq`), -1 when absent
    NameId op = kNoName; // as the trace writes it: "allreduce", "_allgather_base", "hcom_allReduce__..."
    NameId groupName = kNoName;
    NameId groupDesc = kNoName;
    NameId groupRanks = kNoName; // as written, e.g. "[0, 1, 2, 3]" (PyTorch truncates long lists)
    NameId dtype = kNoName;      // "Float", "BFloat16", ...
    NameId inSplit = kNoName;    // "[a, b]" for all_to_allv
    NameId outSplit = kNoName;
    int32_t groupSize = -1;
    int32_t peer = -1; // the other side of a send/recv (global rank), -1 when unknown
    uint32_t stream = 0;
    CollectiveSource source = CollectiveSource::KernelArgs;
    uint8_t reserved[7] = {};
};
static_assert(sizeof(CollectiveRecord) == 96 && std::has_unique_object_representations_v<CollectiveRecord>);

struct ProcessGroupInfo
{
    NameId name = kNoName;  // pg_name, e.g. "0"; kNoName for the world entry
    NameId desc = kNoName;  // pg_desc, e.g. "default_pg"
    NameId ranks = kNoName; // the members as text, e.g. "[0, 1, 2, 3]"
    NameId backend = kNoName;
    int32_t size = -1;
    uint32_t isWorld = 0; // 1: the world (distributedInfo.world_size in `size`)
};
static_assert(sizeof(ProcessGroupInfo) == 24 && std::has_unique_object_representations_v<ProcessGroupInfo>);

// The collective a kernel name belongs to, in PyTorch's spelling ("allreduce", "allgather",
// "reducescatter", "alltoall", "broadcast", "reduce", "sendrecv", "send", "recv"); "" when the
// name is not an NCCL/RCCL/HCCL collective kernel. Matches ncclKernel_* (NCCL < 2.19),
// ncclDevKernel_* (2.19+) and their RCCL names.
std::string_view collectiveOpOfKernel(std::string_view kernelName);

// A digest's section CREC: the records as the store holds them. A digest opened without its events
// (an outline) reads them only when an analysis asks (reportsource.h: collectiveRecordsOf).
inline constexpr std::string_view kCollectiveRecordsTag = "CREC";
std::string encodeCollectiveRecords(std::span<const CollectiveRecord> records);
// Nullopt with `why` when the bytes are not a whole number of records.
std::optional<std::vector<CollectiveRecord>> decodeCollectiveRecords(std::string_view bytes, std::string &why);

} // namespace ps::core::trace
