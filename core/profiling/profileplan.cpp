#include "core/profiling/profileplan.h"

#include <algorithm>

namespace ps::core::profiling {

const char *frameworkName(Framework framework)
{
    switch (framework) {
    case Framework::RLinf:
        return "rlinf";
    case Framework::Verl:
        return "verl";
    case Framework::Unknown:
        break;
    }
    return "unknown";
}

const std::string *findOption(const OptionList &options, const std::string &name)
{
    for (const auto &[k, v] : options)
        if (k == name)
            return &v;
    return nullptr;
}

bool VerlRoleProfiler::profilesRank(long long rank, bool legacy) const
{
    if (allRanks)
        return true;
    if (!ranks.empty())
        return std::find(ranks.begin(), ranks.end(), rank) != ranks.end();
    return !legacy && enable && rank == 0;
}

bool VerlRoleProfiler::discreteFor(const std::string &t) const
{
    if (t == "nsys")
        return nsysDiscrete;
    if (t == "npu")
        return npuDiscrete;
    if (t == "torch")
        return torchDiscrete;
    return false;
}

const VerlRoleProfiler *VerlProfiling::role(const std::string &name) const
{
    for (const auto &r : roles)
        if (r.role == name)
            return &r;
    return nullptr;
}

std::string ProfilePlan::backend() const
{
    if (framework == Framework::RLinf)
        return rlinf.present && rlinf.enabled ? rlinf.backend : std::string();
    if (framework == Framework::Verl)
        return verl.tool.value_or(std::string());
    return {};
}

} // namespace ps::core::profiling
