#include "core/profiling/digesthook.h"

namespace ps::core::profiling {

VerlHookRequest verlHookRequest(const std::function<const char *(const char *)> &env)
{
    const auto value = [&](const char *name) {
        const char *v = env(name);
        return std::string(v ? v : "");
    };
    VerlHookRequest r;
    r.pid = value(kVerlProfilePid);
    r.rank = value(kVerlProfileRank);
    for (const char *var : {kVerlProfileRayNsightDir, kVerlProfileSavePath})
        if (std::string dir = value(var); !dir.empty())
            r.folders.push_back(std::move(dir));
    if (r.pid.empty() && r.rank.empty())
        r.error = std::string("--verl-hook: ") + kVerlProfilePid + " and " + kVerlProfileRank +
                  " are not set (verl sets them when it runs finish_hook_cmd)";
    return r;
}

bool VerlHookRequest::wants(std::optional<uint32_t> reportPid, std::optional<int> reportRank) const
{
    if (reportPid)
        return std::to_string(*reportPid) == pid;
    return reportRank && std::to_string(*reportRank) == rank;
}

std::string VerlHookRequest::nothingFound(const std::vector<std::string> &existing) const
{
    std::string where;
    for (const std::string &folder : existing)
        where += (where.empty() ? "" : " or ") + folder;
    if (where.empty())
        where = std::string("any folder (") + kVerlProfileRayNsightDir + " and " + kVerlProfileSavePath +
                " name none that exists)";
    return "--verl-hook: no report of pid " + (pid.empty() ? "?" : pid) + " / rank " + (rank.empty() ? "?" : rank) +
           " under " + where;
}

} // namespace ps::core::profiling
