#pragma once
// The typed model of a profiling config: what RLinf's `cluster.profiling` (or the legacy
// `cluster.nsight`), verl's `global_profiler` + per-role `profiler` blocks, or verl's old
// `trainer.profile_steps` schema mean once the framework's own normalisation has run
// (../shared/spec/profiling-config.md A2-A5, B2-B7). Plain values; built by readRLinf() /
// readVerl() (rlinfschema.h, verlschema.h).

#include "core/profiling/verlversion.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ps::core::profiling {

enum class Framework { Unknown, RLinf, Verl };
const char *frameworkName(Framework framework); // "rlinf", "verl", "unknown"

// Ordered name -> value pairs, as a Python dict keeps them.
using OptionList = std::vector<std::pair<std::string, std::string>>;
const std::string *findOption(const OptionList &options, const std::string &name);

// The legacy block of RL@8054ca5 (`- nsight/default@cluster.nsight`): read so the plan can say
// what it asked for; RLinf today drops it without error (unknown cluster keys are ignored).
struct RLinfLegacyNsight
{
    bool enabled = true;
    std::vector<std::string> workerGroups;
    OptionList options; // str()-ed, bools lowercased
    std::vector<std::string> flags;
    std::string outputDir; // RL@8054ca5: <log_path>/<experiment_name>/nsights
};

// `cluster.tracer` (RLinf e7609d4c9): a Tracer manager actor on node rank 0 appends every
// worker's and the driver's timer sections to one Chrome-trace JSONL file.
struct RLinfTracer
{
    bool present = false;   // a cluster.tracer block exists
    bool enable = false;    // bool(enable), as validate_cfg sets it
    std::string outputFile; // as configured, or derived (not abspath'd)
    bool outputFileDerived = false;
};

// `<role>.megatron.use_profiler` + `<role>.megatron.profiler` (rlinf/utils/profiler.py
// PyTorchProfiler), after validate_cfg's defaults (schedule_warmup 3, schedule_active 1).
struct RLinfMegatronProfiler
{
    std::string role;      // "actor", "critic"
    std::string path;      // "actor.megatron.profiler"
    std::string outputDir; // str(output_dir), "" when unset
    bool exportTensorboard = false;
    bool exportChromeTrace = false;
    long long scheduleWarmup = 3;
    long long scheduleActive = 1;
    long long scheduleRepeat = 0;
};

struct RLinfProfiling
{
    bool present = false;                        // cluster.profiling exists (and is a mapping)
    bool legacyNsight = false;                   // a cluster.nsight block exists (ignored by RLinf)
    RLinfLegacyNsight legacy;                    // its content, when legacyNsight
    std::string backend;                         // "nsight" | "rocprof_sys" | other (invalid)
    bool enabled = true;                         // upstream truthiness of `enabled`
    std::vector<std::string> workerGroups;       // str()-ed entries; empty = nothing profiled
    std::optional<std::vector<long long>> steps; // int()-ed, 0-based global steps; nullopt = every step
    std::string outputDir;                       // as configured or derived (A6); empty = temp dir fallback
    bool outputDirDerived = false;
    // nsight, normalised as NsightConfig.__post_init__ does: bools lowercased, alias converted,
    // capture-range/-end injected when steps is set. The default -o is added at launch.
    std::vector<std::string> flags;
    OptionList options;
    // rocprof_sys: str()-ed args and env.
    OptionList args;
    OptionList env;
    // Outside cluster.profiling: the tracer (R1) and the torch-profiler knobs (R2).
    RLinfTracer tracer;
    std::vector<RLinfMegatronProfiler> megatronProfilers; // roles with use_profiler true
    std::string vllmTorchProfilerDir;                     // rollout.vllm.torch_profiler_dir; "" = unset
    // Derived from the run config (not cluster.profiling): logger path and experiment name.
    std::string logPath;
    std::string experimentName;
};

