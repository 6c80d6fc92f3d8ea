// Digest benchmark (issue 16), printed as ratios against a baseline measured in the same run: the
// cold load of the same report (its SQLite read into an EventStore, no report cache).
//
//   bench_digest [--dir DIR] [--events N] [--repeat K] [--level L] [--zstd-threads T]
//
// One demo report of ~N events (default 2 M) is generated once under DIR (default
// /tmp/ps-bench-digest) and reused. Figures:
//   digest  = cold load + phase summary + encode + zstd + atomic write (target <= 1.3x the cold load)
//   open    = reading the digest back into an EventStore (decompress + decode)
//   size    = digest bytes per event, and the report's own bytes per event
// Best of K runs each (default 3).

#include "core/analysis/digestsummary.h"
#include "core/trace/persist/digest.h"
#include "core/trace/read/traceloader.h"
#include "tests/bench/trace/demoreports.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using namespace ps::core::trace;
using benchdemo::Clock;
using benchdemo::secondsSince;

namespace {

std::string ensureReport(const std::string &dir, int64_t events)
{
    return benchdemo::ensureDemo(dir, 1, events).front();
}

ReportPtr coldLoad(const std::string &path)
{
    std::string error;
    ReportPtr r = loadReport(path, ReadContext{}, error);
    if (!r) {
        std::fprintf(stderr, "load failed: %s\n", error.c_str());
        std::exit(1);
    }
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    std::string dir = "/tmp/ps-bench-digest";
    int64_t events = 2000000;
    int repeat = 3;
    DigestOptions options;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--dir"))
            dir = argv[i + 1];
        else if (!std::strcmp(argv[i], "--events"))
            events = std::stoll(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--repeat"))
            repeat = std::max(1, std::stoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--level"))
            options.level = std::stoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--zstd-threads"))
            options.threads = std::stoi(argv[i + 1]);
    }
    const std::string report = ensureReport(dir, events);
    const std::string digest = dir + "/out/" + fs::path(report).filename().string() + std::string(kDigestSuffix);
    double load = 1e300, make = 1e300, open = 1e300;
    size_t count = 0;
    for (int k = 0; k < repeat; ++k) {
        auto t0 = Clock::now();
        count = coldLoad(report)->store->eventCount();
        load = std::min(load, secondsSince(t0));
        t0 = Clock::now();
        // As `trace digest` writes it: with the report's phase summary.
        const ReportPtr loaded = coldLoad(report);
        const std::string error = ps::core::analysis::writeDigestWithSummaries(*loaded, digest, options);
        make = std::min(make, secondsSince(t0));
        if (!error.empty()) {
            std::fprintf(stderr, "digest failed: %s\n", error.c_str());
            return 1;
        }
        t0 = Clock::now();
        std::string openError;
        if (!readDigest(digest, openError)) {
            std::fprintf(stderr, "open failed: %s\n", openError.c_str());
            return 1;
        }
        open = std::min(open, secondsSince(t0));
    }
    const double digestBytes = double(fs::file_size(digest)), reportBytes = double(fs::file_size(report));
    std::printf("report: %zu events, %.1f MB of SQLite (%.1f B/event)\n", count, reportBytes / 1e6,
                reportBytes / double(count));
    std::printf("cold load (baseline)  %.3f s\n"
                "digest                %.3f s   %.2f x cold load (target <= 1.3)\n"
                "open the digest       %.3f s   %.2f x cold load\n"
                "digest size           %.1f MB  %.2f B/event (%.1f%% of the report)\n",
                load, make, make / load, open, open / load, digestBytes / 1e6, digestBytes / double(count),
                100.0 * digestBytes / reportBytes);
    return 0;
}
