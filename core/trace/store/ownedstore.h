#pragma once
// Heap storage behind an EventStore made by StoreBuilder (internal to core/trace).

#include "core/trace/store/eventstore.h"

#include <vector>

namespace ps::core::trace {

struct OwnedTrack
{
    std::vector<int64_t> start;
    std::vector<uint32_t> duration;
    std::vector<NameId> name;
    std::vector<uint32_t> aux;
    std::vector<uint16_t> level;
    std::vector<uint16_t> attr;
    std::vector<uint64_t> bytes;
    std::vector<LongDuration> longDurations;
    std::vector<CrossThreadEnd> crossEnds;
    std::vector<int64_t> blockMaxEnd;
};

struct OwnedStore
{
    std::vector<char> chars;
    std::vector<uint32_t> offsets;
    std::vector<ProcessInfo> processes;
    std::vector<ThreadInfo> threads;
    std::vector<LaunchConfig> launchConfigs;
    std::vector<NvtxScope> scopes;
    std::vector<ShortName> shortNames;
    std::vector<CollectiveRecord> collectives;
    std::vector<ProcessGroupInfo> processGroups;
    std::vector<OwnedTrack> tracks;
};

} // namespace ps::core::trace
