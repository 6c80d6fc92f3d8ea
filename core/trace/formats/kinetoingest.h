#pragma once
// Kineto ingest: decoded events into the StoreBuilder. CPU ranges and marks go in at once; GPU
// work and runtime/driver calls wait for finish(), which correlates them (args.correlation, else
// the ac2g flows) so that GPU work is stored under the CPU process that launched it.

#include "core/trace/formats/kinetoevent.h"
#include "core/trace/store/report.h"
#include "core/trace/store/storebuilder.h"
#include "core/trace/store/tracklookup.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ps::core::trace::formats::kineto {

struct PendingGpu
{
    int64_t start, end;
    NameId name;
    uint32_t corr;
    uint32_t kpid, stream, device;
    Cat cat;
    uint16_t attr;
    uint64_t bytes;
    uint32_t collective = UINT32_MAX; // index into Ingest's collective records
};

struct PendingApi
{
    int64_t start, end;
    NameId name;
    uint32_t pid, tid, corr;
    uint16_t attr;
};

struct OpenBegin
{
    Event ev; // its strings point at the owned copies below (the batch text is gone by E)
    std::string cat, name, pid, tid;
    void own()
    {
        ev.cat = cat;
        ev.name = name;
        ev.pid.str = pid;
        ev.tid.str = tid;
        ev.argName = {};
        ev.collective = {}; // its views die with the batch; the kernel's name still says NCCL
    }
};

class Ingest : public EventSink
{
public:
    Ingest(StoreBuilder &b, ReportMeta &meta) : m_b(b), m_meta(meta) {}

    void event(Event &ev) override;
    void finish();

    size_t malformed = 0;
    // Events dropped because their ts or dur is not a possible time (Event::badTime).
    size_t badTimes = 0;
    std::map<char, size_t> skippedPhases;

private:
    uint32_t cpuPid(const Id &pid)
    {
        if (pid.numeric)
            return uint32_t(pid.num);
        if (!pid.str.empty() && m_pseudoProcess.empty())
            m_pseudoProcess = std::string(pid.str);
        return 0;
    }
    uint32_t cpuTid(const Id &pid, const Id &tid)
    {
        if (tid.numeric && pid.numeric)
            return uint32_t(tid.num);
        const std::string s = tid.numeric ? std::to_string(tid.num) : std::string(tid.str);
        auto it = m_pseudoTids.find(s);
        if (it == m_pseudoTids.end())
            it = m_pseudoTids.emplace(s, uint32_t(m_pseudoTids.size() + 1)).first;
        return it->second;
    }
    uint16_t scope(uint32_t pid, std::string_view cat)
    {
        // Most events repeat the previous event's process and category.
        if (m_haveLastScope && pid == m_lastScopePid && cat == m_lastScopeCat)
            return m_lastScope;
        m_lastScope = scopeSlow(pid, cat);
        m_lastScopePid = pid;
        m_lastScopeCat.assign(cat);
        m_haveLastScope = true;
        return m_lastScope;
    }
    uint16_t scopeSlow(uint32_t pid, std::string_view cat)
    {
        auto key = std::pair{pid, std::string(cat)};
        if (auto it = m_scopes.find(key); it != m_scopes.end())
            return it->second;
        auto d = m_domainIds.find(key.second);
        if (d == m_domainIds.end())
            d = m_domainIds.emplace(key.second, uint64_t(m_domainIds.size() + 1)).first;
        const NameId dn = m_b.intern(cat.empty() ? std::string_view("(no category)") : cat);
        // Kineto's "cat" is a category, not an NVTX domain: it labels the range but does not
        // prefix its name in nvtx_sum (HTA and the PyTorch profiler show the bare names).
        const uint16_t s = m_b.nvtxScope({pid, d->second, kNoName, uint32_t(d->second), dn});
        m_scopes.emplace(std::move(key), s);
        return s;
    }
    void complete(const Event &ev, Cat cat, int64_t start, int64_t end);
    void closeOpenBegins();
    void resolveCorrelations();
    std::optional<uint32_t> mainProcess() const;
    void addGpu(const PendingGpu &g, uint32_t pid);
    void nameProcessesAndThreads();
    void count(TrackKind k) { ++m_meta.fileCounts[size_t(k)]; }
    void memorySample(const Event &ev);
    uint32_t collectiveOf(const Event &ev, int64_t start, int64_t end, uint32_t stream);

    StoreBuilder &m_b;
    ReportMeta &m_meta;
    TrackLookup track{m_b};
    std::string m_pseudoProcess;
    MemorySeriesSet m_memory; // "[memory]" samples by device
    std::map<std::string, uint32_t> m_pseudoTids;
    std::map<std::pair<uint32_t, std::string>, uint16_t> m_scopes;
    bool m_haveLastScope = false;
    uint32_t m_lastScopePid = 0;
    std::string m_lastScopeCat;
    uint16_t m_lastScope = 0;
    std::map<std::string, uint64_t> m_domainIds;
    std::vector<PendingGpu> m_gpu;
    std::vector<CollectiveRecord> m_collectives; // of kernels in m_gpu, until finish()
    std::vector<PendingApi> m_api;
    // ac2g flows as (key, id), searched only when an event lacks args.correlation (rare).
    std::vector<std::pair<uint64_t, uint32_t>> m_flowStart, m_flowEnd;
    std::unordered_map<uint32_t, size_t> m_cpuEvents; // pid -> events, for the main process
    std::map<std::pair<std::string, std::string>, std::vector<OpenBegin>> m_open;
    std::map<uint32_t, std::string> m_processNames;
    std::map<std::pair<uint32_t, uint32_t>, std::string> m_threadNames;
    std::set<uint32_t> m_gpuPids;
    int64_t m_minTs = INT64_MAX;

public:
    int64_t minTs() const { return m_minTs; }
};

} // namespace ps::core::trace::formats::kineto
