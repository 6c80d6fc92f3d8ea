#pragma once
// The collectives of the reports on screen, matched across ranks (core/analysis/collectives/collectives.h)
// and indexed for the views: which instance a selected kernel belongs to, and per report and
// track the waiting part of every collective kernel, for the painter to hatch. Built on a worker
// thread from the scene's one matching (runanalyses.h, on the entries' offsets); immutable afterwards, so
// the painter, the table and the details pane share one.

#include "core/analysis/collectives/collectives.h"
#include "views/scene/runanalyses.h"

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace ps::views {

// The waiting part of one member's kernel: [start, start + wait) on its report's own clock.
struct WaitSpan
{
    int64_t ownStart = 0;
    int64_t waitNs = 0;
    uint32_t index = 0; // the event in its track (0 for a report without events)
    uint32_t instance = 0;
};

struct CollectiveView
{
    explicit CollectiveView(RunAnalysesPtr source);
    RunAnalysesPtr source;                                 // the one matching the view was made of
    const core::analysis::CollectiveAnalysis &analysis;    // source's, or an empty one
    std::vector<int> entries;                              // analysis report -> scene entry
    std::vector<const core::trace::Report *> reports;      // analysis report -> the report matched
    std::vector<int64_t> offsets;                          // analysis report -> its offset when matched
    std::vector<int> reportOfEntry;                        // scene entry -> analysis report, or -1
    std::vector<std::vector<std::vector<WaitSpan>>> waits; // [analysis report][track], by ownStart
    // [analysis report] (track << 32 | index, instance), sorted: the instance of an event.
    std::vector<std::vector<std::pair<uint64_t, uint32_t>>> byEvent;
    std::vector<int64_t> medianWait, totalWait; // by instance (0 for incomplete ones): the table's
    QString unavailable;                        // why nothing could be matched (step overlay, no reports), else empty
    int needsEvents = 0;                        // digests opened without events that carry no collective records

    // The analysis report of a scene entry showing `report`, or -1 (not analysed, or stale).
    int reportOf(int entry, const core::trace::Report *report) const;
    // The instance a kernel of a scene entry belongs to.
    std::optional<size_t> instanceOf(int entry, const core::trace::Report *report, core::trace::EventRef ref) const;
    // Wait spans of a track that may intersect [ownFrom, ownTo) (own clock of the report).
    std::span<const WaitSpan> waitsIn(int report, uint32_t track, int64_t ownFrom, int64_t ownTo) const;
    // A large run: `analysis.instances`, and so `waits`, hold the worst (and first incomplete) only.
    bool capped() const { return analysis.instances.size() < analysis.instanceCount; }
};

using CollectiveViewPtr = std::shared_ptr<const CollectiveView>;

// The view of a run's matching (empty, with `unavailable`, for the step overlay, where one
// rank's reports are stacked); null when cancelled.
CollectiveViewPtr collectiveViewOf(const RunAnalysesPtr &analyses, const core::CancelToken &cancel);
// Matches the collectives of `entries` of `scene` (analyseRun) and makes their view: for tests and
// tools that have no RunAnalysesJob.
CollectiveViewPtr buildCollectiveView(const std::shared_ptr<const TimelineScene> &scene,
                                      const std::vector<int> &entries, const core::CancelToken &cancel,
                                      size_t memberBudget = kCollectiveMemberBudget);

// "94 GB/s", "3.5 GB/s", "-" when unknown.
QString bandwidthText(const std::optional<double> &gbps);
// What the details pane says about an instance: "rank 5 arrived last; the others waited 25.0 ms
// (median); transfer 5.0 ms; busbw 94 GB/s", or why it is incomplete.
QString instanceSummary(const core::analysis::CollectiveInstance &inst);
// What a match method's name means, in words, for tooltips: "stream-order: by their order on each
// rank's NCCL stream …".
QString matchMethodExplained(core::analysis::MatchMethod method);
// Why an instance shows no bus bandwidth ("-"): the trace does not say the bytes moved.
QString busbwMissingWhy();
// "allreduce #12 in group 0 (8 ranks, group-order)".
QString instanceTitle(const core::analysis::CollectiveInstance &inst);

} // namespace ps::views
