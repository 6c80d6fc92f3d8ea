#pragma once
// The background work of one recomposition: compose base + overrides, analyse, and derive what
// the panes show (YAML key map, diff against the preset, group options). A plain function of
// its inputs, so it runs on any thread and the benchmark can time it alone.

#include "core/configedit/sessionresult.h"

namespace ps::core::configedit {

struct SessionJob
{
    core::config::ComposeOptions base;  // overrides = the preset's only
    std::vector<std::string> overrides; // the preset's + the user's edits, in order
    core::profiling::ClusterDescription cluster;
    core::profiling::LaunchOptions launch;
    // verl: the release whose rules apply (the Configure header's version picker, as the CLI's
    // --verl-version); nullopt = detected from the config.
    std::optional<core::profiling::VerlVersion> verlVersion;
    // Reused when the base did not change since the last job (composing the preset again would
    // double the cost of every edit).
    std::shared_ptr<const core::config::ComposeResult> cachedBaseline;
    std::string cachedBaselineYaml;
    std::string baselineKey; // baselineKey(base), carried into the result
};

SessionResultPtr runSessionJob(const SessionJob &job);

// The key under which a baseline composition can be reused: dirs, name and preset overrides.
std::string baselineKey(const core::config::ComposeOptions &base);

} // namespace ps::core::configedit
