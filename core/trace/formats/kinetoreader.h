#pragma once
// Reader for PyTorch profiler (Kineto) Chrome-trace JSON, plain or gzipped
// (../shared/spec/trace-formats.md section 4). Streams the file: memory is a read block plus
// the EventStore being built, whatever the file size.
//
// Mapping onto TrackKind (cat -> kind):
//   kernel -> Kernel, gpu_memcpy -> Memcpy, gpu_memset -> Memset, cuda_sync -> Sync: keyed by
//     (owning process, stream = tid, device = args.device or the GPU pid); aux = correlation.
//   cuda_runtime -> CudaApi (Runtime), cuda_driver -> CudaApi (Driver); aux = correlation.
//   gpu_user_annotation -> NvtxStartEnd (the projection may overlap) on a per-(device, stream)
//     lane of the owning process, tid 0xF0000000 | device << 20 | stream, named
//     "GPU d stream s annotations".
//   user_annotation, cpu_op, python_function, Trace and any other X/B-E event -> NvtxPushPop on
//     (pid, tid). cpu_op is a range, not an OS call: aten ops are RecordFunction ranges exactly
//     like record_function, properly nested per thread, so they count as `range` in `trace info`;
//     the NvtxScope domain names the category ("cpu_op", "user_annotation", ...) so views and
//     stats can tell them apart.
//   i/I instants -> NvtxMark.  M -> process/thread names.  ac2g s/f flows -> correlation ids
//   where args.correlation is missing.  Other phases (C counters, b/e async) are skipped, with a
//   warning that counts them.
// GPU events carry the GPU's pid in Kineto; they are stored under the CPU process whose runtime
// call has the same correlation id (so EventStore::apiCallFor works), else under the process
// with the most events. String pids ("Spans", "Traces") go to pseudo process 0, one thread per
// distinct tid string.
//
// Time: ns = µs text converted exactly (kinetotime.h). Epoch timestamps (>= 1e14 µs) give
// utcStartNs 0; relative ones take baseTimeNanoseconds as the origin; relative without a base
// have no origin (warning). meta.rank: distributedInfo.rank, else "rank-N"/"rank_N" in the name.
//
// Units: kinetoevent (JSON decoding), kinetoingest (tracks, GPU<->CPU correlation), kinetoheader
// (the keys outside traceEvents); this file streams and applies the time base.

#include "core/trace/read/tracereader.h"

namespace ps::core::trace {

class KinetoReader : public TraceReader
{
public:
    TraceFormat format() const override { return TraceFormat::KinetoJson; }
    // torch.profiler's *.pt.trace.json(.gz) and any Chrome trace JSON.
    std::vector<NamePattern> namePatterns() const override { return {{"*.json"}, {"*.json.gz"}}; }
    bool probe(std::string_view path, std::string_view head) const override;
    std::string read(const std::string &path, StoreBuilder &builder, ReportMeta &meta,
                     const ReadContext &ctx) const override;
};

} // namespace ps::core::trace
