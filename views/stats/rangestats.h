#pragma once
// nvtx_sum / kernel_sum over what the timeline shows: the given entries (reports) and the events
// that start inside a window of the shared axis. Same row semantics as core::trace::summarize
// (`nsys stats`): per name count, total, average, median (mean of the middle two for even
// counts), min, max, sample standard deviation; ordered by total, descending, then name. The
// engine summarises whole reports; this adds the time window the view needs (see the note in
// the issue about a windowed summarize in core). Runs on a worker thread.

#include "core/trace/tracestats.h"
#include "views/timeline/timelinescene.h"

#include <atomic>
#include <vector>

namespace ps::views {

std::vector<core::trace::StatRow> summarizeWindow(const TimelineScene &scene, const std::vector<int> &entries,
                                                  TimeWindow window, core::trace::StatsKind kind,
                                                  const std::atomic<bool> *cancel = nullptr);

} // namespace ps::views
