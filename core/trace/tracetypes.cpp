#include "core/trace/tracetypes.h"
#include "core/trace/report.h"

namespace ps::core::trace {

std::string_view trackKindName(TrackKind k)
{
    switch (k) {
    case TrackKind::NvtxPushPop:
        return "nvtx_pushpop";
    case TrackKind::NvtxStartEnd:
        return "nvtx_startend";
    case TrackKind::NvtxMark:
        return "mark";
    case TrackKind::CudaApi:
        return "api";
    case TrackKind::OsRuntime:
        return "osrt";
    case TrackKind::Kernel:
        return "kernel";
    case TrackKind::Memcpy:
        return "memcpy";
    case TrackKind::Memset:
        return "memset";
    case TrackKind::Sync:
        return "sync";
    }
    return "unknown";
}

std::string_view traceFormatName(TraceFormat f)
{
    switch (f) {
    case TraceFormat::NsysSqlite:
        return "nsys-sqlite";
    case TraceFormat::Rocpd:
        return "rocpd";
    case TraceFormat::AscendDb:
        return "ascend-db";
    case TraceFormat::KinetoJson:
        return "kineto-json";
    case TraceFormat::RlinfTracer:
        return "rlinf-tracer";
    }
    return "unknown";
}

} // namespace ps::core::trace
