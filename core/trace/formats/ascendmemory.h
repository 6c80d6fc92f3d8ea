#pragma once
// Device memory over time from an Ascend profiler database (memoryseries.h): MEMORY_RECORD's
// totalAllocated per allocator component (PTA = torch_npu's caching allocator, GE = graph
// engine, PTA+GE their sum) and NPU_MEM's sampled HBM use ("app": this process, "device": the
// whole NPU). Times are epoch ns, the clock of the reader's events.

#include "core/trace/store/report.h"

#include <set>
#include <string>

namespace ps::core::trace {
class ReadOnlySqlite;
}

namespace ps::core::trace::formats {

void readAscendMemory(const ReadOnlySqlite &db, const std::set<std::string> &tables, ReportMeta &meta);

} // namespace ps::core::trace::formats
