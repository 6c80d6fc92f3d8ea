#include "core/profiling/collectscript.h"

#include "core/common/shellquote.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
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

// The file-name glob of a planned output: run-time parts (<PID>, <RID>, <hostname>, ...) become
// `*`; a folder output matches everything under it (rsync's `***`).
std::string outputGlob(std::string path)
{
    const bool folder = !path.empty() && path.back() == '/';
    while (!path.empty() && path.back() == '/')
        path.pop_back();
    std::string name = path.substr(path.find_last_of('/') + 1), glob;
    for (size_t i = 0; i < name.size(); ++i) {
        const size_t close = name[i] == '<' ? name.find('>', i) : std::string::npos;
        if (close == std::string::npos) {
            glob += name[i];
            continue;
        }
        if (glob.empty() || glob.back() != '*')
            glob += '*';
        i = close;
    }
    return folder ? glob + "/***" : glob;
}

// rank -> the globs of the raw reports its workers write (an nsys report's SQLite export too).
std::map<long long, std::set<std::string>> rawGlobsByRank(const LaunchPlan &plan)
{
    std::map<long long, std::set<std::string>> out;
    for (const WorkerLaunch &w : plan.workers)
        for (const std::string &o : w.outputs) {
            const std::string g = outputGlob(o);
            out[w.rank].insert(g);
            const std::string rep = ".nsys-rep";
            if (g.size() > rep.size() && g.compare(g.size() - rep.size(), rep.size(), rep) == 0)
                out[w.rank].insert(g.substr(0, g.size() - rep.size()) + ".sqlite");
        }
    return out;
}

// The bash that reads the options: --all, --full RANK[,RANK...] (repeatable), then the hosts.
std::string optionParsing(const LaunchPlan &plan)
{
    std::string s = "# --full RANK: also the raw reports of that rank (of every worker group)\n"
                    "add_rank() {\n  case \"$1\" in\n";
    for (const auto &[rank, globs] : rawGlobsByRank(plan)) {
        s += "    " + std::to_string(rank) + ") raw+=(";
        for (const std::string &g : globs)
            s += " " + ps::core::shellQuote(g);
        s += " ) ;;\n";
    }
    s += "    *) echo \"warning: no profiled worker has rank $1\" >&2; status=1 ;;\n  esac\n}\n"
         "all=0\nraw=()\nstatus=0\n"
         "while [ \"$#\" -gt 0 ]; do\n  case \"$1\" in\n"
         "    --all) all=1; shift ;;\n"
         "    --full) [ \"$#\" -ge 2 ] || { echo \"usage: $0 [--all] [--full RANK[,RANK...]]... HOST...\" >&2; exit 2; "
         "}\n"
         "      IFS=, read -ra picked <<< \"$2\"\n"
         "      for r in \"${picked[@]}\"; do add_rank \"$r\"; done\n      shift 2 ;;\n"
         "    --) shift; break ;;\n"
         "    -*) echo \"unknown option $1 (options: --all, --full RANK[,RANK...])\" >&2; exit 2 ;;\n"
         "    *) break ;;\n  esac\ndone\n";
    return s;
}

// Unique (node, folder) pairs, in plan order: "/a/b/" and "/a/b" are one folder (the script
// appends its own slashes).
std::vector<std::pair<long long, std::string>> foldersOf(const LaunchPlan &plan)
{
    std::vector<std::pair<long long, std::string>> folders;
    for (auto entry : plan.collect) {
        while (entry.second.size() > 1 && entry.second.back() == '/')
            entry.second.pop_back();
        if (std::find(folders.begin(), folders.end(), entry) == folders.end())
            folders.push_back(entry);
    }
    return folders;
}

// The shebang, the usage and the folders the profiled workers write, as comments.
std::string header(const std::string &configLabel, const std::vector<std::pair<long long, std::string>> &folders)
{
    std::string s = "#!/usr/bin/env bash\n"
                    "# Collects the reports of " +
                    ps::core::commentText(configLabel) +
                    " after the run, written by ProfStudio.\n"
                    "#   collect.sh HOST...        one host per node, node 0 first (ssh + rsync reachable;\n"
                    "#                             localhost copies locally): the digests (*.psdigest, written\n"
                    "#                             by `profstudio-cli trace digest`, its verl hook or Ray job)\n"
                    "#   collect.sh --full RANK[,RANK...] HOST...   also the raw reports of those ranks\n"
                    "#   collect.sh --all HOST...  every file of the folders (raw reports included)\n"
                    "#   DEST=DIR collect.sh ...   where to put them (default " +
                    destName(configLabel) +
                    ")\n"
                    "# Each folder lands in DEST/<host>/<its path on the node>, so the reports keep the\n"
                    "# layout ProfStudio reads worker, rank and step from. Folders the profiled workers write:\n";
    for (const auto &[node, dir] : folders)
        s += "#   " + (node < 0 ? std::string("any node (Ray places the worker)") : "node " + std::to_string(node)) +
             ": " + ps::core::commentText(dir) +
             (dir.empty() || dir[0] != '/' ? "   (relative: to the worker's working directory)" : "") + "\n";
    return s + "set -euo pipefail\n\n";
}

