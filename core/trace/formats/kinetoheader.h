#pragma once
// The keys of a Kineto trace outside traceEvents (baseTimeNanoseconds, distributedInfo,
// deviceProperties, hostname, schemaVersion), as TraceEventSplitter hands them over.

#include "core/trace/store/report.h"

#include <optional>
#include <string>
#include <vector>

namespace ps::core::trace::formats::kineto {

// One entry of distributedInfo.pg_config.
struct ProcessGroupConfig
{
    std::string name, desc, ranks, backend; // ranks as JSON text, e.g. "[0,1,2,3]"
    int size = -1;
};

struct Header
{
    std::optional<int64_t> baseTimeNs;
    std::optional<int> rank;
    std::string schemaVersion;
    std::string host;
    std::vector<GpuInfo> gpus;
    std::optional<int> worldSize; // distributedInfo.world_size
    std::vector<ProcessGroupConfig> processGroups;
    std::vector<std::string> problems; // distributedInfo values refused, e.g. a rank outside [0, 2^31)
};

// "" or why the text is unreadable; a bare array has no header and is fine.
std::string parseHeader(const std::string &text, Header &h);

} // namespace ps::core::trace::formats::kineto
