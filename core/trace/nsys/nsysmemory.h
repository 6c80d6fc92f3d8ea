#pragma once
// Internal to the nsys reader: device memory over time from CUDA_GPU_MEMORY_USAGE_EVENTS.

#include "core/trace/store/report.h"

#include <set>
#include <string>

namespace ps::core::trace {
class ReadOnlySqlite;
}

namespace ps::core::trace::nsys {

// One series per device: bytes allocated minus freed since the capture started, counting the
// device-resident kinds of CUDA_MEMOPR_MEMORY_KIND (2 device, 3 array, 5 device static); pinned
// and pageable host memory and managed memory are not device memory. Times are raw (the
// export's clock); applyTimeBase moves them with the events. Nothing when the table is absent.
void readGpuMemory(const ReadOnlySqlite &db, const std::set<std::string> &tables, ReportMeta &meta);

} // namespace ps::core::trace::nsys
