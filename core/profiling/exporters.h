#pragma once
// Exports of a composed config: the composed YAML, a minimal primary config holding only the
// user's edits, the Hydra override list, a ray job / driver line, and the migration of verl's
// old profiling schema to the new one.

#include "core/config/composer.h"
#include "core/profiling/configreader.h"
#include "core/profiling/launchoptions.h"
#include "core/profiling/profileplan.h"

#include <string>
#include <vector>

namespace ps::core::profiling {

// One moved key of verl's old schema: the override that sets the new key, and what it replaces.
struct MigrationStep
{
    std::string override; // Hydra override text, unquoted ("global_profiler.steps=[1,2,5]")
    std::string note;     // "trainer.profile_steps -> global_profiler.steps"
};

// Overrides that re-create, on verl's current ppo_trainer, what an old-schema config profiles.
std::vector<MigrationStep> migrateVerlLegacy(const VerlProfiling &p, const ConfigReader &cfg);

// The user's overrides, each shell-quoted, one per line.
std::string exportOverrides(const std::vector<std::string> &overrides);
std::string exportMigration(const std::vector<MigrationStep> &steps);

// verl: `ray job submit --runtime-env-json '{"working_dir":"."}' -- python3 -m verl.trainer.main_ppo ...`;
// RLinf: the driver line (python .../train_embodied_agent.py --config-path ... --config-name ...).
std::string exportRayJob(Framework framework, const std::vector<std::string> &driverArgv, const LaunchOptions &options);

// A primary config that composes to the same tree as `options` (with the user's overrides):
//   defaults: [<the original primary>, <group overrides as entries>, _self_]
// followed by only the values that differ from the composition without the value overrides.
// Keys deleted with ~key cannot be expressed and are listed in a leading comment. Composes
// again, so it throws config::ConfigError when the baseline does not compose.
std::string exportYamlMinimal(const config::ComposeOptions &options, const config::ComposeResult &composed);

} // namespace ps::core::profiling
