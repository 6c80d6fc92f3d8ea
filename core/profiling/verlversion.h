#pragma once
// Which verl a config tree comes from, and what that version's profiler accepts.
//
// verl changed its profiling schema, tools, stage labels and output names between releases
// (../shared/spec/profiling-config-2026.md V2-V10). The version is read from the composed
// config's schema: the keys each release added or removed (detectVerlVersion), so a flattened
// `_generated_*.yaml`, a composed tree and a user's own primary config all work. The CLI's
// --verl-version and the Configure workspace's version picker override it (parseVerlVersion).
//
// For the Configure workspace (views/config): verlVersionTraits(v) lists the tools, torch
// contents, role keys and stage labels of version v, so panels offer only what that verl has:
//
//   const VerlVersionDetection d = detectVerlVersion(composed.config);
//   const VerlVersionTraits &t = verlVersionTraits(d.version);
//   for (const std::string &tool : t.tools) ...        // global_profiler.tool choices
//   if (t.torchSchedule) ...                           // show the torch schedule panel

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::config {
class Node;
}

namespace ps::core::profiling {

// Ordered oldest to newest; comparisons (>=) mean "this release or later".
enum class VerlVersion {
    Legacy, // flat schema: trainer.profile_steps, trainer.*_nsight_options (before #2894)
    V0_5,   // 0.5 - 0.7.0: global_profiler + per-role profiler blocks, reward_model.profiler
    V0_7_1, // reward refactor (#5255): no reward_model.profiler; torch step_start/step_end gone
    V0_8,   // precision_debugger tool (#5186); legacy fsdp/megatron workers deleted (#6067)
    V0_9,   // torch schedule (#7099), profile_token_* (#5760), flat torch trace names, V1 trainer
    Main,   // 1dda039b: relocate_results, finish_hook_*, "train" scope, py_executable (#7408, #7127)
};

// "legacy", "0.5-0.7.0", "0.7.1", "0.8", "0.9", "main".
const char *verlVersionName(VerlVersion version);
// Accepts the names above and release spellings: "v0.9.0", "0.9.0", "0.6", "0.7.0", "main".
std::optional<VerlVersion> parseVerlVersion(std::string_view text);
// "legacy, 0.5-0.7.0, 0.7.1, 0.8, 0.9, main": for help texts and errors.
std::string supportedVerlVersions();

struct VerlVersionDetection
{
    VerlVersion version = VerlVersion::V0_5;
    bool detected = false;        // false: no profiling keys at all, version assumed
    std::vector<std::string> why; // the keys that decided, e.g. "global_profiler.relocate_results present"
    bool overridden = false;      // set by the caller when --verl-version replaced the detection
};

// Reads the composed (unresolved or resolved) tree.
VerlVersionDetection detectVerlVersion(const config::Node &config);

struct VerlVersionTraits
{
    VerlVersion version;
    std::vector<std::string> tools;                   // global_profiler.tool values
    std::vector<std::string> torchContents;           // TorchProfilerToolConfig.contents allowed set
    std::vector<std::string> roleKeys;                // ProfilerConfig fields (a role's profiler block)
    std::vector<std::string> torchKeys;               // TorchProfilerToolConfig fields
    bool rewardModelProfiler;                         // reward_model.profiler exists
    bool torchSchedule;                               // tool_config.torch.schedule
    bool profileTokens;                               // profile_token_start/_end (torch, npu, rollout)
    bool relocateAndFinishHook;                       // relocate_results, finish_hook_*
    bool nvtxInjectionForTorch;                       // NVTX_INJECTION64_PATH set for tool: torch
    bool rayInitRuntimeEnv;                           // ray_kwargs.ray_init.runtime_env.py_executable
    bool engineWorkers;                               // V1 engine_workers stage labels (actor_update, ...)
    bool stageLabelIsNvtxMessage;                     // nsys range names are the stage labels, not methods
    std::string wholeStepScope;                       // "e2e" or "train": the worker window's role
    std::vector<std::string> precisionDebuggerStages; // empty: no precision_debugger
};

const VerlVersionTraits &verlVersionTraits(VerlVersion version);

} // namespace ps::core::profiling
