#pragma once
// Internal to the nsys reader: the event tables it reads, the unit of threaded reading (a Job:
// one rowid range of one table) and what a Job yields (a Chunk of columns).

#include "core/trace/store/storebuilder.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ps::core::trace::nsys {

// Ids are masked: pid = (globalTid >> 24) & 0xFFFFFF, tid = globalTid & 0xFFFFFF.
inline uint32_t pidOf(int64_t globalId)
{
    return uint32_t((uint64_t(globalId) >> 24) & 0xFFFFFF);
}
inline uint32_t tidOf(int64_t globalId)
{
    return uint32_t(uint64_t(globalId) & 0xFFFFFF);
}

enum class Table { Kernel, Memcpy, Memset, Sync, Runtime, Osrt, Nvtx };

struct TableSpec
{
    Table table;
    const char *name;
};
// In reading and merging order; indexed by Table.
inline constexpr TableSpec kTables[] = {
    {Table::Kernel, "CUPTI_ACTIVITY_KIND_KERNEL"},
    {Table::Memcpy, "CUPTI_ACTIVITY_KIND_MEMCPY"},
    {Table::Memset, "CUPTI_ACTIVITY_KIND_MEMSET"},
    {Table::Sync, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"},
    {Table::Runtime, "CUPTI_ACTIVITY_KIND_RUNTIME"},
    {Table::Osrt, "OSRT_API"},
    {Table::Nvtx, "NVTX_EVENTS"},
};

inline const char *tableName(Table t)
{
    return kTables[size_t(t)].name;
}

// NVTX name column: with this bit set, an index into Chunk::texts rather than a NameId.
inline constexpr uint32_t kTextFlag = 0x80000000u;

// Rows of one rowid range of one table, with StringIds already mapped to NameIds.
struct Chunk
{
    std::vector<int64_t> start, end;
    std::vector<int64_t> gid;  // globalTid (CPU tables) or globalPid (GPU tables)
    std::vector<uint32_t> id2; // GPU: streamId; NVTX: event type
    std::vector<uint16_t> dev; // GPU: deviceId
    std::vector<uint32_t> name, aux;
    std::vector<uint16_t> attr;
    std::vector<uint64_t> extra;       // Memcpy/Memset: bytes; NVTX: endGlobalTid; Kernel: launch config index
    std::vector<LaunchConfig> configs; // Kernel: local launch configs
    std::vector<std::pair<uint32_t, uint32_t>> shortNames;
    std::vector<uint64_t> nvtxScope; // NVTX: (domainId << 32) | category, per row
    std::vector<std::string> texts;
    std::vector<uint32_t> openEnds; // NVTX: rows of ranges with a NULL end (never closed)
    size_t droppedRows = 0;         // rows without a usable time (eventtimes.h)
    size_t unnamedRows = 0;         // rows whose name id StringIds does not hold
    std::string error;
};

struct Job
{
    Table table;
    std::string sql;
    int64_t lo = 0, hi = 0;
    size_t expect = 0; // rows to reserve for; bounded, as rowids may be sparse
};

} // namespace ps::core::trace::nsys
