#include "core/profiling/collectscript.h"

#include "core/common/shellquote.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace ps::core::profiling {

namespace {

// DEST's default: the config's name, reduced to characters that need no quoting anywhere.
std::string destName(const std::string &label)
{
    std::string out = "profstudio-";
    for (char c : label)
        out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
    return out + "-reports";
}

} // namespace

std::string exportCollectScript(const LaunchPlan &plan, const std::string &configLabel)
{
    // Unique (node, folder) pairs, in plan order.
    std::vector<std::pair<long long, std::string>> folders;
    for (auto entry : plan.collect) {
        // "/a/b/" and "/a/b" are one folder; the script appends its own slashes.
        while (entry.second.size() > 1 && entry.second.back() == '/')
            entry.second.pop_back();
        if (std::find(folders.begin(), folders.end(), entry) == folders.end())
            folders.push_back(entry);
    }
    long long nodes = 1;
    for (const auto &[node, dir] : folders)
        nodes = std::max(nodes, node + 1);

    std::string s = "#!/usr/bin/env bash\n"
                    "# Collects the reports of " +
                    configLabel +
                    " after the run, written by ProfStudio.\n"
                    "#   collect.sh HOST...        one host per node, node 0 first (ssh + rsync reachable;\n"
                    "#                             localhost copies locally)\n"
                    "#   DEST=DIR collect.sh ...   where to put them (default " +
                    destName(configLabel) +
                    ")\n"
                    "# Each folder lands in DEST/<host>/<its path on the node>, so the reports keep the\n"
                    "# layout ProfStudio reads worker, rank and step from. Folders the profiled workers write:\n";
    for (const auto &[node, dir] : folders)
        s += "#   " + (node < 0 ? std::string("any node (Ray places the worker)") : "node " + std::to_string(node)) +
             ": " + dir + (dir.empty() || dir[0] != '/' ? "   (relative: to the worker's working directory)" : "") +
             "\n";
    s += "set -euo pipefail\n\n";
    if (folders.empty()) {
        s += "echo 'this configuration profiles no worker: there are no reports to collect' >&2\nexit 1\n";
        return s;
    }
    const std::string n = std::to_string(nodes);
    s += "if [ \"$#\" -lt " + n + " ]; then\n";
    s += "  echo \"usage: $0 HOST...  (" + n + " host" + (nodes > 1 ? "s" : "") +
         ", one per node, node 0 first; localhost copies locally)\" >&2\n";
    s += "  exit 2\nfi\n";
    s += "DEST=${DEST:-" + destName(configLabel) + "}\n";
    s += "hosts=(\"$@\")\n";
    s += "status=0\n\n";
    s += "# fetch HOST FOLDER: copies FOLDER of HOST into DEST/HOST/FOLDER; a folder that is not there\n"
         "# (no worker of that group ran on the host) is reported, and the others are still fetched.\n"
         "fetch() {\n"
         "  local host=$1 dir=$2 src\n"
         "  if [ \"$host\" = localhost ]; then src=\"$dir/\"; else src=\"$host:$dir/\"; fi\n"
         "  mkdir -p \"$DEST/$host/${dir#/}\"\n"
         "  if ! rsync -a \"$src\" \"$DEST/$host/${dir#/}/\"; then\n"
         "    echo \"warning: could not copy $src\" >&2\n"
         "    status=1\n"
         "  fi\n"
         "}\n\n";
    for (const auto &[node, dir] : folders) {
        if (node < 0)
            s += "for host in \"${hosts[@]}\"; do fetch \"$host\" " + ps::core::shellQuote(dir) + "; done\n";
        else
            s += "fetch \"${hosts[" + std::to_string(node) + "]}\" " + ps::core::shellQuote(dir) + "\n";
    }
    s += "\necho \"reports collected in $DEST; open them together with:\"\n";
    s += "echo \"  profstudio $(printf '%q' \"$DEST\")\"\n";
    s += "exit $status\n";
    return s;
}

} // namespace ps::core::profiling
