#pragma once
// RLinf's torch-profiler knobs outside cluster.profiling (spec profiling-config-2026.md R2;
// RLinf a3816b59): `<role>.megatron.use_profiler` + `<role>.megatron.profiler` for the Megatron
// actor and critic (rlinf/config.py validate_megatron_cfg, megatron_model_manager.py
// init_profiler, rlinf/utils/profiler.py PyTorchProfiler) and `rollout.vllm.torch_profiler_dir`
// (vllm_worker.py). Checks carry upstream's messages; the plan lists the files they write.

#include "core/profiling/configreader.h"
#include "core/profiling/launchplan.h"
#include "core/profiling/profileplan.h"

namespace ps::core::profiling {

// Fills out.megatronProfilers and out.vllmTorchProfilerDir and appends diagnostics.
void readRLinfTorchProfilers(const ConfigReader &cfg, RLinfProfiling &out, Diagnostics &diags);

// Adds each profiled worker's outputs (the role's worker group, every rank) and the vLLM env.
// `roleGroups` maps a role ("actor", "rollout") to its worker group name ("ActorGroup").
void planRLinfTorchProfilers(const RLinfProfiling &p,
                             const std::vector<std::pair<std::string, std::string>> &roleGroups, LaunchPlan &plan);

} // namespace ps::core::profiling
