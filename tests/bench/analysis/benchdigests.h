#pragma once
// A synthetic run of digests for the large-run benchmarks (issue 16), written straight from
// in-memory stores as `trace digest` writes them (summaries, pyramids; events unless
// summaryOnly): R reports of N events, GPU work on 4 compute streams with NCCL and copies under
// 10 steps of the five verl phases as NVTX ranges. The rank R/3 straggles as in synchronous
// training: it arrives 5 us late at every tenth collective, which every rank's kernel then waits
// for (benchscan::ncclKernel), so its phases last no longer than the others'. Written once under a
// folder and reused (a marker names the shape).

#include "core/analysis/digestsummary.h"
#include "core/common/parallelfor.h"
#include "core/trace/persist/digest.h"
#include "tests/bench/analysis/benchscan.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace benchdigests {

inline ps::core::trace::Report makeReport(const std::string &dir, size_t rank, size_t events, bool straggler)
{
    using namespace ps::core::trace;
    StoreBuilder b;
    const benchscan::Sync sync{uint32_t(rank), 5'000, straggler};
    benchscan::addVerlPhases(b, benchscan::addGpuWork(b, events, uint32_t(rank + 1), sync));
    Report r;
    r.path = dir + "/rlinf_profile_ActorGroup_" + std::to_string(rank) + "_" + std::to_string(1000 + rank) + ".sqlite";
    r.store = std::make_shared<const EventStore>(std::move(b).build());
    return r;
}

inline void ensureDigests(const std::string &dir, size_t reports, size_t events, bool summaryOnly = false,
                          int threads = 2)
{
    namespace fs = std::filesystem;
    const std::string marker = dir + "/.complete-sync-" + std::to_string(reports) + "x" + std::to_string(events) +
                               (summaryOnly ? "-summary" : "");
    if (fs::exists(marker))
        return;
    std::printf("writing %zu digests of %zu events in %s ...\n", reports, events, dir.c_str());
    std::fflush(stdout);
    fs::remove_all(dir);
    fs::create_directories(dir);
    ps::core::trace::DigestOptions options;
    options.summaryOnly = summaryOnly;
    ps::core::parallelFor(reports, threads, [&](size_t r) {
        const ps::core::trace::Report rep = makeReport(dir, r, events, r == reports / 3);
        const std::string e = ps::core::analysis::writeDigestWithSummaries(
            rep, rep.path + std::string(ps::core::trace::kDigestSuffix), options);
        if (!e.empty()) {
            std::fprintf(stderr, "%s\n", e.c_str());
            std::exit(1);
        }
    });
    std::ofstream(marker) << "ok\n";
}

inline uint64_t digestBytes(const std::string &dir)
{
    uint64_t bytes = 0;
    for (const auto &e : std::filesystem::directory_iterator(dir))
        if (ps::core::trace::isDigestPath(e.path().string()))
            bytes += e.file_size();
    return bytes;
}

} // namespace benchdigests
