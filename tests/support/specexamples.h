#pragma once
// The worked examples of ../shared/spec/profiling-config.md (R2, R3, V1) as the profiling tests
// and the Configure GUI tests both check them: the inputs, the exact commands the frameworks
// render, and a lookup of one worker of a launch plan.

#include "core/profiling/launchplan.h"

#include <string>
#include <vector>

namespace pstest::spec {

// R2: the profile preset, ActorGroup only, steps [3], with run_embodiment.sh's log path.
inline const std::string kLogPath = "/opt/RLinf/logs/20260801-10:00:00-maniskill_ppo_mlp";
inline const std::string kOutDir = kLogPath + "/maniskill_ppo_mlp/profiling";
inline const std::string kPreset = "-t cuda,cudnn,cublas,nvtx,osrt --sample=process-tree --cpuctxsw=process-tree "
                                   "--cudabacktrace=all --osrt-threshold=1000";
inline const std::string kR2 = "nsys profile " + kPreset +
                               " --capture-range=cudaProfilerApi --capture-range-end=stop -o " + kOutDir +
                               "/rlinf_profile_ActorGroup_0_%p /usr/bin/python3";
// R3: python-backtrace with the stop-on-range-end alias, RolloutGroup rank 1.
inline const std::string kR3 = "nsys profile --python-backtrace -t cuda,nvtx --capture-range=nvtx "
                               "--capture-range-end=stop -o /runs/x/profiling/rlinf_profile_RolloutGroup_1_%p "
                               "/usr/bin/python3";
// V1: verl nsys, steps [1,2,5] continuous, actor and critic on all ranks.
inline const std::vector<std::string> kV1Overrides = {"global_profiler.tool=nsys",
                                                      "global_profiler.steps=[1,2,5]",
                                                      "global_profiler.profile_continuous_steps=True",
                                                      "global_profiler.global_tool_config.nsys.discrete=False",
                                                      "actor_rollout_ref.actor.profiler.enable=True",
                                                      "actor_rollout_ref.actor.profiler.all_ranks=True",
                                                      "critic.profiler.enable=True",
                                                      "critic.profiler.all_ranks=True"};
inline const std::string kV1Controller = "nsys profile --trace=cuda,nvtx,cublas,ucx --cuda-memory-usage=true "
                                         "--cuda-graph-trace=graph -o "
                                         "/tmp/ray/session_<id>/logs/nsight/'worker_process_%p' python";
inline const std::string kV1Worker = "nsys profile --trace=cuda,nvtx,cublas,ucx --cuda-memory-usage=true "
                                     "--cuda-graph-trace=graph --capture-range=cudaProfilerApi "
                                     "--capture-range-end=repeat-shutdown:18 --kill=none -o "
                                     "/tmp/ray/session_<id>/logs/nsight/'worker_process_%p' python";

// The worker of a plan with this Ray name ("ActorGroup:0", "global_pool:3"), or nullptr.
inline const ps::core::profiling::WorkerLaunch *worker(const ps::core::profiling::LaunchPlan &plan,
                                                       const std::string &name)
{
    for (const auto &w : plan.workers)
        if (w.name == name)
            return &w;
    return nullptr;
}

} // namespace pstest::spec
