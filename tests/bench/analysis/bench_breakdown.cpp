// GPU time breakdown benchmark, printed as a ratio against a baseline measured in the same run:
// one scan of the same events (start, duration and name of every GPU event, summed per name —
// the least any per-kernel summary reads).
//
//   bench_breakdown [--reports R] [--events N] [--distinct D] [--repeat K]
//
// R reports (default 64) of N GPU events each (default 1 M): per report 4 compute streams, one
// NCCL stream overlapping them and one memcpy stream, on one device. To keep memory modest the
// R reports reuse D distinct generated stores (default 8) in turn; the breakdown keeps no state
// between reports, so each report costs the same as a distinct one. Target: breakdown / scan <= 1.
// The breakdown reads each report's activity index (activityindex.h), built once per report by
// its first analysis; that build is timed on its own and printed beside, as is the breakdown
// computed without the index.

#include "core/analysis/breakdown/breakdown.h"
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
    benchscan::addGpuWork(b, events, seed);
    return std::make_shared<const EventStore>(std::move(b).build());
}

} // namespace

int main(int argc, char **argv)
{
    const benchscan::Size size = benchscan::sizeFromArgs(argc, argv);
    const auto stores = benchscan::makeStores(size, makeStore);
    const size_t reports = size.reports;
    std::printf("%zu reports x %zu GPU events (%zu distinct stores)\n", reports, size.events, stores.size());
    double bestScan = 1e30, bestBreakdown = 1e30, bestDirect = 1e30;
    int64_t sink = 0;
    std::vector<int64_t> perName;
    // The index is built once per report, by its first analysis: its cost, per report.
    const double indexPerReport = benchscan::indexBuildPerStore(stores);
    for (size_t k = 0; k < size.repeat; ++k) {
        auto t0 = Clock::now();
        for (size_t r = 0; r < reports; ++r)
            sink += benchscan::scan(*stores[r % stores.size()], perName, isGpuKind);
        bestScan = std::min(bestScan, seconds(t0));
        t0 = Clock::now();
        for (size_t r = 0; r < reports; ++r) {
            const EventStore &s = *stores[r % stores.size()];
            sink += computeBreakdown(s, WorkClassTable(s), {}, nullptr).busyNs;
        }
        bestBreakdown = std::min(bestBreakdown, seconds(t0));
        t0 = Clock::now();
        for (size_t r = 0; r < reports; ++r) {
            const EventStore &s = *stores[r % stores.size()];
            sink += computeBreakdownDirect(s, WorkClassTable(s), {}, nullptr).busyNs;
        }
        bestDirect = std::min(bestDirect, seconds(t0));
    }
    const double index = indexPerReport * double(reports);
    std::printf("scan (baseline)              %.3f s\n"
                "breakdown (from the index)   %.3f s   %.3f x scan (target <= 1)\n"
                "index build, once per report %.3f s   %.2f x scan (at the first analysis)\n"
                "breakdown without the index  %.3f s   %.2f x scan\n",
                bestScan, bestBreakdown, bestBreakdown / bestScan, index, index / bestScan, bestDirect,
                bestDirect / bestScan);
    return sink == 42 ? 1 : 0; // keeps the work observable
}
