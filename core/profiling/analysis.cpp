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