// One role's `profiler` block (new schema) or the old per-role block (legacy schema).
struct VerlRoleProfiler
{
    std::string role; // "actor", "rollout", "ref", "critic", "reward_model"
    std::string path; // "actor_rollout_ref.actor.profiler"
    bool present = false;
    std::optional<std::string> tool; // resolved; nullopt = null
    bool enable = false;
    bool allRanks = false;
    std::vector<long long> ranks;
    std::string savePath;
    bool nsysDiscrete = false;
    bool npuDiscrete = false;
    bool torchDiscrete = false;
    std::vector<std::string> torchContents;
    std::vector<std::string> npuContents;
    std::string npuLevel = "level0";
    bool npuAnalysis = true;
    // verl 0.9+: torch.profiler.schedule over update mini-batches (enabled iff active > 0).
    struct TorchSchedule
    {
        long long skipFirst = 0, wait = 0, warmup = 0, active = 0, repeat = 0;
    } torchSchedule;
    // verl 0.8+: precision_debugger stages (null = every stage the role runs).
    std::optional<std::vector<std::string>> precisionStages;

    // DistProfiler's rank rule (B4): all_ranks; else ranks; else rank 0 iff enable. The old
    // schema (legacy=true) has no rank-0 default.
    bool profilesRank(long long rank, bool legacy) const;
    // Discrete mode of the selected tool.
    bool discreteFor(const std::string &tool) const;
};

struct VerlProfiling
{
    VerlVersion version = VerlVersion::V0_5; // detected or --verl-version (verlversion.h)
    VerlVersionDetection detection;
    bool legacy = false;                         // old schema (trainer.profile_steps ...)
    std::optional<std::string> tool;             // global_profiler.tool (legacy: "nsys" when steps set)
    std::optional<std::vector<long long>> steps; // 1-based; nullopt = null
    bool continuous = false;                     // profile_continuous_steps
    std::string savePath = "outputs/profile";
    bool nsysDiscrete = false;                   // global_tool_config.nsys.discrete
    std::optional<OptionList> controllerOptions; // nullopt = null/absent
    std::optional<OptionList> workerOptions;     // capture-range-end default applied at launch
    bool workerCaptureRangeEndNull = false;      // capture-range-end: null (verl fills it)
    std::vector<VerlRoleProfiler> roles;
    std::string device = "cuda";
    long long nnodes = 1;
    long long gpusPerNode = 8;
    bool refUsed = false;
    bool criticUsed = false;
    bool rewardModelUsed = false;        // a separate rm worker group that receives start/stop
    bool agentLoop = false;              // rollout.mode == async
    std::string rolloutEngine;           // actor_rollout_ref.rollout.name: vllm, sglang, trtllm, ...
    long long rolloutGpusPerReplica = 1; // rollout tp * dp * pp (main: global rank -> replica)
    bool megatron = false;               // actor strategy megatron: torch names carry tp/pp/dp/cp
    // Megatron model-parallel sizes of the process group that writes a role's traces (actor and
    // ref share the actor's engine, the critic has its own); 0 = not an integer in the config.
    struct MegatronSizes
    {
        long long tp = 1, pp = 1, cp = 1;
    };
    MegatronSizes actorMegatron, criticMegatron;
    long long updateMiniBatches = 0; // per step: train_batch_size / ppo_mini_batch_size * ppo_epochs (0 = unknown)
    bool fullyAsync = false;         // fully-async trainer: steps count parameter versions
    // verl main: reports relocated into save_path, and a shell command after the last step.
    bool relocateResults = false;
    std::optional<std::string> finishHookCmd;
    bool finishHookAllRanks = false;
    std::vector<long long> finishHookRanks;
    std::string pyExecutable; // ray_kwargs.ray_init.runtime_env.py_executable (main)

    const VerlRoleProfiler *role(const std::string &name) const;
};

struct ProfilePlan
{
    Framework framework = Framework::Unknown;
    RLinfProfiling rlinf;
    VerlProfiling verl;
    // "nsight", "rocprof_sys" (RLinf); "nsys", "npu", "torch", "torch_memory" (verl); "" = none.
    std::string backend() const;
};

} // namespace ps::core::profiling
