#include "core/trace/read/identity.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <regex>

namespace ps::core::trace {

namespace {

std::optional<long long> toInt(const std::string &s)
{
    long long v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::vector<std::string> splitPath(std::string_view path)
{
    std::vector<std::string> parts;
    std::string cur;
    for (char c : path) {
        if (c == '/' || c == '\\') {
            if (!cur.empty())
                parts.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty())
        parts.push_back(cur);
    return parts;
}

// File name without the report extensions (.sqlite, .nsys-rep, .qdrep, .qdstrm, .db, .json[.gz]).
std::string stem(std::string name)
{
    for (const char *ext : {".gz", ".json", ".sqlite", ".nsys-rep", ".qdrep", ".qdstrm", ".db"}) {
        const std::string e = ext;
        if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0)
            name.resize(name.size() - e.size());
    }
    return name;
}

// verl >= 0.9 relocated nsys report (nvtx_profile.py relocate): "[<role>_]<host>_" before Ray's
// "worker_process_<pid>[.<range id>]". The role is written raw (it may hold "_"); host names
// hold none, so the host is the last "_" token.
bool parseRelocatedNsys(const std::string &name, ReportIdentity &id)
{
    static const std::regex re(R"((?:(.+)_)?([0-9A-Za-z.-]+)_worker_process_(\d+)(?:\.(\d+))?)");
    std::smatch m;
    if (!std::regex_match(name, m, re))
        return false;
    id.group = m[1].matched ? m[1].str() : "worker_process";
    id.host = m[2];
    id.pid = uint32_t(*toInt(m[3]));
    if (m[4].matched) {
        id.step = int(*toInt(m[4]));
        id.stepIsCaptureIndex = true;
    }
    return true;
}

// Scopes a verl torch trace names besides stage labels: the whole-step windows (V8).
bool isWindowScope(const std::string &token)
{
    static const std::regex stage(R"((train|e2e|train-batch|forward-backward|(actor|ref)-compute-log-prob|)"
                                  R"(actor-update|compute-values|critic-update|update-critic|compute-rm-score))");
    return std::regex_match(token, stage);
}

// verl >= 0.9 torch trace (torch_profile.py build_trace_basename + _trace_handler):
// [<role>_][<scope>_][step<S>_]rank<r>[-of-<W>][_tp<i>-pp<i>-dp<i>-cp<i>]_pid<pid>_<ms stamp>
// [_part<k>|_mb<a>[-<b>]]; every label is sanitised to [0-9A-Za-z.=+-], so "_" only separates.
bool parseTorchTrace(const std::string &name, ReportIdentity &id)
{
    static const std::regex re(R"((?:([0-9A-Za-z.=+-]+(?:_[0-9A-Za-z.=+-]+)*)_)?rank(\d+)(?:-of-(\d+))?)"
                               R"((?:_((?:tp|pp|dp|cp)\d+(?:-(?:tp|pp|dp|cp)\d+)*))?_pid(\d+)_(\d{17}))"
                               R"((?:_(part\d+|mb\d+(?:-\d+)?))?)");
    std::smatch m;
    if (!std::regex_match(name, m, re))
        return false;
    std::vector<std::string> labels;
    if (m[1].matched) {
        std::string rest = m[1];
        for (size_t at; (at = rest.find('_')) != std::string::npos; rest.erase(0, at + 1))
            labels.push_back(rest.substr(0, at));
        labels.push_back(rest);
    }
    static const std::regex stepLabel(R"(step(\d+))");
    std::smatch sm;
    if (!labels.empty() && std::regex_match(labels.back(), sm, stepLabel)) {
        id.step = int(*toInt(sm[1]));
        labels.pop_back();
    }
    if (labels.size() > 2)
        return false;
    // One label is the role (save_file_prefix) unless it is a scope verl itself writes.
    if (labels.size() == 2) {
        id.group = labels[0];
        id.scope = labels[1];
    } else if (labels.size() == 1) {
        (isWindowScope(labels[0]) ? id.scope : id.group) = labels[0];
    }
    id.rank = int(*toInt(m[2]));
    if (m[3].matched)
        id.worldSize = int(*toInt(m[3]));
    id.parallel = m[4];
    id.pid = uint32_t(*toInt(m[5]));
    id.part = m[7];
    return true;
}

bool parseRLinfNsys(const std::string &name, ReportIdentity &id)
{
    static const std::regex rlinf(R"(rlinf_profile_(.+)_(\d+)_(\d+)(?:[._-](\d+))?)");
    std::smatch m;
    if (!std::regex_match(name, m, rlinf))
        return false;
    id.group = m[1];
    id.rank = int(*toInt(m[2]));
    id.pid = uint32_t(*toInt(m[3]));
    if (m[4].matched)
        id.step = int(*toInt(m[4]));
    return true;
}

// A name nsys expanded from an `-o` holding the rank variable, as validate's fix writes it
// (core/profiling/nsysoutput.h): <prefix>_rank%q{RANK}[_%p] gives <prefix>_rank<r>[_<pid>][.<range id>].
bool parseRankVariableName(const std::string &name, ReportIdentity &id)
{
    static const std::regex re(R"((.+)_rank(\d+)(?:_(\d+))?(?:\.(\d+))?)");
    std::smatch m;
    if (!std::regex_match(name, m, re))
        return false;
    id.group = m[1];
    id.rank = int(*toInt(m[2]));
    if (m[3].matched)
        id.pid = uint32_t(*toInt(m[3]));
    if (m[4].matched) { // nsys's capture-range number
        id.step = int(*toInt(m[4]));
        id.stepIsCaptureIndex = true;
    }
    return true;
}

bool parsePlainNsys(const std::string &name, ReportIdentity &id)
{
    static const std::regex plain(R"(report(\d+))");
    std::smatch m;
    if (!std::regex_match(name, m, plain))
        return false;
    id.step = int(*toInt(m[1]));
    return true;
}

} // namespace

ReportIdentity identityFromPath(std::string_view path)
{
    ReportIdentity id;
    const std::vector<std::string> parts = splitPath(path);
    if (parts.empty())
        return id;
    const std::string name = stem(parts.back());
    // Ray's own "worker_process_<pid>" is the relocated form without role and host.
    static const std::regex ray(R"(worker_process_(\d+)(?:\.(\d+))?)");
    std::smatch m;
    if (std::regex_match(name, m, ray)) {
        id.group = "worker_process";
        id.pid = uint32_t(*toInt(m[1]));
        if (m[2].matched) {
            id.step = int(*toInt(m[2]));
            id.stepIsCaptureIndex = true;
        }
    } else if (!parseRLinfNsys(name, id) && !parseRelocatedNsys(name, id) && !parseTorchTrace(name, id) &&
               !parseRankVariableName(name, id)) {
        parsePlainNsys(name, id);
    }
    std::smatch m2;
    // Folders: a step folder, the Ray session, else the parent names the run.
    static const std::regex stepDir(R"((?:global_)?step[_-]?(\d+))");
    // A folder per rank (-o <dir>/rank%q{RANK}/...) names the rank when the file does not.
    static const std::regex rankDir(R"(rank[_-]?(\d+))");
    std::string session;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
        if (!id.step && std::regex_match(parts[i], m2, stepDir))
            id.step = int(*toInt(m2[1]));
        if (!id.rank && std::regex_match(parts[i], m2, rankDir))
            id.rank = int(*toInt(m2[1]));
        if (parts[i].rfind("session_", 0) == 0)
            session = parts[i];
    }
    if (!session.empty()) {
        id.run = session;
    } else if (parts.size() >= 2) {
        size_t i = parts.size() - 2;
        // Skip layout folders that say nothing about the run.
        // RLinf writes <log_path>/<experiment>/profiling/ (nsys) and .../trace/ (tracer).
        while (i > 0 && (parts[i] == "nsight" || parts[i] == "logs" || parts[i] == "profiling" || parts[i] == "trace" ||
                         std::regex_match(parts[i], stepDir) || std::regex_match(parts[i], rankDir)))
            --i;
        id.run = parts[i];
    }
    return id;
}

ReportIdentity identityOfFile(const std::string &path)
{
    std::error_code ec;
    const std::filesystem::path file = std::filesystem::absolute(path, ec).lexically_normal();
    ReportIdentity id = identityFromPath(file.string());
    // The nearest ancestor holding the marker; the folder right below it is the host.
    std::filesystem::path below;
    for (std::filesystem::path dir = file.parent_path(); !dir.empty(); below = dir, dir = dir.parent_path()) {
        if (std::filesystem::exists(dir / kCollectedMarker, ec)) {
            if (!below.empty()) {
                id.run = dir.filename().string();
                id.host = below.filename().string();
            }
            break;
        }
        if (dir == dir.root_path())
            break;
    }
    return id;
}

std::string applyRecordedIdentity(ReportIdentity &id, const ReportIdentity &recorded)
{
    std::string differs;
    const auto note = [&](const char *what, const std::string &named, const std::string &kept) {
        differs += (differs.empty() ? "" : ", ") + std::string(what) + " " + (named.empty() ? "none" : named) +
                   " (its name) vs " + kept + " (recorded)";
    };
    const auto text = [](const auto &v) { return v ? std::to_string(*v) : std::string(); };
    if (!recorded.group.empty() && recorded.group != id.group) {
        note("group", id.group, recorded.group);
        id.group = recorded.group;
    }
    if (recorded.rank && recorded.rank != id.rank) {
        note("rank", text(id.rank), text(recorded.rank));
        id.rank = recorded.rank;
    }
    if (recorded.step && recorded.step != id.step) {
        note("step", text(id.step), text(recorded.step));
        id.step = recorded.step;
    }
    if (recorded.pid && recorded.pid != id.pid) {
        note("pid", text(id.pid), text(recorded.pid));
        id.pid = recorded.pid;
    }
    return differs;
}

namespace {

// The group a name gives that says nothing of the worker group: Ray's own report name.
bool isGenericGroup(const std::string &group)
{
    return group.empty() || group == "worker_process";
}

} // namespace

void applyLaunchIdentity(ReportIdentity &id, const ReportMeta &meta)
{
    id.recorded = reportLaunchIdentity(meta.processIdentities, nullptr);
    id.nameDisagrees.clear();
    const auto note = [&](const char *what, const std::optional<int> &named, const Recorded<int> &kept) {
        if (!named || *named == kept.value)
            return;
        id.nameDisagrees += (id.nameDisagrees.empty() ? "" : ", ") + std::string(what) + " " + std::to_string(*named) +
                            " (its name) vs " + std::to_string(kept.value) + " (" + kept.from + ", recorded)";
    };
    if (const auto &r = id.recorded.rank) {
        note("rank", id.rank, *r);
        id.rank = r->value;
    }
    if (const auto &w = id.recorded.worldSize) {
        note("world size", id.worldSize, *w);
        id.worldSize = w->value;
    }
    // A role the name gives (verl's relocated "<role>_<host>_worker_process_<pid>", RLinf's
    // group) is another naming of the same worker group than verl's random WG_PREFIX: the
    // recorded group replaces only a name that gives none.
    if (const auto &g = id.recorded.group; g && isGenericGroup(id.group))
        id.group = g->value;
}

void completeIdentity(ReportIdentity &id, const ReportMeta &meta)
{
    applyLaunchIdentity(id, meta);
    if (!id.pid && meta.pids.size() == 1)
        id.pid = meta.pids.front();
    if (id.host.empty())
        id.host = meta.host;
    if (!id.rank && meta.rank)
        id.rank = meta.rank;
    std::string label = id.group;
    auto append = [&label](const std::string &word) { label += (label.empty() ? "" : " ") + word; };
    if (!id.scope.empty())
        append(id.scope);
    if (id.rank)
        append("r" + std::to_string(*id.rank) + (id.worldSize ? "/" + std::to_string(*id.worldSize) : ""));
    if (id.step)
        append("step " + std::to_string(*id.step));
    if (!id.part.empty())
        append(id.part);
    if (id.pid)
        append("pid " + std::to_string(*id.pid));
    id.label = label;
}

void finishReport(Report &report, const FileStamp &stamp)
{
    report.fileSize = stamp.size;
    report.fileMtimeNs = stamp.mtimeNs;
    completeIdentity(report.identity, report.meta);
}

std::vector<RunNode> groupReports(std::span<const ReportPtr> reports)
{
    std::map<std::string, std::map<std::string, std::map<std::optional<int>, std::vector<size_t>>>> tree;
    for (size_t i = 0; i < reports.size(); ++i) {
        const ReportIdentity &id = reports[i]->identity;
        tree[id.run][id.group][id.rank].push_back(i);
    }
    std::vector<RunNode> out;
    for (auto &[run, groups] : tree) {
        RunNode rn{run, {}};
        for (auto &[group, ranks] : groups) {
            GroupNode gn{group, {}};
            for (auto &[rank, idx] : ranks) {
                std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
                    const auto &ia = reports[a]->identity, &ib = reports[b]->identity;
                    return std::pair{ia.step.value_or(-1), reports[a]->path} <
                           std::pair{ib.step.value_or(-1), reports[b]->path};
                });
                gn.ranks.push_back({rank, idx});
            }
            // std::map puts nullopt first; unknown ranks go last.
            std::stable_partition(gn.ranks.begin(), gn.ranks.end(),
                                  [](const RankNode &r) { return r.rank.has_value(); });
            rn.groups.push_back(std::move(gn));
        }
        out.push_back(std::move(rn));
    }
    return out;
}

} // namespace ps::core::trace
