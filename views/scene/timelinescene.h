#pragma once
// What the timeline shows: an ordered list of entries, each one report drawn with one offset
// (shared time = report time + offset) under a path of group headers. Normally one entry per
// report, in the engine's grouping order (run -> worker group or role -> rank -> capture range);
// in the step overlay one entry per occurrence of a range in one rank's reports, each shifted so
// that its occurrence starts at 0. Built cheaply from prepared reports (no event is visited
// except by the overlay's range search, which callers run off the GUI thread).

#include "core/trace/rangeoccurrences.h"
#include "views/scene/preparedreport.h"
#include "views/scene/timemapping.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace ps::views {

struct TimelineEntry
{
    PreparedReportPtr report;
    int reportIndex = -1;  // index into the loaded reports
    int64_t offset = 0;    // ns; shared = own + offset
    QString label;         // the report's header text
    QStringList groupPath; // headers above the report, outermost first (may be empty)
    QString key;           // stable id (collapse state, selection): the path, "#K" appended in overlays
};

struct TimelineScene
{
    std::vector<TimelineEntry> entries;
    bool overlay = false;
    // Where to look first: the step overlay's [0, longest occurrence); unset = everything.
    std::optional<TimeWindow> focus;
    // Entries whose clocks lie far from the others' (farClockEntries), and whether the extent
    // takes them in all the same (the user asked to: TimelineViewState::fitIncludesFar).
    std::vector<int> farEntries;
    bool farIncluded = false;

    // Union of the entries' [first start, last end) on the shared axis, far entries left out
    // unless included; {0, 1} when empty.
    TimeWindow extent() const;
    int indexOfKey(const QString &key) const;
};

// The display label of a report: its identity label, else its file name.
QString reportLabel(const core::trace::Report &report);

// The entries whose events reach far beyond the others': a report on two clocks (msprof's mstx
// table 639 days after its tasks) or placed days away. Far means outside the median entry's start
// +- max(1000 x the median span, one day); none with fewer than two entries with events, or when
// the far ones are more than half of them.
std::vector<int> farClockEntries(const TimelineScene &scene);

// One entry per report, grouped and ordered as core::trace::groupReports does. `offsets` is per
// report (missing ones 0).
TimelineScene buildScene(const std::vector<PreparedReportPtr> &reports, const std::vector<int64_t> &offsets);

// A rank: the reports groupReports puts under one (run, group, rank) node.
struct RankChoice
{
    QString label;            // "ActorGroup rank 3"
    std::vector<int> reports; // indices into the loaded reports, in step order
};
std::vector<RankChoice> rankChoices(const std::vector<PreparedReportPtr> &reports);
// The runs of the reports (identity.run), each once, in the order they first appear.
QStringList runNamesOf(const std::vector<PreparedReportPtr> &reports);

// Start/end (report clock) of every NVTX range named `name` in a store, ordered by start.
using core::trace::rangeOccurrences;

// Step overlay: for each report of `rank`, one entry per occurrence of range `rangeName` (only
// the K-th with "NAME#K"; with an empty name, one per report aligned at its first event), all
// starting at 0.
TimelineScene buildStepOverlay(const std::vector<PreparedReportPtr> &reports, const RankChoice &rank,
                               const QString &rangeName);

} // namespace ps::views
