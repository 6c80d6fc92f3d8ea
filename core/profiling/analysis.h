#pragma once
// The one entry point of core/profiling: a pure function from a composed config (with its
// provenance), a cluster description and launch options to an immutable result holding the
// typed model, the diagnostics, the launch plan and the exports. It touches no global state
// and no GUI, so the Configure workspace can run it on a worker thread and hand the shared,
// const result to the GUI thread.
//
//   AnalysisInput in;
//   in.compose = {.configDirs = {dir}, .configName = "ppo_trainer", .overrides = {...}};
//   in.composed = std::make_shared<const config::ComposeResult>(config::compose(in.compose));
//   std::shared_ptr<const AnalysisResult> r = analyze(in);

#include "core/config/composer.h"
#include "core/profiling/diagnostic.h"
#include "core/profiling/exporters.h"
#include "core/profiling/launchoptions.h"
#include "core/profiling/launchplan.h"
#include "core/profiling/profileplan.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ps::core::profiling {

struct AnalysisInput
{
    config::ComposeOptions compose; // what was composed: config name and overrides feed the exports
    std::shared_ptr<const config::ComposeResult> composed; // required
    ClusterDescription cluster;
    LaunchOptions launch;
    // verl: the version whose rules apply; nullopt = detected from the config (verlversion.h).
    std::optional<VerlVersion> verlVersion;
    // Exports other than yaml-minimal are cheap; yaml-minimal composes the baseline again.
    bool withExports = true;
    bool withYamlMinimal = false;
};

struct Exports
{
    std::string yaml;        // composed, interpolations kept (Hydra's --cfg job)
    std::string yamlMinimal; // empty unless requested; see yamlMinimalError
    std::string yamlMinimalError;
    std::string overrides;                // one shell-quoted override per line
    std::string rayJob;                   // verl: ray job submit ...; RLinf: the driver line
    std::vector<MigrationStep> migration; // verl old schema -> new; empty otherwise
    std::string collect;                  // bash script gathering the reports from the nodes
    std::string rayDigest;                // Python Ray job digesting the reports on the nodes
};

struct AnalysisResult
{
    ProfilePlan model;
    Diagnostics diagnostics;
    LaunchPlan launch;
    Exports exports;
    // Values the resolver could not resolve (left as written); not profiling diagnostics.
    std::vector<std::string> resolveProblems;
};

Framework detectFramework(const config::Node &config);

std::shared_ptr<const AnalysisResult> analyze(const AnalysisInput &input);

} // namespace ps::core::profiling
