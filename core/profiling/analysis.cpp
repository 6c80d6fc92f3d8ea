#include "core/profiling/analysis.h"

#include "core/profiling/collectscript.h"
#include "core/profiling/raydigestjob.h"

#include "core/config/interpolation.h"
#include "core/config/yamlemitter.h"
#include "core/profiling/configreader.h"
#include "core/profiling/rlinflaunch.h"
#include "core/profiling/rlinfschema.h"
#include "core/profiling/verllaunch.h"
#include "core/profiling/verlschema.h"

#include <algorithm>

namespace ps::core::profiling {

using config::Node;

Framework detectFramework(const Node &config)
{
    if (!config.isDict())
        return Framework::Unknown;
    const Node *trainer = config.find("trainer");
    if (config.find("global_profiler") || config.find("actor_rollout_ref") ||
        (trainer && trainer->isDict() && (trainer->find("profile_steps") || trainer->find("worker_nsight_options"))))
        return Framework::Verl;
    if (const Node *cluster = config.find("cluster"); cluster && cluster->isDict())
        return Framework::RLinf;
    return Framework::Unknown;
}

namespace {

// A config that profiles no worker says so, and why (#38: "No problems found" for one was a
// silent failure): the workers' own reasons, else the plan's notes, else that profiling is off.
void warnWhenNothingIsProfiled(const ConfigReader &cfg, AnalysisResult &result)
{
    const Framework framework = result.model.framework;
    // Only where nothing else was said: an error or a warning already names what is wrong, and a
    // config without any finding read "No problems found".
    if (framework == Framework::Unknown || !result.diagnostics.empty())
        return;
    std::vector<std::string> why;
    for (const WorkerLaunch &w : result.launch.workers) {
        if (w.wrapped || !w.outputs.empty())
            return;
        if (!w.reason.empty() && std::find(why.begin(), why.end(), w.reason) == why.end())
            why.push_back(w.reason);
    }
    if (why.empty())
        why = result.launch.notes;
    std::string message = "this configuration profiles no worker: no process runs under a profiler and none writes "
                          "a report";
    for (size_t i = 0; i < why.size() && i < 3; ++i)
        message += (i == 0 ? " (" : "; ") + why[i];
    message += why.empty() ? "; profiling is not enabled" : ")";
    if (framework == Framework::Verl)
        cfg.report(result.diagnostics, "verl.nothing-profiled", message,
                   cfg.has("global_profiler") ? "global_profiler" : "trainer");
    else
        cfg.report(result.diagnostics, "rlinf.nothing-profiled", message,
                   cfg.has("cluster.profiling") ? "cluster.profiling" : "cluster");
}

} // namespace

std::shared_ptr<const AnalysisResult> analyze(const AnalysisInput &input)
{
    auto result = std::make_shared<AnalysisResult>();
    if (!input.composed)
        return result;
    const config::ComposeResult &composed = *input.composed;
    std::vector<config::ConfigError> problems;
    const Node resolved = config::resolveAll(composed.config, &problems, input.compose.env);
    for (const auto &p : problems)
        result->resolveProblems.push_back(p.format());
    const ConfigReader cfg(composed.config, resolved, &composed.provenance);

    result->model.framework = detectFramework(composed.config);
    std::vector<std::string> overrides = input.compose.overrides;
    switch (result->model.framework) {
    case Framework::RLinf: {
        const RLinfTopology topology = readRLinfTopology(cfg, input.cluster, result->diagnostics);
        readRLinfProfiling(cfg, topology, input.launch, result->model.rlinf, result->diagnostics);
        result->launch = buildRLinfLaunchPlan(result->model.rlinf, topology, input.cluster, input.launch,
                                              input.compose.configName, overrides, cfg, result->diagnostics);
        break;
    }
    case Framework::Verl:
        readVerlProfiling(cfg, input.cluster, result->model.verl, result->diagnostics,
                          VerlReadOptions{input.verlVersion, input.launch.raySessionDir});
        result->launch = buildVerlLaunchPlan(result->model.verl, input.launch, input.compose.configName, overrides);
        break;
    case Framework::Unknown:
        result->launch.notes.push_back("neither an RLinf (cluster:) nor a verl (global_profiler:, trainer:) config");
        break;
    }

    warnWhenNothingIsProfiled(cfg, *result);
    if (input.withExports) {
        Exports &e = result->exports;
        e.yaml = config::toYaml(composed.config);
        e.overrides = exportOverrides(input.compose.overrides);
        e.rayJob = exportRayJob(result->model.framework, result->launch.driverArgv, input.launch);
        if (result->model.framework == Framework::Verl)
            e.migration = migrateVerlLegacy(result->model.verl, cfg);
        e.collect = exportCollectScript(result->launch, input.compose.configName);
        e.rayDigest = exportRayDigestJob(result->launch, input.compose.configName);
        if (input.withYamlMinimal) {
            try {
                e.yamlMinimal = exportYamlMinimal(input.compose, composed);
            } catch (const config::ConfigError &err) {
                e.yamlMinimalError = err.format();
            }
        }
    }
    return result;
}

} // namespace ps::core::profiling
