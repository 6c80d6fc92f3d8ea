#include "core/trace/store/tracetypes.h"

#include "core/trace/store/report.h"

namespace ps::core::trace {

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
    case TraceFormat::TorchMemory:
        return "torch-memory";
    }
    return "unknown";
}

} // namespace ps::core::trace
