#include "views/scene/runanalyses.h"

#include "core/trace/read/reportsource.h"

#include <algorithm>

namespace ps::views {

namespace an = core::analysis;
using core::trace::ReportPtr;

std::vector<int> distinctReports(const TimelineScene &scene, const std::vector<int> &entries,
                                 std::vector<size_t> &reportOfEntry)
{
    std::vector<int> distinct; // entries whose report is first seen there
    reportOfEntry.clear();
    for (int e : entries) {
        const auto &report = scene.entries[size_t(e)].report;
        auto it = std::find_if(distinct.begin(), distinct.end(),
                               [&](int d) { return scene.entries[size_t(d)].report == report; });
        reportOfEntry.push_back(size_t(it - distinct.begin()));
        if (it == distinct.end())
            distinct.push_back(e);
    }
    return distinct;
}

namespace {

// Every instance, or within the budget the worst ones.
an::CollectiveQuery queryFor(const std::vector<ReportPtr> &reports, size_t memberBudget)
{
    size_t members = 0; // every record is one instance's member
    for (const ReportPtr &r : reports)
        members += core::trace::collectiveRecordCount(*r);
    an::CollectiveQuery q;
    if (members > memberBudget) {
        q.keep = an::CollectiveQuery::Keep::Worst;
        q.worst = std::max<size_t>(1, memberBudget / std::max<size_t>(1, reports.size()));
    }
    return q;
}

} // namespace

RunAnalysesPtr analyseRun(const std::shared_ptr<const TimelineScene> &scene, const std::vector<int> &entries,
                          const CancelToken &cancel, size_t memberBudget)
{
    auto out = std::make_shared<RunAnalyses>();
    out->scene = scene;
    out->entries = entries;
    if (!scene)
        return out;
    out->analysed = distinctReports(*scene, entries, out->reportOfEntry);
    an::RunMatchOptions match;
    for (int e : out->analysed) {
        out->reports.push_back(scene->entries[size_t(e)].report->reportPtr());
        match.offsets.push_back(scene->entries[size_t(e)].offset);
    }
    if (scene->overlay) { // one rank's steps: its phase rows only, on its own clocks
        match.offsets.clear();
        match.query = an::CollectiveQuery::sinksOnly();
    } else {
        match.query = queryFor(out->reports, memberBudget);
        match.waits = true;
    }
    an::PhaseTableOptions options;
    options.match = [&](std::span<const ReportPtr> reports,
                        const an::PhaseOccurrencesOf &occurrencesOf) -> const an::RunCollectives & {
        out->run = an::collectivesOfRun(reports, occurrencesOf, match, &cancel);
        return out->run;
    };
    out->phases = an::computePhaseTable(out->reports, an::PhaseMapping::defaults(), &cancel, options);
    if (cancel.cancelled() || out->phases.cancelled || out->run.cancelled)
        return nullptr;
    return out;
}

RunAnalysesJob::RunAnalysesJob(QObject *parent, size_t memberBudget) : QObject(parent), m_memberBudget(memberBudget)
{
    m_job = new LatestJob<RunAnalysesPtr>(this, [this](RunAnalysesPtr a) {
        if (!a)
            return;
        m_latest = a;
        emit ready(std::move(a));
    });
    connect(m_job, &LatestJobBase::busyChanged, this, &RunAnalysesJob::busyChanged);
}

void RunAnalysesJob::setInput(std::shared_ptr<const TimelineScene> scene, std::vector<int> entries)
{
    if (m_started && scene == m_scene && entries == m_entries)
        return;
    m_scene = std::move(scene);
    m_entries = std::move(entries);
    restart();
}

void RunAnalysesJob::restart()
{
    m_started = true;
    m_latest = nullptr;
    m_job->run([scene = m_scene, entries = m_entries, budget = m_memberBudget](const CancelToken &cancel) {
        return analyseRun(scene, entries, cancel, budget);
    });
}

void RunAnalysesJob::cancel()
{
    const bool wasBusy = m_job->isBusy();
    m_job->cancel();
    m_started = false; // the same input starts again
    if (wasBusy)
        emit cancelled();
}

} // namespace ps::views
