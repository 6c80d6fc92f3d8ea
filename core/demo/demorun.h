#pragma once
// The demo run generator: writes a realistic RLinf profiling run to a folder — the Hydra config
// it stands for (a primary config whose defaults list pulls `profile/default@cluster.profiling`,
// plus that preset) and one Nsight Systems SQLite export per profiled ActorGroup worker, named as
// RLinf names them (rlinf_profile_ActorGroup_<rank>_<PID>.sqlite). Tables and columns are those
// of real `nsys export --type sqlite` files (../shared/testdata/traces/nsys), so every reader that
// handles real exports handles these. The same generator feeds the trace benchmarks at scale
// (e.g. 1 report x 10 M events, 64 reports x 200 k events), so it is built for speed: one
// transaction per file, prepared statements, no indices.
//
// Layout of `outDir` (created if missing; the config files are overwritten and earlier
// rlinf_profile_ActorGroup_*.sqlite reports in profiling/ are removed first):
//   config/<configName>.yaml              primary config (defaults: ..., profile/default@cluster.profiling)
//   config/profile/default.yaml           the RLinf preset (group `profile`, option `default`)
//   profiling/rlinf_profile_ActorGroup_<rank>_<PID>.sqlite
//
// Output is deterministic: the same options (seed included) give byte-identical row content.

#include <cstdint>
#include <string>
#include <vector>

namespace ps::core::demo {

// The largest run the generator writes: 4096 ranks, the size of the largest RL post-training runs
// users bring (issue 39).
inline constexpr int kMaxDemoRanks = 4096;

struct DemoOptions
{
    std::string outDir;
    int ranks = 4; // profiled ActorGroup workers, one report each (1..kMaxDemoRanks)
    int steps = 3; // profiled training steps per report (1..1000)
    // Approximate event rows per report (within a few %, by scaling micro-batches per
    // training_step); 0 = natural size, ~2.1 k rows per step. The floor is ~630 rows per step.
    int64_t eventsPerReport = 0;
    uint64_t seed = 1; // drives PIDs, durations, UTC skews and the straggler rank
    int firstStep = 2; // global_step (0-based, RLinf A8) of the first profiled step
};

struct DemoReport
{
    std::string path;       // absolute path of the .sqlite export
    int rank = 0;           // ActorGroup rank
    int64_t pid = 0;        // process id, also in the file name and in globalPid/globalTid
    int64_t utcEpochNs = 0; // TARGET_INFO_SESSION_START_TIME.utcEpochNs (per-report skew)
    int64_t rowCount = 0;   // rows written into event tables (kernels, copies, runtime, NVTX)
};

struct DemoResult
{
    std::string outDir;              // absolute
    std::string configDir;           // absolute; pass as `compose --config-dir`
    std::string configName;          // pass as `compose --config-name`
    std::string configPath;          // the primary config file
    std::string presetPath;          // config/profile/default.yaml
    std::string reportDir;           // where the exports are (cluster.profiling.output_dir)
    std::vector<int> profiledSteps;  // global_step values, as in cluster.profiling.steps
    int stragglerRank = -1;          // the rank that computes slowest and makes the others wait
    std::vector<DemoReport> reports; // by rank
    int64_t totalRows = 0;
};

// Checks options; an empty string when they are usable, else a one-line reason.
std::string validateDemoOptions(const DemoOptions &options);

// Writes the whole run. Returns true and fills `result`, or false with a one-line `error`
// ("cannot create /x: Permission denied", "ranks must be between 1 and 4096").
bool writeDemoRun(const DemoOptions &options, DemoResult &result, std::string &error);

} // namespace ps::core::demo
