// RL phase table and run-against-run compare, printed as ratios against a baseline measured in
// the same run: one scan of the same events (start, duration and name of every event, summed per
// name), as in bench_breakdown.
//
//   bench_phases [--reports R] [--events N] [--distinct D] [--repeat K]
//
// R reports (default 64) of N events each (default 1 M): per report, steps of verl phases
// (gen, old_log_prob, ref, adv, update_actor as NVTX ranges on the driver thread) over GPU work
// on 4 compute streams, one NCCL stream and one copy stream. Reports reuse D distinct stores
// (default 8) to keep memory modest; each is its own report with its own rank, so the phase
// table has R columns. The compare matches two such runs rank by rank.
// Targets (issue 13): phases (with the GPU breakdown of every cell) <= 1 scan; compare <= 2 scans.
// Both read the reports' activity indexes (activityindex.h), built once per report by its first
// analysis; that build is timed on its own and printed beside.

#include "core/analysis/phases/phases.h"
#include "core/analysis/runcompare.h"
#include "core/trace/store/storebuilder.h"
#include "tests/bench/analysis/benchscan.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace ps::core::trace;
using namespace ps::core::analysis;
using benchscan::Clock;
using benchscan::seconds;

namespace {

std::shared_ptr<const EventStore> makeStore(size_t events, uint32_t seed)
{
    StoreBuilder b;
    benchscan::addVerlPhases(b, benchscan::addGpuWork(b, events, seed));
    return std::make_shared<const EventStore>(std::move(b).build());
}

std::vector<ReportPtr> makeRun(const std::vector<std::shared_ptr<const EventStore>> &stores, size_t reports,
                               const std::string &run)
{
    std::vector<ReportPtr> out;
    for (size_t r = 0; r < reports; ++r) {
        auto rep = std::make_shared<Report>();
        rep->path = "/runs/" + run + "/worker_" + std::to_string(r) + ".sqlite";
        rep->store = stores[r % stores.size()];
        rep->identity.run = run;
        rep->identity.group = "ActorRolloutRef";
        rep->identity.rank = int(r);
        out.push_back(rep);
    }
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    const benchscan::Size size = benchscan::sizeFromArgs(argc, argv);
    // The candidate run has its own stores (other seeds): nothing computed for the baseline's
    // reports can serve it.
    const auto stores = benchscan::makeStores(size, makeStore, 1);
    const auto candidateStores = benchscan::makeStores(size, makeStore, 1001);
    const std::vector<ReportPtr> baseline = makeRun(stores, size.reports, "mon"),
                                 candidate = makeRun(candidateStores, size.reports, "tue");
    std::printf("%zu reports x %zu events (%zu distinct stores per run), 10 steps x 5 phases\n", size.reports,
                size.events, stores.size());
    const double indexPerReport =
        (benchscan::indexBuildPerStore(stores) + benchscan::indexBuildPerStore(candidateStores)) / 2;
    double bestScan = 1e30, bestPhases = 1e30, bestCompare = 1e30;
    int64_t sink = 0;
    std::vector<int64_t> perName;
    for (size_t k = 0; k < size.repeat; ++k) {
        auto t0 = Clock::now();
        for (const ReportPtr &r : baseline)
            sink += benchscan::scan(*r->store, perName, [](TrackKind) { return true; });
        bestScan = std::min(bestScan, seconds(t0));
        t0 = Clock::now();
        const PhaseTable table = computePhaseTable(baseline, PhaseMapping::defaults());
        bestPhases = std::min(bestPhases, seconds(t0));
        sink += int64_t(table.rows.size());
        t0 = Clock::now();
        const RunComparison cmp = compareRuns(baseline, candidate, CompareOptions{});
        bestCompare = std::min(bestCompare, seconds(t0));
        sink += int64_t(cmp.deltas.size());
    }
    const double index = indexPerReport * double(size.reports);
    std::printf("scan (baseline)              %.3f s\n"
                "phases                       %.3f s   %.3f x scan (target <= 1)\n"
                "compare                      %.3f s   %.3f x scan (target <= 2)\n"
                "index build, once per report %.3f s   %.2f x scan (at the first analysis, per run)\n",
                bestScan, bestPhases, bestPhases / bestScan, bestCompare, bestCompare / bestScan, index,
                index / bestScan);
    return sink == 42 ? 1 : 0; // keeps the work observable
}
