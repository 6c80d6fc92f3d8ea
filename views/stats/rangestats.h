#pragma once
// A stats report (nvtx_sum, kernel_sum, osrt_sum, ...) over what the timeline shows: the given entries (reports) and
// the events that start inside a window of the shared axis. A thin adapter from the scene (entries, their offsets) to
// core::trace::summarize(), which owns the semantics (`nsys stats`: rows per (Range, Style) for nvtx_sum, per kernel
// name for kernel_sum; see tracestats.h). Returns the overall rows; empty when cancelled. Runs on a worker thread.

#include "core/common/canceltoken.h"
#include "core/trace/tracestats.h"
#include "views/scene/timelinescene.h"

#include <vector>

namespace ps::views {

std::vector<core::trace::StatRow> summarizeWindow(const TimelineScene &scene, const std::vector<int> &entries,
                                                  TimeWindow window, core::trace::StatsKind kind,
                                                  const core::CancelToken *cancel = nullptr);

} // namespace ps::views
