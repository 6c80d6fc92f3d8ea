// Collectives matched across ranks (core/analysis/collectives/collectives.h), printed as ratios against a
// baseline measured in the same run: one scan of the same reports' kernels (start, duration and
// name of every kernel, summed per name), as bench_breakdown's scan.
//
//   bench_collectives [--reports R] [--events N] [--distinct D] [--repeat K] [--threads T]
//
// R reports (default 64, one rank each) of N GPU events (default 1 M; a sixth of them NCCL
// allreduce kernels on one stream). Two runs: "records" gives every NCCL kernel a collective
// record (Kineto's c10d args: world group, Seq-less, so instances go by k-th in the group),
// "names" gives none (nsys, rocpd): the analysis makes a record per kernel known by its NCCL name
// (core/trace/store/namedcollectives.h) and matches those by order per stream. The first analysis of a
// store makes those records and sorts its records into shapes, both kept with the store; it is
// printed on its own, and the best of the repeats after it is the ratio.
// Timed: matching with the group and rank summaries (none of the instances kept); the same with
// every instance put in its RL phase (what the phase table asks); and with every instance kept
// (what the JSON output and the Collectives tab hold), for comparison.
// Target (issue 24): matching and summaries from the events <= 1 scan of the kernels.

#include "core/analysis/collectives/collectives.h"
#include "core/analysis/phases/collectivephases.h"
#include "core/trace/store/storebuilder.h"
#include "tests/bench/analysis/benchscan.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

using namespace ps::core::trace;
using namespace ps::core::analysis;
using benchscan::Clock;
using benchscan::seconds;

namespace {

// addGpuWork's events; with `records`, a world-group record on each NCCL kernel.
std::shared_ptr<const EventStore> makeStore(size_t events, uint32_t seed, size_t ranks, bool records)
{
    StoreBuilder b;
    const int64_t span = benchscan::addGpuWork(b, events, seed);
    benchscan::addVerlPhases(b, span);
    if (!records)
        return std::make_shared<const EventStore>(std::move(b).build());
    // addGpuWork puts its NCCL kernels on stream 20 of pid 1; rebuild that lane with records.
    EventStore plain = std::move(b).build();
    StoreBuilder r;
    std::string rankList = "[";
    for (size_t i = 0; i < ranks; ++i)
        rankList += (i ? ", " : "") + std::to_string(i);
    CollectiveRecord c;
    c.op = r.intern("allreduce");
    c.groupName = r.intern("0");
    c.groupRanks = r.intern(rankList + "]");
    c.dtype = r.intern("BFloat16");
    c.groupSize = int32_t(ranks);
    c.inNelems = c.outNelems = 1 << 20;
    for (const Track &t : plain.tracks()) {
        const TrackHandle h = r.track(t.key());
        r.reserve(h, t.size());
        for (size_t i = 0; i < t.size(); ++i) {
            r.add(h, t.start(i), t.end(i), r.intern(plain.name(t.name(i))), t.aux(i), t.attr(i));
            if (t.kind() == TrackKind::Kernel && t.key().id == 20) {
                c.start = t.start(i);
                c.end = t.end(i);
                c.stream = 20;
                r.addCollective(h, c);
            }
        }
    }
    return std::make_shared<const EventStore>(std::move(r).build());
}

std::vector<ReportPtr> makeRun(const std::vector<std::shared_ptr<const EventStore>> &stores, size_t reports)
{
    std::vector<ReportPtr> out;
    for (size_t i = 0; i < reports; ++i) {
        auto rep = std::make_shared<Report>();
        rep->path = "/runs/bench/rank-" + std::to_string(i) + ".json";
        rep->store = stores[i % stores.size()];
        rep->identity.rank = int(i);
        out.push_back(rep);
    }
    return out;
}

struct Timing
{
    double scan = 1e30, summaries = 1e30, phases = 1e30, instances = 1e30;
    double first = 0; // the first analysis, which also sorts each store's records into shapes
};

CollectiveQuery keeping(CollectiveQuery::Keep keep)
{
    CollectiveQuery q;
    q.keep = keep;
    return q;
}

// What the phase table asks: every instance matched and put in its phase, none kept.
RunCollectives phaseRows(const std::vector<ReportPtr> &run)
{
    return collectivesOfRun(
        run, [&](size_t r) { return phaseOccurrencesOf(*run[r], PhaseMapping::defaults()); }, nullptr,
        keeping(CollectiveQuery::Keep::None));
}

Timing measure(const std::vector<ReportPtr> &run, size_t repeat, int threads, int64_t &sink)
{
    Timing t;
    std::vector<int64_t> perName;
    for (size_t k = 0; k < repeat; ++k) {
        auto t0 = Clock::now();
        for (const ReportPtr &r : run)
            sink += benchscan::scan(*r->store, perName, [](TrackKind kind) { return kind == TrackKind::Kernel; });
        t.scan = std::min(t.scan, seconds(t0));
        t0 = Clock::now();
        const CollectiveAnalysis a =
            analyzeCollectives(run, {}, nullptr, threads, keeping(CollectiveQuery::Keep::None));
        t.summaries = std::min(t.summaries, seconds(t0));
        if (k == 0)
            t.first = seconds(t0);
        sink += int64_t(a.instanceCount) + int64_t(a.errors.size());
        if (!a.errors.empty())
            std::printf("error: %s\n", a.errors.front().c_str());
        t0 = Clock::now();
        sink += int64_t(phaseRows(run).phases.size());
        t.phases = std::min(t.phases, seconds(t0));
        t0 = Clock::now();
        sink += int64_t(analyzeCollectives(run, {}, nullptr, threads).instances.size());
        t.instances = std::min(t.instances, seconds(t0));
    }
    return t;
}

} // namespace

int main(int argc, char **argv)
{
    const benchscan::Size size = benchscan::sizeFromArgs(argc, argv);
    int64_t sink = 0;
    std::printf("%zu reports x %zu events (%zu distinct stores), a sixth NCCL kernels\n", size.reports, size.events,
                size.distinct);
    const int threads = int(benchscan::argValue(argc, argv, "--threads", 2));
    for (bool records : {true, false}) {
        const auto stores = benchscan::makeStores(
            size, [&](size_t events, uint32_t seed) { return makeStore(events, seed, size.reports, records); });
        const auto run = makeRun(stores, size.reports);
        // The baseline scans on one thread: matching on one thread is the like-for-like ratio.
        for (int n : {1, threads}) {
            const Timing t = measure(run, size.repeat, n, sink);
            if (n == 1) // the stores are new: their first analysis sorts their records into shapes
                std::printf("%-8s first analysis, which also sorts each of the %zu stores' records into shapes kept "
                            "with it (as the activity index is built): %.3f s\n",
                            records ? "records" : "names", stores.size(), t.first);
            std::printf("%-8s scan of the kernels (baseline) %.3f s; on %d thread(s): matching and summaries %.3f s "
                        "= %.3f x scan (target <= 1); with phases (the phase table) %.3f s = %.3f x scan; every "
                        "instance kept (JSON, Collectives tab) %.3f s = %.3f x scan; peak RSS %.2f GB\n",
                        records ? "records" : "names", t.scan, n, t.summaries, t.summaries / t.scan, t.phases,
                        t.phases / t.scan, t.instances, t.instances / t.scan, benchscan::peakRssGb());
            if (threads == 1)
                break;
        }
    }
    return sink == 42 ? 1 : 0; // keeps the work observable
}
