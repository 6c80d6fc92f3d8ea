#include "core/configedit/launchscript.h"

#include "core/common/shellquote.h"

namespace ps::core::configedit {

std::string launchScript(const core::profiling::AnalysisResult &a, const std::string &configLabel)
{
    std::string s = "#!/usr/bin/env bash\n"
                    "# Profiled launch of " +
                    commentText(configLabel) + ", written by ProfStudio.\n";
    s += std::string("# Framework: ") + core::profiling::frameworkName(a.model.framework) +
         ", profiler: " + (a.launch.backend.empty() ? std::string("none") : a.launch.backend) + "\n";
    for (const auto &[node, dir] : a.launch.collect)
        s += "# Reports: node " + std::to_string(node) + ": " + commentText(dir) + "\n";
    for (const auto &d : a.diagnostics)
        if (d.severity != core::profiling::Severity::Info)
            s += "# " + std::string(core::profiling::severityName(d.severity)) + ": " + commentText(d.message) + " [" +
                 d.rule + "]\n";
    s += "set -euo pipefail\n\n";
    s += a.exports.rayJob;
    if (s.back() != '\n')
        s += '\n';
    return s;
}

} // namespace ps::core::configedit
