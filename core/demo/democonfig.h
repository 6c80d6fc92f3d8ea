#pragma once
// The Hydra config a demo run stands for: an RLinf-style primary config whose defaults list
// pulls the profiling preset into cluster.profiling (profiling-config.md A1), and the preset
// itself as config/profile/default.yaml, like examples/embodiment/config/profile/default.yaml.

#include <string>
#include <vector>

namespace ps::core::demo {

struct DemoConfigText
{
    std::string primary; // <configName>.yaml
    std::string preset;  // profile/default.yaml
};

constexpr const char *kDemoConfigName = "maniskill_ppo_demo";

// `steps` are the profiled global_step values; `reportDir` becomes cluster.profiling.output_dir.
DemoConfigText demoConfigText(int ranks, const std::vector<int> &steps, const std::string &reportDir);

} // namespace ps::core::demo
