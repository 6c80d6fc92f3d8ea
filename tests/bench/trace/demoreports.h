#pragma once
// What the trace benchmarks share: demo reports generated once under a folder and reused, and
// wall-clock timing.

#include "core/demo/demorun.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace benchdemo {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The .sqlite reports of a demo run of `ranks` reports of ~`events` events each under `dir`,
// generated on first use (a marker file says the folder is complete).
inline std::vector<std::string> ensureDemo(const std::string &dir, int ranks, int64_t events)
{
    const std::string marker = dir + "/.complete-" + std::to_string(ranks) + "x" + std::to_string(events);
    std::vector<std::string> files;
    if (!fs::exists(marker)) {
        std::printf("generating %d demo report(s) of ~%lld events in %s ...\n", ranks, (long long)events, dir.c_str());
        std::fflush(stdout);
        fs::remove_all(dir);
        ps::core::demo::DemoOptions o;
        o.outDir = dir;
        o.ranks = ranks;
        o.eventsPerReport = events;
        ps::core::demo::DemoResult r;
        std::string error;
        const auto t0 = Clock::now();
        if (!ps::core::demo::writeDemoRun(o, r, error)) {
            std::fprintf(stderr, "demo generation failed: %s\n", error.c_str());
            std::exit(1);
        }
        std::printf("  generated %lld rows in %.1f s\n", (long long)r.totalRows, secondsSince(t0));
        std::ofstream(marker) << "ok\n";
    }
    for (auto &e : fs::recursive_directory_iterator(dir))
        if (e.path().extension() == ".sqlite")
            files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace benchdemo