// The hosts given (one per node) and DEST checked, the rsync filters, the run's marker.
std::string hostsAndFilters(long long nodes, const std::string &configLabel)
{
    const std::string n = std::to_string(nodes);
    std::string s = "if [ \"$#\" -lt " + n + " ]; then\n";
    s += "  echo \"usage: $0 [--all] [--full RANK[,RANK...]]... HOST...  (" + n + " host" + (nodes > 1 ? "s" : "") +
         ", one per node, node 0 first; localhost copies locally)\" >&2\n";
    s += "  exit 2\nfi\n";
    s += "DEST=${DEST:-" + destName(configLabel) + "}\n";
    // rsync reads HOST:PATH as remote and a leading - as an option, find a leading - as a test.
    s += "case \"$DEST\" in /*) ;; *) DEST=\"./$DEST\" ;; esac\n";
    s += "hosts=(\"$@\")\n";
    s += "for host in \"${hosts[@]}\"; do\n"
         "  case \"$host\" in\n"
         "    ''|-*|*/*) echo \"error: $(printf '%q' \"$host\") is not a host name\" >&2; exit 2 ;;\n"
         "  esac\n"
         "done\n";
    s += "filters=()\n"
         "if [ \"$all\" = 0 ]; then\n"
         "  filters=(--prune-empty-dirs --include='*/')\n"
         "  for g in \"${raw[@]}\"; do filters+=(--include=\"$g\"); done\n"
         "  filters+=(--include='*.psdigest' --exclude='*')\n"
         "fi\n"
         "# The marker makes the tree one run when opened (hosts are the folders below it).\n"
         "mkdir -p \"$DEST\" && touch \"$DEST/.profstudio-collected\"\n\n";
    return s;
}

// The script's fetch function: one folder of one host.
std::string fetchFunction()
{
    return "# fetch HOST FOLDER: copies FOLDER of HOST into DEST/HOST/FOLDER; a folder that is not there\n"
           "# (no worker of that group ran on the host) is reported, and the others are still fetched.\n"
           "# Names reach rsync as they are: --protect-args (-s) sends them to the remote rsync without\n"
           "# its shell (no word splitting, $(...), ; or quotes there), -- ends the options, and a\n"
           "# relative folder gets ./ so that neither a - nor a : in it changes its meaning.\n"
           "# A folder (or host) that climbs with .. would land outside DEST: it is refused, not followed.\n"
           "fetch() {\n"
           "  local host=$1 dir=$2 src dest\n"
           "  case \"/$dir/\" in */../*)\n"
           "    echo \"warning: not copied: $(printf '%q' \"$dir\") climbs with .., so it would land outside \"\\\n"
           "\"$(printf '%q' \"$DEST\"); give the node's output_dir without ..\" >&2\n"
           "    status=1; return ;;\n"
           "  esac\n"
           "  case \"$host\" in */* | . | ..) echo \"warning: not copied: host $(printf '%q' \"$host\") is not a host "
           "name\" >&2\n"
           "    status=1; return ;;\n"
           "  esac\n"
           "  dest=\"$DEST/$host/${dir#/}\"\n"
           "  case \"$dir\" in /*) src=\"$dir/\" ;; *) src=\"./$dir/\" ;; esac\n"
           "  if [ \"$host\" != localhost ]; then src=\"$host:$src\"; fi\n"
           "  mkdir -p -- \"$dest\"\n"
           "  if ! rsync -a -s \"${filters[@]}\" -- \"$src\" \"$dest/\"; then\n"
           "    echo \"warning: could not copy $(printf '%q' \"$src\")\" >&2\n"
           "    status=1\n"
           "  elif [ \"$all\" = 0 ] && [ -z \"$(find \"$dest\" -name '*.psdigest' -print -quit)\" ]; then\n"
           "    echo \"warning: no digest in $(printf '%q' \"$src\") (digest the reports on the nodes first, or use "
           "--all)\" >&2\n"
           "    status=1\n"
           "  fi\n"
           "}\n\n";
}

} // namespace

std::string exportCollectScript(const LaunchPlan &plan, const std::string &configLabel)
{
    const std::vector<std::pair<long long, std::string>> folders = foldersOf(plan);
    long long nodes = 1;
    for (const auto &[node, dir] : folders)
        nodes = std::max(nodes, node + 1);
    std::string s = header(configLabel, folders);
    if (folders.empty())
        return s + "echo 'this configuration profiles no worker: there are no reports to collect' >&2\nexit 1\n";
    s += optionParsing(plan) + hostsAndFilters(nodes, configLabel) + fetchFunction();
    for (const auto &[node, dir] : folders) {
        if (node < 0)
            s += "for host in \"${hosts[@]}\"; do fetch \"$host\" " + ps::core::shellQuote(dir) + "; done\n";
        else
            s += "fetch \"${hosts[" + std::to_string(node) + "]}\" " + ps::core::shellQuote(dir) + "\n";
    }
    s += "\necho \"collected in $DEST; open them together with:\"\n";
    s += "echo \"  profstudio $(printf '%q' \"$DEST\")\"\n";
    s += "exit $status\n";
    return s;
}

} // namespace ps::core::profiling
