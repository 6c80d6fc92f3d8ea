#include "core/configedit/launchscript.h"

#include <algorithm>

namespace ps::core::configedit {

namespace {
// A message as one comment line: multi-line messages (option lists) would end the comment.
std::string oneLine(std::string s)
{
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s;
}
} // namespace

std::string launchScript(const core::profiling::AnalysisResult &a, const std::string &configLabel)
{
    std::string s = "#!/usr/bin/env bash\n"
                    "# Profiled launch of " +
                    configLabel + ", written by ProfStudio.\n";
    s += std::string("# Framework: ") + core::profiling::frameworkName(a.model.framework) +
         ", profiler: " + (a.launch.backend.empty() ? std::string("none") : a.launch.backend) + "\n";
    for (const auto &[node, dir] : a.launch.collect)
        s += "# Reports: node " + std::to_string(node) + ": " + dir + "\n";
    for (const auto &d : a.diagnostics)
        if (d.severity != core::profiling::Severity::Info)
            s += "# " + std::string(core::profiling::severityName(d.severity)) + ": " + oneLine(d.message) + " [" +
                 d.rule + "]\n";
    s += "set -euo pipefail\n\n";
    s += a.exports.rayJob;
    if (s.back() != '\n')
        s += '\n';
    return s;
}

} // namespace ps::core::configedit
