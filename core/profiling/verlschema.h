#pragma once
// verl: `global_profiler` + the per-role `profiler` blocks (B2-B4), or the old schema
// (`trainer.profile_steps`, `trainer.*_nsight_options`, role `profiler.discrete`, B7), read as
// verl reads them, with verl's own checks (exact messages) and the spec's extra checks
// ("Validation rules worth enforcing", verl 1-11).

#include "core/profiling/configreader.h"
#include "core/profiling/launchoptions.h"
#include "core/profiling/profileplan.h"

namespace ps::core::profiling {

// True when the config uses the old schema (no global_profiler, trainer.profile_steps present).
bool isVerlLegacySchema(const ConfigReader &cfg);

// What verl 0.5-0.7.0's profiler config accepts, as its validator checks it (and the GUI offers
// it): global_profiler.tool, tool_config.torch.contents, tool_config.npu.contents and .level.
// Other versions: verlVersionTraits() in verlversion.h.
const std::vector<std::string> &verlTools();
const std::vector<std::string> &verlTorchContents();
const std::vector<std::string> &verlNpuContents();
const std::vector<std::string> &verlNpuLevels();

// How to read: the verl version (nullopt = detect it from the schema, verlversion.h) and the
// launch facts some version rules compare against.
struct VerlReadOptions
{
    std::optional<VerlVersion> version;
    std::string raySessionDir = "/tmp/ray/session_latest";
};

// The typed model and every diagnostic, with the rules, messages and tools of the config's verl
// version (detected, or options.version).
void readVerlProfiling(const ConfigReader &cfg, const ClusterDescription &cluster, VerlProfiling &out,
                       Diagnostics &diags, const VerlReadOptions &options = {});

// Capture ranges one worker rank records under nsys (B6): per start/stop pair when not
// discrete, per annotated call of its profiled roles when discrete. 0 = never opens a range.
long long verlRangesForRank(const VerlProfiling &p, long long rank);
// The annotated calls (NVTX messages) per training step of the roles that profile `rank`.
std::vector<std::string> verlAnnotatedCalls(const VerlProfiling &p, long long rank);
// Number of start/stop windows the trainer opens (continuous merges consecutive steps).
long long verlWindowCount(const VerlProfiling &p);
// The steps each window covers, e.g. {{1,2},{5}}.
std::vector<std::vector<long long>> verlWindows(const VerlProfiling &p);

} // namespace ps::core::profiling
