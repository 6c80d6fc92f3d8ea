#pragma once
// One immutable snapshot of a Configure session: what was composed (base + overrides), the
// engine's results for it, and what the panes derive from them. Built on a worker thread
// (sessionjob.h) and handed to the GUI thread as a shared const object; panes only read it.

#include "core/config/composer.h"
#include "core/configedit/linediff.h"
#include "core/configedit/yamlkeymap.h"
#include "core/profiling/analysis.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ps::core::configedit {

struct SessionResult
{
    core::config::ComposeOptions compose; // base + overrides, as composed

    // Null when the config does not compose; `error` then holds ConfigError::format().
    std::shared_ptr<const core::config::ComposeResult> composed;
    std::string error;
    std::string errorKey;
    // The preset composition (base without the user's edits): the diff and the edit rules'
    // "back to the preset" test. Null when the preset itself does not compose.
    std::shared_ptr<const core::config::ComposeResult> baseline;
    std::string baselineYaml;
    std::string baselineKey; // which base the baseline belongs to (sessionjob.h baselineKey)

    std::shared_ptr<const core::profiling::AnalysisResult> analysis; // null when not composed
    std::string yaml;           // exports.yaml: the composed config as Hydra prints it
    YamlKeyMap yamlKeys;        // line <-> key of `yaml`
    std::vector<DiffLine> diff; // baselineYaml -> yaml
    // Options of every config group in the defaults tree, from the search path.
    std::map<std::string, std::vector<std::string>> groupOptions;
    double elapsedMs = 0; // compose + analyse + derive, on the worker
};

using SessionResultPtr = std::shared_ptr<const SessionResult>;

} // namespace ps::core::configedit
