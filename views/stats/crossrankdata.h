#pragma once
// The data of the cross-rank chart: for one NVTX range (an nvtx_sum Range, "domain:text" or
// "text", optionally of one Style), its duration per rank and step.
// Ranks are the entries' ranks (from report identity; reports without one count as their own
// rank); steps are the occurrences of the range in a rank's reports, in time order (capture
// ranges of one rank follow each other). `longest` is the rank with the largest total time
// in the range. Pure computation over the scene; runs on a worker thread.

#include "views/scene/timelinescene.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace ps::views {

struct CrossRankBar
{
    int rank = 0; // index into CrossRankData::ranks
    int step = 0; // 0-based occurrence
    int64_t durationNs = 0;
    int entry = -1; // where the event is, for the jump to the timeline
    core::trace::EventRef ref;
};

struct CrossRankData
{
    QString name;                // the Range
    QString style;               // "PushPop", "StartEnd", or empty for both
    QString run;                 // the run the ranks belong to, when they are of one
    QStringList ranks;           // x categories, in scene order
    std::vector<int64_t> totals; // per rank
    int steps = 0;               // max occurrences over ranks
    // The name of each step (occurrence) for the legend: "step N" with the step the run profiled
    // when every bar of that occurrence comes from a report that is one step (identity.step), as
    // per-step exports are; else "#k", the k-th occurrence.
    QStringList stepLabels;
    std::vector<CrossRankBar> bars; // by rank, then step
    // Rank index with the largest total, -1 when no data. Not the straggler: that is the rank that
    // made the others wait (RL Phases, by arrival); the longest total can be a rank that waited.
    int longest = -1;

    bool isEmpty() const { return bars.empty(); }
    const CrossRankBar *bar(int rank, int step) const;
};

// `rangeName` as core::trace::nvtxRangeName() gives it; `style` as nvtxStyleName(), empty = any.
// `entries`: the scene entries to read (the statistics' run), all when empty.
CrossRankData crossRankData(const TimelineScene &scene, const QString &rangeName, const QString &style = {},
                            const std::vector<int> &entries = {});

// Many occurrences per rank (a range inside every micro-batch) as one value per rank: its total,
// whose bar jumps to the rank's longest occurrence. One "step" labelled "total of N".
CrossRankData perRankTotals(const CrossRankData &d);

// The distribution of one step over the ranks, for a chart of more ranks than bars can show:
// quartiles, whiskers at the farthest values within 1.5 IQR of the box (Tukey), and the bars
// beyond them, named and clickable.
struct CrossRankBox
{
    int step = 0;
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0; // ns
    std::vector<int> outliers; // indices into CrossRankData::bars, the farthest from the median first
};
std::vector<CrossRankBox> crossRankBoxes(const CrossRankData &d);

} // namespace ps::views
