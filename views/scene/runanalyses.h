#pragma once
// One matching of a scene's collectives for every pane that reads it: the RL Phases table names
// its stragglers from it, the Collectives tab shows and indexes its instances, and the Breakdown
// splits each report's communication by its waits. The matcher runs once per scene change with
// all of their sinks (core/analysis/phases/collectivephases.h), on the scene's offsets, which are
// what the timeline shows. The phase cells come first: the phases a collective falls in are one
// sink's input. Made on a worker thread; immutable afterwards, so the panes share one.

#include "core/analysis/phases/collectivephases.h"
#include "core/analysis/phases/phases.h"
#include "views/common/latestjob.h"
#include "views/scene/timelinescene.h"

#include <memory>
#include <vector>

namespace ps::views {

struct RunAnalyses
{
    std::shared_ptr<const TimelineScene> scene;
    std::vector<int> entries;                    // the input: the scene's entries of one run
    std::vector<int> analysed;                   // the distinct reports' entries (an overlay repeats one)
    std::vector<size_t> reportOfEntry;           // per input entry, its index into `analysed`
    std::vector<core::trace::ReportPtr> reports; // per analysed entry
    core::analysis::PhaseTable phases;           // PhaseColumn::report indexes `analysed`
    // Per analysed entry: its collectives matched on the scene's offsets, the instances kept
    // within the member budget and every member's wait. In a step overlay (one rank's steps
    // stacked) only the phase rows: collectives are matched across ranks.
    core::analysis::RunCollectives run;

    bool holds(const std::shared_ptr<const TimelineScene> &s, const std::vector<int> &e) const
    {
        return s == scene && e == entries;
    }
};
using RunAnalysesPtr = std::shared_ptr<const RunAnalyses>;

// Past `memberBudget` members (each collective record of the reports is one: a 1024-rank run of
// 17 k collectives has 17 M, 1 GB as instances), the run keeps the budget / reports instances
// with the largest skew, and as many of the first incomplete ones; its groups, ranks, phases and
// waits still sum every instance.
inline constexpr size_t kCollectiveMemberBudget = 2'000'000;

// The distinct reports of `entries` (in first-seen order) and, per entry, the index of its report
// among them.
std::vector<int> distinctReports(const TimelineScene &scene, const std::vector<int> &entries,
                                 std::vector<size_t> &reportOfEntry);

// The phase table and the one matching of `entries` of `scene`; null when cancelled.
RunAnalysesPtr analyseRun(const std::shared_ptr<const TimelineScene> &scene, const std::vector<int> &entries,
                          const CancelToken &cancel, size_t memberBudget = kCollectiveMemberBudget);

// The newest scene's analyses, shared by the panes that read them: each asks with the input it
// shows, and the job starts once per distinct input.
class RunAnalysesJob : public QObject
{
    Q_OBJECT
public:
    explicit RunAnalysesJob(QObject *parent = nullptr, size_t memberBudget = kCollectiveMemberBudget);

    // Starts analysing, unless these are the inputs of the running or the last finished job.
    void setInput(std::shared_ptr<const TimelineScene> scene, std::vector<int> entries);
    // Analyses the current input again (after a cancel).
    void restart();
    void cancel();
    bool isBusy() const { return m_job->isBusy(); }
    // The last finished analyses (null before the first, or after a cancel).
    const RunAnalysesPtr &latest() const { return m_latest; }
    // The last finished analyses when they are of this input and no newer job runs: what a pane
    // asking after another one shows at once.
    RunAnalysesPtr finishedFor(const std::shared_ptr<const TimelineScene> &scene, const std::vector<int> &entries) const
    {
        return m_latest && m_latest->holds(scene, entries) && !isBusy() ? m_latest : nullptr;
    }
    LatestJobBase *job() const { return m_job; }

signals:
    void ready(ps::views::RunAnalysesPtr analyses);
    // cancel() stopped the job: the panes waiting for it say so instead of waiting on.
    void cancelled();
    void busyChanged(bool busy);

private:
    LatestJob<RunAnalysesPtr> *m_job = nullptr;
    size_t m_memberBudget;
    std::shared_ptr<const TimelineScene> m_scene;
    std::vector<int> m_entries;
    bool m_started = false; // m_scene/m_entries are the running or last job's
    RunAnalysesPtr m_latest;
};

} // namespace ps::views
