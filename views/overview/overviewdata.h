#pragma once
// The data of the cluster overview: per timeline entry (a rank's report, in the timeline's row
// order) the GPU busy share of a fixed number of time bins over the scene's shared axis, from the
// report's events (core/analysis/breakdown/devicebusy.h) or, for a digest opened as an outline, from its
// BUSY pyramids, so that a 1024-rank run is read without paging a single report in. Each row's
// mean busy share over its own span picks the outliers (far from the median, as the median
// absolute deviation measures far). Pure computation over the scene: runs on a worker thread.

#include "core/common/canceltoken.h"
#include "views/scene/timelinescene.h"

#include <QString>

#include <algorithm>
#include <vector>

namespace ps::views {

struct OverviewRow
{
    int entry = -1; // index into the scene's entries
    QString label;  // the report's header text
    // Busy share [0, 1] per bin, averaged over the report's devices; -1 where the report has no
    // data (before its first event, after its last, or a report without GPU work).
    std::vector<float> busy;
    double meanBusy = -1; // over the report's own span; -1 without GPU work
};

struct OverviewData
{
    TimeWindow extent; // the shared axis the bins divide
    int bins = 0;
    std::vector<OverviewRow> rows; // scene order
    std::vector<int> outliers;     // row indices, the farthest from the median first
    bool cancelled = false;

    bool isEmpty() const { return rows.empty(); }
    int64_t binStart(int bin) const { return extent.start + extent.duration() * bin / std::max(1, bins); }
};

OverviewData computeOverview(const TimelineScene &scene, int bins, const core::CancelToken *cancel = nullptr);

// Indices of the values far from the median: more than 3.5 scaled median absolute deviations and
// at least `minGap` away (so a run of near-identical ranks has none). Values < 0 are no data.
// Farthest first.
std::vector<int> robustOutliers(const std::vector<double> &values, double minGap);

} // namespace ps::views
