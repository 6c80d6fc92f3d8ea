#include "core/trace/nsys/nsysmerge.h"

#include "core/trace/nsys/nvtxeventtype.h"
#include "core/trace/store/tracklookup.h"
#include "core/trace/tracestats.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <unordered_map>

namespace ps::core::trace::nsys {

namespace {

// Names as nsys stats prints them, by ENUM_CUDA_MEMCPY_OPER (copyKind); an unknown kind (0, or
// one nsys does not name) is "[CUDA memcpy]" on the timeline.
std::string_view memcpyName(uint16_t kind)
{
    const std::string_view name = memcpyOperationName(kind);
    return kind == 0 || name.empty() ? std::string_view("[CUDA memcpy]") : name;
}

// By ENUM_CUPTI_SYNC_TYPE (syncType).
const char *syncName(uint16_t type)
{
    static const char *const names[] = {
        "[CUDA synchronization]",    "[CUDA event synchronize]",   "[CUDA stream wait event]",
        "[CUDA stream synchronize]", "[CUDA context synchronize]",
    };
    return type < std::size(names) ? names[type] : names[0];
}

TrackKind nvtxKind(uint32_t type)
{
    if (type == uint32_t(number(NvtxEventType::Mark)))
        return TrackKind::NvtxMark;
    return isPushPop(int(type)) ? TrackKind::NvtxPushPop : TrackKind::NvtxStartEnd;
}

class ChunkMerger
{
public:
    ChunkMerger(const NameTables &names, StoreBuilder &b, const NcclLaunches &nccl)
        : m_names(names), m_b(b), m_nccl(nccl)
    {
        for (uint16_t k = 0; k < 16; ++k)
            m_memcpyNames[k] = b.intern(memcpyName(k));
        for (uint16_t k = 0; k < 8; ++k)
            m_syncNames[k] = b.intern(syncName(k));
        m_memsetName = b.intern("[CUDA memset]");
    }

    void merge(Table table, Chunk &c);
    const std::set<uint32_t> &pids() const { return m_seenPids; }

private:
    uint32_t pidAt(const Chunk &c, size_t i)
    {
        const uint32_t pid = pidOf(c.gid[i]);
        if (pid != m_lastPid) {
            m_seenPids.insert(pid);
            m_lastPid = pid;
        }
        return pid;
    }
    void registerChunkTables(const Chunk &c);
    void mergeGpu(Table table, const Chunk &c);
    void mergeCpu(Table table, const Chunk &c);
    void mergeNvtx(const Chunk &c);
    uint16_t scopeFor(uint32_t pid, uint64_t scopeKey);
    void recordNccl(TrackHandle h, const Chunk &c, size_t i);

