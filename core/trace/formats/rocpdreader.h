#pragma once
// Reader for rocprofv3 / rocprofiler-sdk "rocpd" SQLite databases (ROCm 7.x,
// ../shared/spec/trace-formats.md section 2.1), both layouts:
//   schema 3   start/end inline on every timeline table;
//   schema 4   start_id/end_id (timestamp_id on samples) into rocpd_timestamp, and pid/tid/agent/
//              queue on rocpd_track (track_id) instead of on the row.
// Tables are read through the unsuffixed rocpd_* views (the physical tables carry the DB uuid),
// columns are chosen by name, and every join includes guid when both sides have it.
//
// Mapping onto TrackKind:
//   rocpd_kernel_dispatch -> Kernel, keyed by (process, queue row id, agent's GPU index);
//     name = kernel symbol display_name; attr = launch geometry (grid, workgroup).
//   rocpd_memory_copy     -> Memcpy on the same key (the GPU side's agent); attr = copy kind
//     (1 HtoD, 2 DtoH, 8 DtoD, 10 PtoP, 9 HtoH as in ENUM_CUDA_MEMCPY_OPER); bytes = size.
//   rocpd_region          -> CudaApi for HIP/HSA/other API calls (attr Runtime for HIP runtime,
//     Driver for HSA, Other otherwise), or, for a MARKER category (roctx), NvtxPushPop
//     (roctxRangePush/Pop), NvtxStartEnd (roctxRangeStart/Stop) or NvtxMark, labelled with the
//     event's extdata message.
//   rocpd_sample with a MARKER category -> NvtxMark (roctxMark).
// Correlation (aux): rocpd_event.correlation_id when non-zero, else rocpd_event.stack_id, which
// rocprofv3 fills with the internal correlation id that ties a dispatch to its HIP call
// (checked on the sample: every kernel's stack_id names its hipLaunchKernel/hipMemset region).
// Timestamps are CLOCK_BOOTTIME ns with no wall-clock anchor: utcStartNs stays empty, with a
// warning (align by start or on an anchor event).

#include "core/trace/read/tracereader.h"

namespace ps::core::trace {

class RocpdReader : public TraceReader
{
public:
    TraceFormat format() const override { return TraceFormat::Rocpd; }
    std::vector<NamePattern> namePatterns() const override { return {{"*.db"}}; }
    bool probe(std::string_view path, std::string_view head) const override;
    std::string read(const std::string &path, StoreBuilder &builder, ReportMeta &meta,
                     const ReadContext &ctx) const override;
};

} // namespace ps::core::trace
