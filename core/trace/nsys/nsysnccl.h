#pragma once
// Internal to the nsys reader: NCCL's own NVTX ranges and their payloads (spec A4), tied to the
// kernels they launched. NCCL (2.16.2+, unless NCCL_NVTX_DISABLE=1) wraps each API call in a
// push/pop range of its domain "NCCL" named after the call (`ncclAllReduce`, ...) with a binary
// payload described by a schema: the communicator's id (2.25.1+), the message size, the reduction,
// the root or peer. An export holds the payload in NVTX_EVENTS.binaryData (a 32-byte header, the
// schema id at byte 8, then the struct) and the schemas in NVTX_PAYLOAD_SCHEMA_ENTRIES (entry name,
// type, offset). The kernel a call launched is the one whose correlationId a CUDA runtime call
// inside the range on the same thread carries (CUPTI_ACTIVITY_KIND_RUNTIME).
//
// A call inside ncclGroupStart/End launches at ncclGroupEnd, outside its range: its kernel is then
// not tied to it and is matched by order on its stream, as kernels of exports without payloads.

#include "core/trace/nsys/nsystables.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ps::core::trace {
class ReadOnlySqlite;
}

namespace ps::core::trace::nsys {

struct NcclCall
{
    std::string op;       // PyTorch's spelling: "allreduce", "allgather", ... (from the range's name)
    uint64_t comm = 0;    // NCCL communicator ID (commHash)
    int64_t bytes = -1;   // nccl-tests' S: the message size, times the ranks where NCCL passes one rank's part
    int32_t ranks = -1;   // the communicator's size, from its CommInitRank range; -1 when not recorded
    int32_t peer = -1;    // send/recv: the peer's rank in the communicator
    int32_t root = -1;    // broadcast/reduce
    bool hasComm = false; // the payload names its communicator (NCCL 2.25.1+)
};

struct NcclLaunches
{
    std::unordered_map<uint32_t, NcclCall> calls; // by the correlationId of the kernel each call launched
    // The NCCL kernels' names (their StringIds mapped, as the kernel chunks hold them): with calls,
    // the reader records every NCCL kernel itself, those without a call by name (stream order).
    std::unordered_set<NameId> kernelNames;
};

// Empty when the export has no NCCL payloads (no schema tables, no binaryData column, or NCCL's
// NVTX off): the kernels are then recorded by name when the store is built.
NcclLaunches readNcclLaunches(const ReadOnlySqlite &db, const std::set<std::string> &tables,
                              const std::vector<NameId> &strings);

} // namespace ps::core::trace::nsys
