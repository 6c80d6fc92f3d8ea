#pragma once
// NVTX GPU projection, as nsys's nvtx_gpu_proj_trace / nvtx_gpu_proj_sum reports define it: a
// GPU operation (kernel, memcpy, memset) belongs to an NVTX range when the CUDA API call that
// launched it (same correlation id) lies inside the range (range start <= call start and call
// end <= range end) on the range's own thread. A range's projection runs from the start of its
// first GPU operation to the end of its last; ranges without GPU operations, and start/end
// ranges that end on another thread, are not projected. Unended ranges end at the report's last
// event (the reader closes them there).
//
// Summary per (Range, Style) as nvtx_gpu_proj_sum groups them, Range named as in nvtx_sum:
// total projected time, total range (wall) time, instances, projected avg/median/min/max/
// stddev, GPU operations (distinct launching calls), and the ratio projected / wall.
// Roctx / mstx / Kineto annotation ranges are projected the same way through their readers'
// API-call correlation.

#include "core/common/canceltoken.h"
#include "core/trace/store/eventstore.h"
#include "core/trace/store/report.h"

#include <string>
#include <vector>

namespace ps::core::analysis {

struct ProjectionRow
{
    std::string range;
    std::string style; // "PushPop" or "StartEnd"
    uint64_t instances = 0;
    int64_t totalProjNs = 0;
    int64_t totalRangeNs = 0;
    double avgProjNs = 0, medProjNs = 0, stddevProjNs = 0;
    int64_t minProjNs = 0, maxProjNs = 0;
    uint64_t gpuOps = 0;
    // Projected time per wall time of the ranges (0 when the wall time is 0).
    double ratio() const { return totalRangeNs > 0 ? double(totalProjNs) / double(totalRangeNs) : 0; }
};

struct ProjectionResult
{
    std::vector<ProjectionRow> rows; // by total projected time, descending, then range, style
    bool cancelled = false;
};

ProjectionResult nvtxGpuProjection(const trace::EventStore &store, const core::CancelToken *cancel = nullptr);

} // namespace ps::core::analysis
