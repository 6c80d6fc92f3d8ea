#include "core/profiling/rlinfplacement.h"

#include "core/profiling/pyconvert.h"
#include "core/profiling/pythonrepr.h"

#include <algorithm>
#include <set>

namespace ps::core::profiling {

using config::Node;

namespace {

// Ranks and resources ProfStudio reads at most: a range is cut at kMaxRanks ranks, and node groups
// offering more resources than that (a hostile `num_nodes: 100000000`) are refused rather than
// listed one by one. Rank values stay below kMaxRankValue so that GPU indices cannot overflow.
constexpr long long kMaxRanks = 1000000;
constexpr long long kMaxRankValue = 1000000000000;

// int(text) as RLinf reads a rank.
bool parseRank(const std::string &text, long long &n)
{
    std::string pythonError;
    const std::optional<long long> value = pythonInt(Node::string(text), pythonError);
    if (!value || *value >= kMaxRankValue || *value <= -kMaxRankValue)
        return false;
    n = *value;
    return true;
}

// parse_rank_config: "0-3,5,7-9" or "all" (any case; given the available ranks) -> sorted unique
// ranks. Ranks beyond the resources assumed here are not refused: RLinf counts the cluster's real
// hardware (--gpus-per-node may be unknown to us), so only it can say a rank is out of range.
bool parseRankConfig(const std::string &config, long long available, std::vector<long long> &out, std::string &error)
{
    std::set<long long> ranks;
    if (toLower(config) == "all") {
        for (long long r = 0; r < available && r < kMaxRanks; ++r)
            ranks.insert(r);
    } else {
        for (const std::string &range : splitStripped(config, ',')) {
            if (range.empty())
                continue;
            const std::vector<std::string> ends = splitStripped(range, '-');
            long long a = 0, b = 0;
            if (ends.size() > 2 || !parseRank(ends[0], a) || !parseRank(ends.back(), b)) {
                error = "Invalid rank format " + config + ", expected format: \"a,b,c-d\" or \"all\"";
                return false;
            }
            if (b < a) {
                error = "Start rank " + std::to_string(a) + " must be less than or equal to end rank " +
                        std::to_string(b) + " in rank config " + config + ".";
                return false;
            }
            for (long long r = a; r <= b && static_cast<long long>(ranks.size()) < kMaxRanks; ++r)
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
    if (!nodeGroup || nodeGroup->isNull())
        labels.push_back("cluster"); // the whole cluster, by accelerator
    else if (nodeGroup->isList())
        for (const Node &l : nodeGroup->items())
            labels.push_back(scalarText(l));
    else
        labels = splitStripped(scalarText(*nodeGroup), ',');
    // Before listing `nodes` x `perNode` more resources: false when that passes kMaxRanks.
    const auto fits = [&](long long nodes, long long perNode) {
        if (nodes <= 0 || perNode <= 0 || nodes <= (kMaxRanks - static_cast<long long>(out.size())) / perNode)
            return true;
        error = "The selected node groups offer more than " + std::to_string(kMaxRanks) +
                " resources (cluster.num_nodes, node_ranks x GPUs per node); ProfStudio does not place that many.";
        return false;
    };
    for (const std::string &label : labels) {
        if (label == "node") { // reserved: node ranks, no accelerator
            if (!fits(in.numNodes, 1))
                return false;
            for (long long n = 0; n < in.numNodes; ++n)
                out.push_back({n, -1});
            continue;
        }
        if (label == "cluster") { // reserved: every node's accelerators
            if (!fits(in.numNodes, in.gpusPerNode))
                return false;
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
            if (!fits(static_cast<long long>(it->hardwareNode.size()), 1))
                return false;
            for (long long node : it->hardwareNode)
                out.push_back({node, -1});
            continue;
        }
        if (!fits(static_cast<long long>(it->nodeRanks.size()), in.gpusPerNode))
            return false;
        for (long long n : it->nodeRanks)
            for (long long g = 0; g < in.gpusPerNode; ++g)
                out.push_back({n, n * in.gpusPerNode + g});
    }
    return true;
}

// One "resource_ranks[:process_ranks]" part; appends each process's resource index. `lastUsed`:
// the highest resource rank of the parts before (-1 for none).
bool parsePart(const std::string &part, const std::string &whole, long long available,
               std::vector<long long> &processResource, long long &lastUsed, std::string &error)
{
    const std::vector<std::string> sides = splitStripped(part, ':');
    if (sides.size() > 2) {
        error = "Invalid rank map string: " + part + " in placement config: " + whole +
                ". Expected format: resource_ranks:process_ranks";
        return false;
    }
    std::vector<long long> resources;
    if (!parseRankConfig(sides[0], available, resources, error))
        return false;
    if (resources.empty() || resources.front() <= lastUsed) {
        error = "Resource ranks must be unique and in ascending order in placement string: " + whole + ".";
        return false;
    }
    lastUsed = resources.back();
    long long processes = static_cast<long long>(resources.size());
    if (sides.size() == 2) {
        // "all" (any case) gives no process ranks here, as RLinf refuses it.
        std::vector<long long> procs;
        if (!parseRankConfig(sides[1], -1, procs, error) || procs.empty() ||
            procs.front() != static_cast<long long>(processResource.size()) ||
            procs.back() - procs.front() + 1 != static_cast<long long>(procs.size())) {
            error = "Process ranks must be continuous from 0, in ascending order, in placement string: " + whole + ".";
            return false;
        }
        processes = static_cast<long long>(procs.size());
    }
    if (static_cast<long long>(processResource.size()) + processes > kMaxRanks) {
        error = "More than " + std::to_string(kMaxRanks) + " process ranks in placement string: " + whole +
                "; ProfStudio does not place that many.";
        return false;
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
                        parseRank(scalarText(*nr), node);
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
    std::vector<long long> processResource;
    long long lastUsed = -1;
    for (const std::string &part : splitStripped(whole, ',')) {
        if (!part.empty() &&
            !parsePart(part, whole, static_cast<long long>(resources.size()), processResource, lastUsed, error))
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
