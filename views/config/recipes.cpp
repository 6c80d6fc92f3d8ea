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
