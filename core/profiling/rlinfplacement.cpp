#include "core/profiling/rlinfplacement.h"

#include "core/profiling/pythonrepr.h"

#include <algorithm>
#include <set>

namespace ps::core::profiling {

using config::Node;

namespace {

std::string trim(const std::string &s)
{
    const size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
        return {};
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::vector<std::string> split(const std::string &s, char sep)
{
    std::vector<std::string> out;
    size_t i = 0;
    for (;;) {
        const size_t j = s.find(sep, i);
        out.push_back(s.substr(i, j == std::string::npos ? std::string::npos : j - i));
        if (j == std::string::npos)
            return out;
        i = j + 1;
    }
}

bool parseInt(const std::string &text, long long &n)
{
    const std::string s = trim(text);
    size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    if (i >= s.size() || s.size() > 12 ||
        !std::all_of(s.begin() + static_cast<long>(i), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    n = std::stoll(s);
    return true;
}

// parse_rank_config: "0-3,5,7-9" or "all" (given the available ranks) -> sorted unique ranks. Ranks
// beyond the resources assumed here are not refused: RLinf counts the cluster's real hardware
// (--gpus-per-node may be unknown to us), so only it can say a rank is out of range.
bool parseRankConfig(const std::string &config, long long available, std::vector<long long> &out, std::string &error)
{
    std::set<long long> ranks;
    std::string lower = config;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "all") {
        for (long long r = 0; r < available; ++r)
            ranks.insert(r);
    } else {
        for (const std::string &range : split(config, ',')) {
            if (trim(range).empty())
                continue;
            const std::vector<std::string> ends = split(trim(range), '-');
            long long a = 0, b = 0;
            if (ends.size() > 2 || !parseInt(ends[0], a) || !parseInt(ends.back(), b)) {
                error = "Invalid rank format " + config + ", expected format: \"a,b,c-d\" or \"all\"";
                return false;
            }
            if (b < a) {
                error = "Start rank " + std::to_string(a) + " must be less than or equal to end rank " +
                        std::to_string(b) + " in rank config " + config + ".";
                return false;
            }
            if (a < 0) {
                error = "Invalid rank format " + config + ", expected format: \"a,b,c-d\" or \"all\"";
                return false;
            }
            for (long long r = a; r <= b && ranks.size() < 1000000; ++r)
                ranks.insert(r);
        }
    }
    out.assign(ranks.begin(), ranks.end());
    return true;
}

std::string scalarText(const Node &n)
{
    return n.isStringLike() ? n.asString() : pythonStr(n);
}

// The resources the selected node groups offer, in order: each one's node and GPU index.
struct Resource
{
    long long node = 0;
    long long gpu = -1; // -1: not an accelerator
};

bool selectResources(const Node *nodeGroup, const RLinfPlacementInput &in, std::vector<Resource> &out,
                     std::string &error)
{
    std::vector<std::string> labels;
    if (!nodeGroup || nodeGroup->isNull()) {
        labels.push_back("cluster"); // the whole cluster, by accelerator
    } else if (nodeGroup->isList()) {
        for (const Node &l : nodeGroup->items())
            labels.push_back(scalarText(l));
    } else {
        for (const std::string &l : split(scalarText(*nodeGroup), ','))
            labels.push_back(trim(l));
    }
    for (const std::string &label : labels) {
        if (label == "node") { // reserved: node ranks, no accelerator
            for (long long n = 0; n < in.numNodes; ++n)
                out.push_back({n, -1});
            continue;
        }
        if (label == "cluster") { // reserved: every node's accelerators
            for (long long n = 0; n < in.numNodes; ++n)
                for (long long g = 0; g < in.gpusPerNode; ++g)
                    out.push_back({n, n * in.gpusPerNode + g});
            continue;
        }
        auto it = std::find_if(in.nodeGroups.begin(), in.nodeGroups.end(),
                               [&](const RLinfNodeGroup &g) { return g.label == label; });
        if (it == in.nodeGroups.end()) {
            error = "Node group not found with label \"" + label + "\" (cluster.node_groups).";
            return false;
        }
        if (it->hasHardware) {
            for (long long node : it->hardwareNode)
                out.push_back({node, -1});
            continue;
        }
        for (long long n : it->nodeRanks)
            for (long long g = 0; g < in.gpusPerNode; ++g)
                out.push_back({n, n * in.gpusPerNode + g});
    }
    return true;
}

// One "resource_ranks[:process_ranks]" part; appends each process's resource index.
bool parsePart(const std::string &part, const std::string &whole, long long available,
               std::vector<long long> &processResource, std::vector<long long> &usedResources, std::string &error)
{
    const std::vector<std::string> sides = split(part, ':');
    if (sides.size() > 2) {
        error = "Invalid rank map string: " + part + " in placement config: " + whole +
                ". Expected format: resource_ranks:process_ranks";
        return false;
    }
    std::vector<long long> resources;
    if (!parseRankConfig(trim(sides[0]), available, resources, error))
        return false;
    if (resources.empty() || (!usedResources.empty() && resources.front() <= usedResources.back())) {
        error = "Resource ranks must be unique and in ascending order in placement string: " + whole + ".";
        return false;
    }
    usedResources.insert(usedResources.end(), resources.begin(), resources.end());
    long long processes = static_cast<long long>(resources.size());
    if (sides.size() == 2) {
        std::vector<long long> procs;
        if (trim(sides[1]) == "all" || !parseRankConfig(trim(sides[1]), -1, procs, error) || procs.empty() ||
            procs.front() != static_cast<long long>(processResource.size()) ||
            procs.back() - procs.front() + 1 != static_cast<long long>(procs.size())) {
            error = "Process ranks must be continuous from 0, in ascending order, in placement string: " + whole + ".";
            return false;
        }
        processes = static_cast<long long>(procs.size());
    }
    const long long nres = static_cast<long long>(resources.size());
    if (processes % nres != 0 && nres % processes != 0) {
        error = "The number of process ranks " + std::to_string(processes) +
                " must be divisible by the number of resource ranks " + std::to_string(nres) +
                " in placement string: " + part +
                " or the number of resource ranks must be divisible by the "
                "number of process ranks.";
        return false;
    }
    for (long long p = 0; p < processes; ++p) // even spread: p-th process on resource p*nres/processes
        processResource.push_back(resources[static_cast<size_t>(p * nres / processes)]);
    return true;
}

} // namespace

std::vector<RLinfNodeGroup> readRLinfNodeGroups(const Node *nodeGroups)
{
    std::vector<RLinfNodeGroup> out;
    if (!nodeGroups || !nodeGroups->isList())
        return out;
    for (const Node &g : nodeGroups->items()) {
        if (!g.isDict() || !g.find("label"))
            continue;
        RLinfNodeGroup group;
        group.label = scalarText(*g.find("label"));
        std::string error;
        if (const Node *ranks = g.find("node_ranks"))
            parseRankConfig(scalarText(*ranks), -1, group.nodeRanks, error);
        if (const Node *hw = g.find("hardware"); hw && hw->isDict()) {
            group.hasHardware = true;
            const Node *configs = hw->find("configs");
            if (configs && configs->isList() && configs->size() > 0) {
                for (const Node &c : configs->items()) {
                    long long node = group.nodeRanks.empty() ? 0 : group.nodeRanks.front();
                    if (const Node *nr = c.isDict() ? c.find("node_rank") : nullptr)
                        parseInt(scalarText(*nr), node);
                    group.hardwareNode.push_back(node);
                }
            } else {
                group.hardwareNode = group.nodeRanks;
            }
        }
        out.push_back(std::move(group));
    }
    return out;
}

bool placeRLinfComponent(const Node &value, const RLinfPlacementInput &in, std::vector<long long> &gpus,
                         std::string &error)
{
    const Node *nodeGroup = nullptr;
    const Node *spec = &value;
    if (value.isDict()) {
        nodeGroup = value.find("node_group");
        spec = value.find("placement");
        if (!spec) {
            error = "placement must be specified in component_placement config: " + pythonStr(value);
            return false;
        }
    }
    std::vector<Resource> resources;
    if (!selectResources(nodeGroup, in, resources, error))
        return false;
    // Anything but a string or a mapping is read through str(), as RLinf does ("[0, 1]" fails).
    const std::string whole = scalarText(*spec);
    std::vector<long long> processResource, used;
    for (const std::string &rawPart : split(trim(whole), ',')) {
        const std::string part = trim(rawPart);
        if (!part.empty() &&
            !parsePart(part, whole, static_cast<long long>(resources.size()), processResource, used, error))
            return false;
    }
    if (processResource.empty()) {
        error = "No valid resource ranks found in placement string: " + whole + ".";
        return false;
    }
    for (long long r : processResource) {
        if (static_cast<size_t>(r) < resources.size()) {
            const Resource &res = resources[static_cast<size_t>(r)];
            gpus.push_back(res.gpu >= 0 ? res.gpu : res.node * in.gpusPerNode);
            continue;
        }
        // Beyond the assumed resources: continue the last one's numbering.
        const long long beyond = r - static_cast<long long>(resources.size()) + 1;
        const Resource last = resources.empty() ? Resource{0, -1} : resources.back();
        gpus.push_back(last.gpu >= 0 ? last.gpu + beyond : last.node * in.gpusPerNode);
    }
    return true;
}

} // namespace ps::core::profiling
