#include "views/config/recipes.h"

namespace ps::views {

const std::vector<Recipe> &builtinRecipes()
{
    static const std::vector<Recipe> k = {
        {"rlinf/profile-default", "RLinf: profile/default (Nsight, actor/rollout/env)", "rlinf",
         "RLinf's preset examples/embodiment/config/profile/default.yaml at cluster.profiling: nsight on "
         "ActorGroup, RolloutGroup, EnvGroup with -t cuda,cudnn,cublas,nvtx,osrt and CPU sampling.",
         "profile", "default", "cluster.profiling"},
        {"verl/nsys", "verl: nsys, actor+critic, steps 1,2,5 continuous", "verl",
         "global_profiler.tool=nsys, steps [1,2,5], continuous, actor and critic on all ranks (spec V1).", "verl",
         "nsys", ""},
        {"verl/npu", "verl: Ascend NPU, actor rank 0, step 2, level1", "verl",
         "global_profiler.tool=npu, steps [2], actor rank 0, contents [npu], level1, analysis, end-to-end.", "verl",
         "npu", ""},
        {"verl/torch", "verl: PyTorch profiler, actor rank 0, step 2", "verl",
         "global_profiler.tool=torch, steps [2], actor rank 0, contents [cpu, cuda] (spec V2).", "verl", "torch", ""},
        {"verl/torch_memory", "verl: torch_memory snapshots, actor rank 0, step 2", "verl",
         "global_profiler.tool=torch_memory, steps [2], actor rank 0, 100000 entries, stack depth 32.", "verl",
         "torch_memory", ""},
        // One per verl release (resources/presets/verl/<release>_*.yaml): the keys that release has.
        {"verl/legacy_nsys", "verl legacy (flat schema): nsys, actor+critic rank 0, steps 1,2", "verl",
         "trainer.profile_steps [1, 2] with the old flat schema (before #2894).", "verl", "legacy_nsys", ""},
        {"verl/v0_7_1_torch", "verl 0.7.1/0.8: PyTorch profiler, actor rank 0, step 2", "verl",
         "global_profiler.tool=torch, no step_start/step_end (removed in 0.7.1, #5121).", "verl", "v0_7_1_torch", ""},
        {"verl/v0_8_precision_debugger", "verl 0.8+: precision_debugger (msprobe), steps 1,2", "verl",
         "global_profiler.tool=precision_debugger on the actor's update and log-prob stages (#5186).", "verl",
         "v0_8_precision_debugger", ""},
        {"verl/v0_9_torch_schedule", "verl 0.9+: PyTorch profiler with a torch schedule", "verl",
         "global_profiler.tool=torch with tool_config.torch.schedule (#7099).", "verl", "v0_9_torch_schedule", ""},
        {"verl/v0_9_nsys_discrete", "verl 0.9+: nsys discrete, actor all ranks, steps 1,2,5", "verl",
         "global_profiler.tool=nsys, one capture range per annotated stage.", "verl", "v0_9_nsys_discrete", ""},
        {"verl/main_torch", "verl main: PyTorch profiler, actor rank 0, step 2", "verl",
         "global_profiler.tool=torch; verl main sets NVTX_INJECTION64_PATH for every worker.", "verl", "main_torch",
         ""},
        {"verl/main_nsys_relocate", "verl main: nsys with relocate_results and a finish hook", "verl",
         "Reports moved into save_path (relocate_results) and packed once by finish_hook_cmd (#7408).", "verl",
         "main_nsys_relocate", ""},
    };
    return k;
}

const Recipe *findRecipe(const QString &id)
{
    for (const Recipe &r : builtinRecipes())
        if (r.id == id)
            return &r;
    return nullptr;
}

std::vector<std::string> recipeOverrides(const Recipe &recipe, const core::config::ComposeResult *base)
{
    const std::string key = recipe.package.empty() ? recipe.group : recipe.group + "@" + recipe.package;
    bool present = false;
    if (base)
        for (const auto &[group, option] : base->choices)
            present = present || group == recipe.group;
    return {(present ? "" : "+") + key + "=" + recipe.option};
}

} // namespace ps::views
