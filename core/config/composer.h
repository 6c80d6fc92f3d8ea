#pragma once
// Hydra 1.3 compatible composition (what `python app.py --cfg job` prints), with provenance.
//
//   ComposeOptions opts;
//   opts.configDirs = {"/path/to/verl/trainer/config"};
//   opts.configName = "ppo_trainer";
//   opts.overrides = {"global_profiler.tool=nsys", "+cluster.profiling.steps=[3]"};
//   ComposeResult r = compose(opts);          // throws ConfigError
//   std::string yaml = toYaml(r.config);       // byte-identical to Hydra's --cfg job
//
// Search path: configDirs in order, then the primary config's hydra.searchpath entries
// (file://..., pkg://a.b found where Python would import it (pythonpackage.h); ${oc.env:X}
// expanded), then the built-in presets. The `hydra:` node and hydra/*
// groups are accepted and left out of the output, as --cfg job does.

#include "core/config/configerror.h"
#include "core/config/envlookup.h"
#include "core/config/node.h"
#include "core/config/provenance.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ps::core::config {

struct ComposeOptions
{
    std::vector<std::string> configDirs;  // config roots, searched in order
    bool builtinPresets = true;           // append the built-in presets as the last root
    std::string configName;               // the primary config, with or without ".yaml"
    std::vector<std::string> overrides;   // Hydra override syntax, one per element
    EnvLookup env = processEnvironment(); // for hydra.searchpath and oc.env
    // Reuse parsed files across compositions in this process while their size and modification
    // time are unchanged (the GUI recomposes on every edit; parsing dominates the cost).
    bool reuseParsedFiles = true;
    // Record where every value came from (ComposeResult::provenance, for explain, validate's
    // locations and the GUI). `compose`, which only prints the tree, turns it off: on verl's
    // trainer it is a fifth of the work.
    bool recordProvenance = true;
    // Called with each warning as it arises, so that the warnings of a composition that then
    // fails are still shown (ComposeResult::warnings has them too when it succeeds).
    std::function<void(const std::string &)> onWarning;
};

// A pkg://PACKAGE search-path entry found as Python imports it: its folder DIR, under the path
// entry ENTRY that came from VIA ("PYTHONPATH", "python3's site-packages", ...).
struct SearchPathNote
{
    std::string package, dir, entry, via;
};

struct ComposeResult
{
    Node config;                       // composed tree, interpolations kept, no `hydra:` node
    std::vector<ConfigSource> sources; // every config file merged, in merge order
    Provenance provenance;             // per key path: the chain of steps that set it
    // Hydra's runtime.choices: group path -> chosen option, in defaults order (hydra/* excluded).
    std::vector<std::pair<std::string, std::string>> choices;
    std::vector<std::string> searchPath; // the roots used, in order ("<builtin>" last)
    std::vector<std::string> warnings;   // non-fatal notes, e.g. "In 'config': Defaults list is missing `_self_`"
    // The config search path as Hydra lists it ("provider=main, path=file:///x/conf").
    std::vector<std::string> hydraSearchPath;
    // How each pkg:// search-path entry was found.
    std::vector<SearchPathNote> searchPathNotes;
};

// Throws ConfigError on the first problem: malformed YAML, duplicate keys, unknown group option
// (listing the available ones), defaults cycle, `_self_` twice, missing primary config,
// override of a missing key, malformed override, unset env var in hydra.searchpath.
ComposeResult compose(const ComposeOptions &options);

// The text of provenance for one key, as `profstudio-cli explain` prints it: one line per step,
// "file:line:col  (from defaults entry 'x' in file:line)" or "override 'a.b=1'", last one winning.
std::string explainKey(const ComposeResult &result, const std::string &keyPath);

} // namespace ps::core::config
