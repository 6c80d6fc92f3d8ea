// `trace collectives` over a large run of summary-only digests (issue 24): R digests (default
// 1024, one rank each) of C collectives each (default 10 k), written through the real digest
// writer (analysis/digestsummary.h: outline, summaries, COLL) from stores that synchronize as
// NCCL does: every rank computes, then joins a world allreduce (c10d kernel args, `Seq`) that ends
// on every rank when the last one arrives plus the transfer; rank R/3 is 5 ms late in every tenth
// step. Then what `trace collectives` does: open each digest as its outline, take its records and
// phases and release it, match, put the instances in their phases. Prints the times and the peak RSS against the
// targets (<= 2 s, <= 1 GB) and as ratios against a baseline measured in the same run: reading every digest's bytes.
//
//   bench_collectivedigests [--reports R] [--collectives C] [--dir DIR] [--threads T]
//
// The run is written once under DIR (default /tmp/ps-bench-collectivedigests) and reused.

#include "core/analysis/digestsummary.h"
#include "core/analysis/phases/collectivephases.h"
#include "core/analysis/phases/collectivestream.h"
#include "core/common/parallelfor.h"
#include "core/trace/persist/digest.h"
#include "core/trace/read/traceloader.h"
#include "core/trace/store/storebuilder.h"
#include "tests/bench/analysis/benchscan.h"
#include "tests/bench/analysis/syncallreduce.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/resource.h>

using namespace ps::core::trace;
using namespace ps::core::analysis;
using benchscan::Clock;
using benchscan::seconds;

namespace {

void ensureDigests(const std::string &dir, size_t ranks, size_t collectives, int threads)
{
    namespace fs = std::filesystem;
    const std::string marker = dir + "/.complete-" + std::to_string(ranks) + "x" + std::to_string(collectives) + "-v" +
                               std::to_string(kDigestVersion);
    if (fs::exists(marker))
        return;
    std::printf("writing %zu summary-only digests of %zu collectives in %s ...\n", ranks, collectives, dir.c_str());
    std::fflush(stdout);
    fs::remove_all(dir);
    fs::create_directories(dir);
    DigestOptions options;
    options.summaryOnly = true;
    const std::vector<int64_t> lastArrival = syncallreduce::lastArrivals(ranks, collectives);
    ps::core::parallelFor(ranks, threads, [&](size_t r) {
        const Report rep =
            syncallreduce::makeReport(dir + "/rank-" + std::to_string(r) + ".pt.trace.json", r, ranks, lastArrival);
        const std::string e = writeDigestWithSummaries(rep, rep.path + std::string(kDigestSuffix), options);
        if (!e.empty()) {
            std::fprintf(stderr, "%s\n", e.c_str());
            std::exit(1);
        }
    });
    std::ofstream(marker) << "ok\n";
}

// CPU seconds (user + system) this process has used: on a shared machine the wall times vary with
// the load, the CPU time much less.
double cpuSeconds()
{
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// The baseline: every digest's bytes read once.
double readAll(const std::string &dir, uint64_t &bytes)
{
    const auto t0 = Clock::now();
    std::string buffer;
    for (const auto &e : std::filesystem::directory_iterator(dir)) {
        if (!isDigestPath(e.path().string()))
            continue;
        std::ifstream f(e.path(), std::ios::binary);
        buffer.assign(std::istreambuf_iterator<char>(f), {});
        bytes += buffer.size();
    }
    return seconds(t0);
}

} // namespace

int main(int argc, char **argv)
{
    const size_t ranks = benchscan::argValue(argc, argv, "--reports", 1024);
    const size_t collectives = benchscan::argValue(argc, argv, "--collectives", 10000);
    const int threads = int(benchscan::argValue(argc, argv, "--threads", 2));
    std::string dir = "/tmp/ps-bench-collectivedigests";
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--dir")
            dir = argv[i + 1];
    ensureDigests(dir, ranks, collectives, threads);
    const double rssBefore = benchscan::peakRssGb();
    uint64_t bytes = 0;
    double cpu0 = cpuSeconds();
    const double baseline = readAll(dir, bytes);
    const double baselineCpu = cpuSeconds() - cpu0;
    cpu0 = cpuSeconds();

    // What `trace collectives` does with a run of digests: each opened as its outline, its records
    // and phases taken and the outline released (collectivesOfDigests), then matched.
    auto t0 = Clock::now();
    std::vector<std::string> errors;
    std::vector<ReportPtr> opened;
    const std::vector<std::string> files = findReports({dir}, nullptr);
    CollectiveQuery text; // what the text output keeps: the 10 worst instances and the first 10 incomplete
    text.keep = CollectiveQuery::Keep::Worst;
    text.worst = 10;
    const RunCollectives run = collectivesOfDigests(files, threads, errors, opened, nullptr, text);
    const double total = seconds(t0);
    const double cpu = cpuSeconds() - cpu0;
    if (opened.size() != ranks) {
        std::fprintf(stderr, "open failed: %zu of %zu\n", opened.size(), ranks);
        return 1;
    }
    const size_t complete = run.analysis.completeCount;
    int straggler = -1;
    for (const CollectivePhaseRow &p : run.phases)
        straggler = p.straggler >= 0 ? p.straggler : straggler;
    std::printf("%zu summary-only digests x %zu collectives (%.1f MB on disk; peak RSS %.2f GB after writing)\n", ranks,
                collectives, double(bytes) / 1e6, rssBefore);
    std::printf("baseline (read every digest) %.3f s\n"
                "trace collectives (open, match, phases) %.3f s = %.1f x baseline   target <= 2 s\n"
                "  %zu instances, %zu complete, %zu phase rows, straggler rank %d, planted %zu\n"
                "CPU time: baseline %.3f s, trace collectives %.3f s = %.1f x baseline (%d threads)\n"
                "peak RSS %.2f GB   target <= 1 GB\n",
                baseline, total, total / baseline, run.analysis.instanceCount, complete, run.phases.size(), straggler,
                ranks / 3, baselineCpu, cpu, cpu / baselineCpu, threads, benchscan::peakRssGb());
    for (const std::string &e : run.analysis.errors)
        std::printf("error: %s\n", e.c_str());
    return 0;
}
