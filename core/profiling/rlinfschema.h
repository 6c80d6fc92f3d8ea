#pragma once
// RLinf: the worker topology (component_placement -> worker groups and their GPUs) and
// `cluster.profiling` read as RLinf reads it, with every check of RLinf (exact messages, A3)
// and the extra checks of the spec ("Validation rules worth enforcing", RLinf 1-12).

#include "core/profiling/configreader.h"
#include "core/profiling/launchoptions.h"
#include "core/profiling/profileplan.h"

#include <string>
#include <vector>

namespace ps::core::profiling {

// One worker group of the run: the component keys that share a placement entry each launch
// their own group (`<component>.group_name`), ranks 0..gpus.size()-1 on those GPU indices.
struct RLinfComponent
{
    std::string component;       // "actor"
    std::string group;           // "ActorGroup"
    std::string placementKey;    // "cluster.component_placement.env,rollout,actor"
    std::vector<long long> gpus; // global accelerator index of each rank
};

struct RLinfTopology
{
    long long numNodes = 1;
    long long gpusPerNode = 8;
    std::vector<RLinfComponent> components;
    // Channel worker groups the runner creates (Channel.create(name)), one worker each.
    std::vector<std::string> channels;
};

RLinfTopology readRLinfTopology(const ConfigReader &cfg, const ClusterDescription &cluster, Diagnostics &diags);

// Fills `out` (present=false when there is no cluster.profiling) and appends diagnostics.
void readRLinfProfiling(const ConfigReader &cfg, const RLinfTopology &topology, const LaunchOptions &options,
                        RLinfProfiling &out, Diagnostics &diags);

// RLinf's profiles_worker_group (A4): enabled, non-empty groups, case-insensitive match or "all".
bool rlinfProfilesGroup(const RLinfProfiling &p, const std::string &rootGroupName);

} // namespace ps::core::profiling
