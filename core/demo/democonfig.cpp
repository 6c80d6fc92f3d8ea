#include "core/demo/democonfig.h"

#include "core/demo/runplan.h"

namespace ps::core::demo {

namespace {

// YAML double-quoted scalar: the report directory may hold any character.
std::string quoted(const std::string &s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

// The RLinf preset at HEAD, verbatim in content (profiling-config.md A1).
std::string presetText()
{
    return "backend: nsight\n"
           "enabled: true\n"
           "worker_groups: [ActorGroup, RolloutGroup, EnvGroup]\n"
           "options:\n"
           "  t: cuda,cudnn,cublas,nvtx,osrt\n"
           "  sample: process-tree\n"
           "  cpuctxsw: process-tree\n"
           "  cudabacktrace: all\n"
           "  osrt-threshold: 1000\n"
           "flags: []\n";
}

// The RLinf main config's sections after cluster: runner, algorithm and the worker groups.
std::string trainingSections()
{
    return "runner:\n"
           "  task_type: embodied\n"
           "  logger:\n"
           "    log_path: \"../results\"\n"
           "    project_name: rlinf\n"
           "    experiment_name: \"maniskill_ppo_demo\"\n"
           "    logger_backends: [\"tensorboard\"]\n"
           "  max_epochs: 1000\n"
           "  max_steps: -1\n"
           "\n"
           "algorithm:\n"
           "  update_epoch: " +
           std::to_string(RunPlan::kTrainingStepsPerRun) +
           "\n"
           "  adv_type: gae\n"
           "  loss_type: actor_critic\n"
           "  gamma: 0.8\n"
           "  gae_lambda: 0.9\n"
           "\n"
           "env:\n"
           "  group_name: \"EnvGroup\"\n"
           "\n"
           "rollout:\n"
           "  group_name: \"RolloutGroup\"\n"
           "  backend: \"huggingface\"\n"
           "\n"
           "actor:\n"
           "  group_name: \"ActorGroup\"\n"
           "  training_backend: \"fsdp\"\n"
           "  micro_batch_size: 256\n"
           "  global_batch_size: 1024\n"
           "  seed: 1234\n";
}

} // namespace

DemoConfigText demoConfigText(int ranks, const std::vector<int> &steps, const std::string &reportDir)
{
    DemoConfigText text;
    text.preset = presetText();

    std::string stepList;
    for (size_t i = 0; i < steps.size(); ++i)
        stepList += (i ? ", " : "") + std::to_string(steps[i]);
    const int hosts = (ranks + RunPlan::kGpusPerHost - 1) / RunPlan::kGpusPerHost;
    const int lastRank = ranks - 1;

    std::string &p = text.primary;
    p = "# ProfStudio demo run: the RLinf config that produced the exports in output_dir.\n"
        "# Like RLinf's own main configs it has no _self_: the keys below are merged after the\n"
        "# defaults, so cluster.profiling here overrides the profile/default preset.\n"
        "defaults:\n"
        "  - profile/default@cluster.profiling\n"
        "\n"
        "hydra:\n"
        "  run:\n"
        "    dir: .\n"
        "  output_subdir: null\n"
        "\n"
        "cluster:\n"
        "  num_nodes: " +
        std::to_string(hosts) +
        "\n"
        "  component_placement:\n"
        "    actor: 0-" +
        std::to_string(lastRank) +
        "\n"
        "  profiling:\n"
        "    worker_groups: [ActorGroup]\n"
        "    steps: [" +
        stepList + "]\n";
    if (steps.size() > 1) {
        // With the injected capture-range-end=stop nsys would stop after the first step
        // (A8); `none` keeps capturing, so one report per worker covers every listed step.
        p += "    options:\n"
             "      capture-range-end: none\n";
    }
    p += "    output_dir: " + quoted(reportDir) + "\n\n" + trainingSections();
    return text;
}

} // namespace ps::core::demo