    const NameTables &m_names;
    StoreBuilder &m_b;
    const NcclLaunches &m_nccl;
    NameId m_memcpyNames[16], m_syncNames[8], m_memsetName;
    std::vector<uint16_t> m_configMap; // the chunk's launch config index -> the builder's
    std::unordered_map<uint64_t, uint16_t> m_scopeCache;
    std::set<std::pair<NameId, NameId>> m_shortSeen;
    std::set<uint32_t> m_seenPids;
    uint32_t m_lastPid = 0xFFFFFFFF;
    TrackLookup track{m_b};
};

void ChunkMerger::merge(Table table, Chunk &c)
{
    track.reset(); // each chunk looks its first track up afresh
    m_lastPid = 0xFFFFFFFF;
    registerChunkTables(c);
    switch (table) {
    case Table::Kernel:
    case Table::Memcpy:
    case Table::Memset:
    case Table::Sync:
        mergeGpu(table, c);
        break;
    case Table::Runtime:
    case Table::Osrt:
        mergeCpu(table, c);
        break;
    case Table::Nvtx:
        mergeNvtx(c);
        break;
    }
    c = Chunk{}; // release as we go
}

void ChunkMerger::registerChunkTables(const Chunk &c)
{
    m_configMap.clear();
    for (const LaunchConfig &lc : c.configs)
        m_configMap.push_back(m_b.launchConfig(lc));
    for (auto [full, shortName] : c.shortNames)
        if (m_shortSeen.emplace(full, shortName).second)
            m_b.setShortName(full, shortName);
}

void ChunkMerger::mergeGpu(Table table, const Chunk &c)
{
    for (size_t i = 0; i < c.start.size(); ++i) {
        const uint32_t pid = pidAt(c, i);
        switch (table) {
        case Table::Kernel: {
            const uint16_t lc = c.attr[i] < m_configMap.size() ? m_configMap[c.attr[i]] : kNoLaunchConfig;
            const TrackHandle h = track({TrackKind::Kernel, pid, c.id2[i], c.dev[i]});
            m_b.add(h, c.start[i], c.end[i], c.name[i], c.aux[i], lc);
            if (!m_nccl.kernelNames.empty() && m_nccl.kernelNames.count(c.name[i]))
                recordNccl(h, c, i);
            break;
        }
        case Table::Memcpy:
            m_b.addWithBytes(track({TrackKind::Memcpy, pid, c.id2[i], c.dev[i]}), c.start[i], c.end[i],
                             m_memcpyNames[std::min<uint16_t>(c.attr[i], 15)], c.aux[i], c.attr[i], c.extra[i]);
            break;
        case Table::Memset:
            m_b.addWithBytes(track({TrackKind::Memset, pid, c.id2[i], c.dev[i]}), c.start[i], c.end[i], m_memsetName,
                             c.aux[i], c.attr[i], c.extra[i]);
            break;
        default: // Sync
            m_b.add(track({TrackKind::Sync, pid, c.id2[i], c.dev[i]}), c.start[i], c.end[i],
                    m_syncNames[std::min<uint16_t>(c.attr[i], 7)], c.aux[i], c.attr[i]);
            break;
        }
    }
}

void ChunkMerger::mergeCpu(Table table, const Chunk &c)
{
    const TrackKind kind = table == Table::Runtime ? TrackKind::CudaApi : TrackKind::OsRuntime;
    for (size_t i = 0; i < c.start.size(); ++i) {
        const uint32_t pid = pidAt(c, i);
        const TrackHandle h = track({kind, pid, tidOf(c.gid[i]), 0});
        if (table == Table::Runtime)
            m_b.add(h, c.start[i], c.end[i], c.name[i], c.aux[i], c.attr[i]);
        else
            m_b.add(h, c.start[i], c.end[i], c.name[i], 0, c.attr[i]); // OsrtClass
    }
}

// An NCCL kernel's record: its call's communicator, op and size when a payload tied it to one
// (matched per communicator), else its name only (matched by order on its stream).
void ChunkMerger::recordNccl(TrackHandle h, const Chunk &c, size_t i)
{
    CollectiveRecord r;
    r.start = c.start[i];
    r.end = c.end[i];
    r.stream = c.id2[i];
    const auto it = m_nccl.calls.find(c.aux[i]);
    if (it == m_nccl.calls.end() || !it->second.hasComm) { // NCCL < 2.25.1 names no communicator
        r.op = c.name[i];
        r.source = CollectiveSource::KernelName;
        m_b.addCollective(h, r);
        return;
    }
    const NcclCall &call = it->second;
    char comm[24];
    std::snprintf(comm, sizeof comm, "0x%016llx", static_cast<unsigned long long>(call.comm));
    r.source = CollectiveSource::NvtxPayload;
    r.op = m_b.intern(call.op);
    r.groupName = m_b.intern(comm);
    r.groupSize = call.ranks;
    r.peer = call.peer;
    if (call.bytes >= 0) { // in bytes: one element of one byte
        r.dtype = m_b.intern("Byte");
        r.inNelems = r.outNelems = call.bytes;
    }
    m_b.addCollective(h, r);
}

uint16_t ChunkMerger::scopeFor(uint32_t pid, uint64_t scopeKey)
{
    const uint64_t cacheKey = (uint64_t(pid) << 40) ^ scopeKey;
    if (auto it = m_scopeCache.find(cacheKey); it != m_scopeCache.end())
        return it->second;
    const int64_t domain = int64_t(scopeKey >> 32);
    const uint32_t category = uint32_t(scopeKey);
    NvtxScope sc{pid, uint64_t(domain), kNoName, category, kNoName};
    if (auto d = m_names.domainNames.find({pid, domain}); d != m_names.domainNames.end())
        sc.domainName = d->second;
    if (auto k = m_names.categoryNames.find({pid, domain, category}); k != m_names.categoryNames.end())
        sc.categoryName = k->second;
    const uint16_t scope = m_b.nvtxScope(sc);
    m_scopeCache.emplace(cacheKey, scope);
    return scope;
}

void ChunkMerger::mergeNvtx(const Chunk &c)
{
    for (size_t i = 0; i < c.start.size(); ++i) {
        const uint32_t pid = pidAt(c, i);
        const TrackKind kind = nvtxKind(c.id2[i]);
        NameId name = c.name[i];
        if (name & kTextFlag)
            name = m_b.intern(c.texts[name & ~kTextFlag]);
        const uint16_t scope = scopeFor(pid, c.nvtxScope[i]);
        const int64_t end = kind == TrackKind::NvtxMark ? c.start[i] : c.end[i];
        const TrackHandle h = track({kind, pid, tidOf(c.gid[i]), 0});
        m_b.add(h, c.start[i], end, name, c.aux[i], scope);
        // A start/end range may end on another thread of the process.
        if (kind == TrackKind::NvtxStartEnd && c.extra[i] != 0 && tidOf(int64_t(c.extra[i])) != tidOf(c.gid[i]))
            m_b.setLastEndTid(h, tidOf(int64_t(c.extra[i])));
    }
}

} // namespace

void mergeChunks(const std::vector<Job> &jobs, std::vector<Chunk> &chunks, const NameTables &names, StoreBuilder &b,
                 ReportMeta &meta, const NcclLaunches &nccl)
{
    ChunkMerger merger(names, b, nccl);
    for (size_t j = 0; j < jobs.size(); ++j)
        merger.merge(jobs[j].table, chunks[j]);
    // PROCESSES lists every process on the box under system-wide sampling; keep ours.
    for (uint32_t pid : merger.pids()) {
        meta.pids.push_back(pid);
        if (auto it = names.processNames.find(pid); it != names.processNames.end())
            b.setProcessName(pid, it->second);
    }
}

} // namespace ps::core::trace::nsys
