#pragma once
// Reader for Huawei Ascend profiler databases: torch_npu's ascend_pytorch_profiler_<rank>.db
// (ExportType.Db) and msprof's msprof_<timestamp>.db (../shared/spec/trace-formats.md section 3).
// Opened read-only and immutable: msprof DBs are in WAL mode, and a plain read-only open would
// still create -wal/-shm files beside them.
//
// Mapping onto TrackKind:
//   TASK (device)     -> keyed by (pid, streamId, deviceId), in MindStudio Insight's classes:
//     compute (in COMPUTE_TASK_INFO), communication (in COMMUNICATION_TASK_INFO, its Notify waits
//     and SDMA copies included) and other (Write Value, profiling markers, compute-typed tasks
//     without an op) -> Kernel on a DeviceTasks track, attr the DeviceTaskClass; memory
//     (MEMCPY_ASYNC, SDMA) -> Memcpy; sync (EVENT_RECORD/WAIT, Notify) -> Sync.
//     kernel_sum counts compute only. Name from COMPUTE_TASK_INFO or COMMUNICATION_TASK_INFO by
//     globalTaskId, else the task type; aux = connectionId, which CANN_API shares (so apiCallFor
//     links them).
//   CANN_API          -> CudaApi (attr Runtime for runtime/acl levels, Other for node/model/hccl);
//     aux = connectionId + 1.
//   PYTORCH_API       -> NvtxPushPop (ops, python trace, mstx) or NvtxStartEnd (task queue
//     enqueue/dequeue, which overlap); the NvtxScope domain is the ENUM_API_TYPE name. Its
//     startNs/endNs are stored as TEXT by torch_npu and are cast.
//   MSTX_EVENTS       -> NvtxMark (marker, marker_ex), NvtxPushPop, NvtxStartEnd (may end on
//     another thread: endGlobalTid).
//   COMMUNICATION_OP  -> NvtxStartEnd on a CollectiveLane track per communication group of the
//     device's process (tid 0xE0000000 | group string id, named the group's root "ip:port"):
//     HCCL collectives span many device tasks, which are already counted as kernels.
// globalTid packs pid in the high 32 bits and tid in the low 32 (not nsys's 24-bit fields).
// Times are epoch ns ("local Unix time"): utcStartNs = 0. A companion analysis.db has no
// timeline: it loads with no events and a warning naming the file to open instead.

#include "core/trace/read/tracereader.h"

#include <optional>
#include <string>
#include <string_view>

namespace ps::core::trace {

// "90.91.105.46%enp189s0f0_60000_0_1736410538306028" (HCCL's group name: root IP, network
// interface, port, ...) -> "90.91.105.46:60000"; other names unchanged.
std::string hcclGroupLabel(std::string_view groupName);

class AscendReader : public TraceReader
{
public:
    TraceFormat format() const override { return TraceFormat::AscendDb; }
    std::vector<NamePattern> namePatterns() const override { return {{"*.db"}}; }
    bool probe(std::string_view path, std::string_view head) const override;
    std::string read(const std::string &path, StoreBuilder &builder, ReportMeta &meta,
                     const ReadContext &ctx) const override;
    // meta.rank: from the name ascend_pytorch_profiler_<rank>.db, else from RANK_DEVICE_MAP when
    // it has exactly one row.
};

} // namespace ps::core::trace
