#pragma once
// RLinf's cluster.component_placement, read as its ComponentPlacement does
// (rlinf/scheduler/placement/placement.py, parse_rank_config in cluster/utils.py):
//   Format (1)  `actor,rollout: 0-3:0-7,4-7`    resource ranks[:process ranks], comma separated
//   Format (2)  `actor: {node_group: gpu, placement: 0}`   node_group a label, "a,b" or a list
// Resource ranks count from 0 within the selected node groups (cluster.node_groups, in order):
// accelerators of their nodes, or the group's hardware (robots) when it declares one, or nodes
// for the reserved label `node`. Processes are spread evenly over the resource ranks.

#include "core/config/node.h"

#include <string>
#include <vector>

namespace ps::core::profiling {

struct RLinfNodeGroup
{
    std::string label;
    std::vector<long long> nodeRanks;
    bool hasHardware = false;            // `hardware:` given: resources are its devices, not GPUs
    std::vector<long long> hardwareNode; // the node of each hardware rank
};

// cluster.node_groups (a list of {label, node_ranks, hardware}); malformed entries are skipped.
std::vector<RLinfNodeGroup> readRLinfNodeGroups(const config::Node *nodeGroups);

struct RLinfPlacementInput
{
    long long numNodes = 1;
    long long gpusPerNode = 8;
    std::vector<RLinfNodeGroup> nodeGroups;
};

// One component_placement value -> for each process rank, the global GPU index it runs on (for a
// process on a node or a robot: the node's first GPU index, so that the node is right). False with
// RLinf's message in `error` when RLinf would refuse it.
bool placeRLinfComponent(const config::Node &value, const RLinfPlacementInput &in, std::vector<long long> &gpus,
                         std::string &error);

} // namespace ps::core::profiling
