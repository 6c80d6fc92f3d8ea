#include "core/trace/identity.h"

#include <algorithm>
#include <charconv>
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

// File name without the report extensions (.sqlite, .nsys-rep, .qdrep, .db, .json[.gz]).
std::string stem(std::string name)
{
    for (const char *ext : {".gz", ".json", ".sqlite", ".nsys-rep", ".qdrep", ".db"}) {
        const std::string e = ext;
        if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0)
            name.resize(name.size() - e.size());
    }
    return name;
}

} // namespace

ReportIdentity identityFromPath(std::string_view path)
{
    ReportIdentity id;
    const std::vector<std::string> parts = splitPath(path);
    if (parts.empty())
        return id;
    const std::string name = stem(parts.back());
    std::smatch m;
    static const std::regex rlinf(R"(rlinf_profile_(.+)_(\d+)_(\d+)(?:[._-](\d+))?)");
    static const std::regex verl(R"(worker_process_(\d+)(?:\.(\d+))?)");
    static const std::regex plain(R"(report(\d+))");
    if (std::regex_match(name, m, rlinf)) {
        id.group = m[1];
        id.rank = int(*toInt(m[2]));
        id.pid = uint32_t(*toInt(m[3]));
        if (m[4].matched)
            id.step = int(*toInt(m[4]));
    } else if (std::regex_match(name, m, verl)) {
        id.group = "worker_process";
        id.pid = uint32_t(*toInt(m[1]));
        if (m[2].matched)
            id.step = int(*toInt(m[2]));
    } else if (std::regex_match(name, m, plain)) {
        id.step = int(*toInt(m[1]));
    }
    // Folders: a step folder, the Ray session, else the parent names the run.
    static const std::regex stepDir(R"((?:global_)?step[_-]?(\d+))");
    std::string session;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
        if (!id.step && std::regex_match(parts[i], m, stepDir))
            id.step = int(*toInt(m[1]));
        if (parts[i].rfind("session_", 0) == 0)
            session = parts[i];
    }
    if (!session.empty()) {
        id.run = session;
    } else if (parts.size() >= 2) {
        size_t i = parts.size() - 2;
        // Skip layout folders that say nothing about the run.
        while (i > 0 && (parts[i] == "nsight" || parts[i] == "logs" || std::regex_match(parts[i], stepDir)))
            --i;
        id.run = parts[i];
    }
    return id;
}

void completeIdentity(ReportIdentity &id, const ReportMeta &meta)
{
    if (!id.pid && meta.pids.size() == 1)
        id.pid = meta.pids.front();
    if (id.host.empty())
        id.host = meta.host;
    if (!id.rank && meta.rank)
        id.rank = meta.rank;
    std::string label = id.group;
    if (id.rank)
        label += (label.empty() ? "r" : " r") + std::to_string(*id.rank);
    if (id.step)
        label += (label.empty() ? "step " : " step ") + std::to_string(*id.step);
    if (id.pid)
        label += (label.empty() ? "pid " : " pid ") + std::to_string(*id.pid);
    id.label = label;
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
