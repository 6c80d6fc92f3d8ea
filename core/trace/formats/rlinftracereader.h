#pragma once
// Reader for RLinf's tracer output, `trace_events.jsonl` (cluster.tracer; RLinf a3816b59
// rlinf/scheduler/manager/tracer.py): one Chrome trace event per line, every worker and the
// driver in one file, appended by a single manager actor on node rank 0 as events arrive.
//
// Events as the Tracer writes them: {"name", "cat", "ph": "B"|"E", "ts": <int µs since the
// epoch>, "pid": <worker name, e.g. "ActorGroup:0", or "driver">, "tid": "main", ["args"]}, and
// once per process {"name": "process_name", "ph": "M", "pid", "tid", "args": {"name": <pid>}}.
// `cat` is the worker's root group name (Worker.timer / worker_timer) or "runner" (ScopedTimer).
// X (with dur) and i/I events of other Chrome-trace writers are read too.
//
// The loader splits the file into one report per worker (the `pid` string): identity group and
// rank from "<group>:<rank>" (nested "<group>:<r0>:<r1>" keeps "<group>:<r0>" as the group),
// path "<file>#<worker>". Ranges are B/E pairs matched per (worker, tid) by name, so that the
// interleaved B/E of async worker methods still pair: a pair that closes the innermost open range
// is an NvtxPushPop range, any other an NvtxStartEnd range (they may overlap). Times are epoch ns
// (utcStartNs 0). Errors name file:line; a truncated last line (run killed or still writing) is
// skipped with a warning.

#include "core/trace/read/tracereader.h"

#include <string>
#include <string_view>
#include <vector>

namespace ps::core::trace {

// Per-worker result of reading a tracer file.
struct TracerWorkerData
{
    std::string worker; // the event `pid`: "ActorGroup:0", "driver"
    StoreBuilder builder;
    ReportMeta meta;
};

// Reads the file into one builder per worker, in order of first appearance. Returns "" or
// "<path>:<line>: <what was expected>".
std::string readRlinfTraceEvents(const std::string &path, std::vector<TracerWorkerData> &workers,
                                 const ReadContext &ctx);

// One report per worker (identity filled), or none and `error` set.
std::vector<ReportPtr> loadRlinfTraceReports(const std::string &path, const ReadContext &ctx, std::string &error);

// The report identity of a worker name of the tracer.
ReportIdentity rlinfTracerIdentity(const std::string &path, const std::string &worker);

// Single-report form (loadReport): every worker of the file in one report, one process each
// (pid = position of the worker in the file, process name = worker name).
class RlinfTracerReader : public TraceReader
{
public:
    TraceFormat format() const override { return TraceFormat::RlinfTracer; }
    // RLinf's tracer writes trace_events.jsonl; other .jsonl files in a run folder are logs.
    std::vector<NamePattern> namePatterns() const override { return {{"*trace_events*.jsonl"}, {"*.jsonl", false}}; }
    bool holdsManyReports() const override { return true; }
    // A ".jsonl" file whose first line is a JSON object with a "ph" key.
    bool probe(std::string_view path, std::string_view head) const override;
    std::string read(const std::string &path, StoreBuilder &builder, ReportMeta &meta,
                     const ReadContext &ctx) const override;
};

} // namespace ps::core::trace
