#pragma once
// verl launch plans: the TaskRunner (controller) and every worker process of the global
// resource pool, wrapped by Ray's nsight runtime_env (B5) when the tool is nsys, with the
// outputs of the in-process profilers (torch, torch_memory, npu) otherwise.

#include "core/profiling/launchoptions.h"
#include "core/profiling/launchplan.h"

#include <string>
#include <vector>

namespace ps::core::profiling {

// Ray's rendering of a runtime_env "nsight" dict (Ray nsight.py): the argv bash gets back from
// the command, and the command as Ray joins it (no quoting; the default output name carries
// literal single quotes).
struct RayNsightCommand
{
    std::vector<std::string> argv;
    std::string command;
};
RayNsightCommand rayNsightCommand(const OptionList &options, const std::string &raySessionDir);

// The worker options verl passes to Ray: capture-range-end null becomes repeat-shutdown:6*len(steps).
OptionList verlWorkerNsightOptions(const VerlProfiling &p);

LaunchPlan buildVerlLaunchPlan(const VerlProfiling &p, const LaunchOptions &options, const std::string &configName,
                               const std::vector<std::string> &overrides);

} // namespace ps::core::profiling
