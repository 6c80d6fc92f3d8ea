// One matching per scene change (issue 40): the desktop's RL Phases, Breakdown and Collectives
// panes used to match a run's collectives once each (the phase table's stragglers, the
// breakdown's waits, the tab's instances); RunAnalysesJob matches once with every sink. This
// measures both on the same in-memory run, in the same process:
//   three passes   computePhaseTable + collectiveWaitsOfRun + analyzeCollectives, as before
//   one pass       analyseRun (views/scene/runanalyses.h), what a scene change costs now
// and prints the matcher passes each made (collectiveMatchPasses), the times, their ratio, and
// whether both name the same stragglers and instances.
//
//   bench_runanalyses [--ranks R] [--collectives C] [--threads T]
//
// The run: R ranks (default 1024) of C world allreduces each (default 2000), as
// bench_collectivedigests makes them (syncallreduce.h): rank R/3 late at every tenth.

#include "core/analysis/collectives/collectivewait.h"
#include "core/analysis/phases/phases.h"
#include "core/common/canceltoken.h"
#include "core/common/parallelfor.h"
#include "core/trace/alignment.h"
#include "tests/bench/analysis/benchscan.h"
#include "tests/bench/analysis/syncallreduce.h"
#include "views/scene/runanalyses.h"

#include <QGuiApplication>

#include <cstdio>
#include <numeric>

using namespace ps::core::trace;
using namespace ps::views;
namespace an = ps::core::analysis;
using benchscan::Clock;
using benchscan::seconds;

namespace {

std::string stragglers(const an::PhaseTable &t)
{
    std::string out;
    for (const an::PhaseRow &row : t.rows)
        out += row.straggler < 0 ? std::string("-,") : t.columns[size_t(row.straggler)].label + ",";
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const size_t ranks = benchscan::argValue(argc, argv, "--ranks", 1024);
    const size_t collectives = benchscan::argValue(argc, argv, "--collectives", 2000);
    const int threads = int(benchscan::argValue(argc, argv, "--threads", 2));
    const std::vector<int64_t> lastArrival = syncallreduce::lastArrivals(ranks, collectives);
    std::vector<ReportPtr> reports(ranks);
    ps::core::parallelFor(ranks, threads, [&](size_t r) {
        reports[r] = std::make_shared<Report>(
            syncallreduce::makeReport("/bench/rank-" + std::to_string(r) + ".pt.trace.json", r, ranks, lastArrival));
    });
    std::vector<PreparedReportPtr> prepared;
    for (const ReportPtr &r : reports)
        prepared.push_back(PreparedReport::prepare(r));
    const AlignResult aligned = alignReports(reports, AlignSpec{});
    auto scene = std::make_shared<const TimelineScene>(buildScene(prepared, aligned.offsets));
    std::vector<int> entries(scene->entries.size());
    std::iota(entries.begin(), entries.end(), 0);
    std::vector<ReportPtr> inSceneOrder;
    std::vector<int64_t> offsets;
    for (const TimelineEntry &e : scene->entries) {
        inSceneOrder.push_back(e.report->reportPtr());
        offsets.push_back(e.offset);
    }

    // Before: each pane matched on its own.
    uint64_t passes = an::collectiveMatchPasses();
    auto t0 = Clock::now();
    const an::PhaseTable table = an::computePhaseTable(inSceneOrder, an::PhaseMapping::defaults());
    const an::RunWaits waits = an::collectiveWaitsOfRun(inSceneOrder);
    an::CollectiveQuery query;
    query.keep = an::CollectiveQuery::Keep::Worst;
    query.worst = std::max<size_t>(1, kCollectiveMemberBudget / ranks);
    const an::CollectiveAnalysis analysis = an::analyzeCollectives(inSceneOrder, offsets, nullptr, 0, query);
    const double three = seconds(t0);
    const uint64_t threePasses = an::collectiveMatchPasses() - passes;

    // Now: one matching for the three.
    passes = an::collectiveMatchPasses();
    ps::core::CancelToken never;
    t0 = Clock::now();
    const RunAnalysesPtr one = analyseRun(scene, entries, never);
    const double single = seconds(t0);
    const uint64_t onePasses = an::collectiveMatchPasses() - passes;

    const bool sameStragglers = stragglers(table) == stragglers(one->phases);
    const bool sameInstances = analysis.instanceCount == one->run.analysis.instanceCount &&
                               analysis.instances.size() == one->run.analysis.instances.size();
    size_t waitsBefore = 0, waitsNow = 0;
    for (const auto &w : waits.byReport)
        waitsBefore += w.size();
    for (const auto &w : one->run.waits)
        waitsNow += w.size();
    std::printf("%zu ranks x %zu collectives (%zu M members), %zu phase rows\n", ranks, collectives,
                ranks * collectives / 1'000'000, one->phases.rows.size());
    std::printf("baseline: three panes matching each   %.2f s  %llu matcher passes\n", three,
                static_cast<unsigned long long>(threePasses));
    std::printf("one matching per scene change         %.2f s  %llu matcher pass  (%.2f x the baseline)\n", single,
                static_cast<unsigned long long>(onePasses), single / three);
    std::printf("same stragglers %s, same instances %s (%zu kept of %zu), same waits %s (%zu members)\n",
                sameStragglers ? "yes" : "NO", sameInstances ? "yes" : "NO", one->run.analysis.instances.size(),
                one->run.analysis.instanceCount, waitsBefore == waitsNow ? "yes" : "NO", waitsNow);
    std::printf("peak RSS %.2f GB\n", benchscan::peakRssGb());
    return sameStragglers && sameInstances && waitsBefore == waitsNow && onePasses == 1 ? 0 : 1;
}
