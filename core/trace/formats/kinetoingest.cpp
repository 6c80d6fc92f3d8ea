#include "core/trace/formats/kinetoingest.h"

#include <algorithm>

namespace ps::core::trace::formats::kineto {

namespace {

// Phases whose ts (and X's dur) place an event on the timeline.
bool isTimedPhase(char ph)
{
    switch (ph) {
    case 'X':
    case 'B':
    case 'E':
    case 'i':
    case 'I':
    case 'R':
        return true;
    default:
        return false;
    }
}

// Key text of a pid/tid; a leading quote keeps string ids apart from numeric ones.
std::string idText(const Id &id)
{
    if (id.numeric)
        return std::to_string(id.num);
    std::string s(1, '"');
    s.append(id.str);
    return s;
}

uint64_t flowKey(uint32_t pid, uint32_t tid, int64_t ts)
{
    uint64_t h = uint64_t(ts) * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t(pid) << 32 | tid) + 0x7F4A7C15ull + (h << 6) + (h >> 2);
    return h;
}

uint16_t memcpyKind(std::string_view name)
{
    // Kineto names copies "Memcpy HtoD (Pageable -> Device)"; codes as ENUM_CUDA_MEMCPY_OPER.
    if (name.find("HtoD") != std::string_view::npos)
        return 1;
    if (name.find("DtoH") != std::string_view::npos)
        return 2;
    if (name.find("DtoD") != std::string_view::npos)
        return 8;
    if (name.find("HtoH") != std::string_view::npos)
        return 9;
    if (name.find("PtoP") != std::string_view::npos)
        return 10;
    return 0;
}

uint16_t syncType(std::string_view name)
{
    if (name.find("Wait") != std::string_view::npos)
        return 2;
    if (name.find("Event") != std::string_view::npos)
        return 1;
    if (name.find("Stream") != std::string_view::npos)
        return 3;
    if (name.find("Context") != std::string_view::npos || name.find("Device") != std::string_view::npos)
        return 4;
    return 0;
}

} // namespace

void Ingest::complete(const Event &ev, Cat cat, int64_t start, int64_t end)
{
    m_minTs = std::min(m_minTs, start);
    if (isGpuCat(cat)) {
        const uint32_t kpid = uint32_t(ev.pid.numeric ? ev.pid.num : 0);
        m_gpuPids.insert(kpid);
        const uint32_t stream = uint32_t(ev.stream ? *ev.stream : ev.tid.numeric ? ev.tid.num : 0);
        const uint32_t device = uint32_t(ev.device ? *ev.device : kpid);
        uint16_t attr = 0;
        if (cat == Cat::Kernel)
            attr = ev.hasLaunch ? m_b.launchConfig(ev.launch) : kNoLaunchConfig;
        else if (cat == Cat::Memcpy)
            attr = memcpyKind(ev.name);
        else if (cat == Cat::Sync)
            attr = syncType(ev.name);
        m_gpu.push_back({start, end, m_b.intern(ev.name), ev.correlation, kpid, stream, device, cat, attr, ev.bytes,
                         cat == Cat::Kernel ? collectiveOf(ev, start, end, stream) : UINT32_MAX});
        return;
    }
    const uint32_t pid = cpuPid(ev.pid);
    const uint32_t tid = cpuTid(ev.pid, ev.tid);
    if (ev.pid.numeric)
        ++m_cpuEvents[pid];
    if (cat == Cat::Runtime || cat == Cat::Driver) {
        m_api.push_back({start, end, m_b.intern(ev.name), pid, tid, ev.correlation,
                         uint16_t(cat == Cat::Runtime ? ApiClass::Runtime : ApiClass::Driver)});
        return;
    }
    m_b.add(track({TrackKind::NvtxPushPop, pid, tid, 0}), start, end, m_b.intern(ev.name), 0, scope(pid, ev.cat));
    count(TrackKind::NvtxPushPop);
}

// The record of a collective kernel: c10d's args when the kernel has them, else its NCCL/RCCL
// name alone (HTA's sampled ranks); UINT32_MAX for any other kernel.
uint32_t Ingest::collectiveOf(const Event &ev, int64_t start, int64_t end, uint32_t stream)
{
    const CollectiveArgs &a = ev.collective;
    CollectiveRecord r;
    if (a.any()) {
        r.op = m_b.intern(a.op);
        r.groupName = m_b.intern(a.groupName);
        r.groupDesc = m_b.intern(a.groupDesc);
        r.groupRanks = m_b.intern(a.groupRanks);
        r.dtype = m_b.intern(a.dtype);
        r.inSplit = m_b.intern(a.inSplit);
        r.outSplit = m_b.intern(a.outSplit);
        r.inNelems = a.inNelems;
        r.outNelems = a.outNelems;
        r.seq = a.seq;
        r.groupSize = int32_t(std::clamp<int64_t>(a.groupSize, -1, INT32_MAX));
        r.peer = int32_t(std::clamp<int64_t>(a.peer, -1, INT32_MAX));
        r.source = CollectiveSource::KernelArgs;
    } else if (const std::string_view op = collectiveOpOfKernel(ev.name); !op.empty()) {
        r.op = m_b.intern(op);
        r.source = CollectiveSource::KernelName;
    } else {
        return UINT32_MAX;
    }
    r.start = start;
    r.end = end;
    r.stream = stream;
    m_collectives.push_back(r);
    return uint32_t(m_collectives.size() - 1);
}

void Ingest::event(Event &ev)
{
    const Cat cat = catOf(ev.cat);
    if (ev.badTime && isTimedPhase(ev.ph)) {
        ++badTimes;
        return;
    }
    switch (ev.ph) {
    case 'X':
        if (!ev.ts) {
            ++malformed;
            return;
        }
        // Both plausible (badTime), so the sum fits; a negative dur is clipped, and counted, later.
        complete(ev, cat, *ev.ts, *ev.ts + ev.dur.value_or(0));
        return;
    case 'B': {
        if (!ev.ts) {
            ++malformed;
            return;
        }
        auto &stack = m_open[{idText(ev.pid), idText(ev.tid)}];
        stack.push_back(
            {ev, std::string(ev.cat), std::string(ev.name), std::string(ev.pid.str), std::string(ev.tid.str)});
        stack.back().own();
        return;
    }
    case 'E': {
        auto it = m_open.find({idText(ev.pid), idText(ev.tid)});
        if (it == m_open.end() || it->second.empty() || !ev.ts) {
            ++malformed;
            return;
        }
        OpenBegin ob = std::move(it->second.back());
        it->second.pop_back();
        ob.own();
        complete(ob.ev, catOf(ob.cat), *ob.ev.ts, *ev.ts); // an E before its B: clipped, and counted, later
        return;
    }
    case 'i':
    case 'I':
    case 'R': {
        if (!ev.ts) {
            ++malformed;
            return;
        }
        m_minTs = std::min(m_minTs, *ev.ts);
        const uint32_t pid = cpuPid(ev.pid);
        const uint32_t tid = cpuTid(ev.pid, ev.tid);
        m_b.add(track({TrackKind::NvtxMark, pid, tid, 0}), *ev.ts, *ev.ts, m_b.intern(ev.name), 0, scope(pid, ev.cat));
        count(TrackKind::NvtxMark);
        memorySample(ev);
        return;
    }
    case 'M':
        if (ev.pid.numeric && ev.name == "process_name" && !ev.argName.empty())
            m_processNames[uint32_t(ev.pid.num)] = std::string(ev.argName);
        else if (ev.pid.numeric && ev.tid.numeric && ev.name == "thread_name" && !ev.argName.empty())
            m_threadNames[{uint32_t(ev.pid.num), uint32_t(ev.tid.num)}] = std::string(ev.argName);
        return;
    case 's':
    case 'f':
    case 't':
        if (cat == Cat::Ac2g && ev.ts && ev.pid.numeric && ev.tid.numeric) {
            const uint64_t k = flowKey(uint32_t(ev.pid.num), uint32_t(ev.tid.num), *ev.ts);
            (ev.ph == 's' ? m_flowStart : m_flowEnd).emplace_back(k, uint32_t(ev.flowId));
        }
        return;
    default:
        ++skippedPhases[ev.ph ? ev.ph : '?'];
        return;
    }
}

// A "[memory]" instant of a device (not the CPU, c10::DeviceType 0) is a sample of the caching
// allocator's total; its mark stays on the CPU thread as well.
void Ingest::memorySample(const Event &ev)
{
    if (ev.name != "[memory]" || !ev.totalAllocated || ev.memoryDeviceType <= 0)
        return;
    const uint32_t device = uint32_t(std::max<int64_t>(0, ev.memoryDevice.value_or(0)));
    m_memory.series(device, "torch allocated").add(*ev.ts, *ev.totalAllocated);
}

void Ingest::finish()
{
    std::move(m_memory).appendTo(m_meta.memory);
    closeOpenBegins();
    resolveCorrelations();
    std::unordered_map<uint32_t, uint32_t> owner; // correlation -> CPU pid
    owner.reserve(m_api.size());
    for (const PendingApi &a : m_api) {
        if (a.corr != 0)
            owner.emplace(a.corr, a.pid);
        m_b.add(track({TrackKind::CudaApi, a.pid, a.tid, 0}), a.start, a.end, a.name, a.corr, a.attr);
        count(TrackKind::CudaApi);
    }
    const std::optional<uint32_t> mainPid = mainProcess();
    for (const PendingGpu &g : m_gpu) {
        uint32_t pid = mainPid.value_or(g.kpid);
        if (auto it = owner.find(g.corr); g.corr != 0 && it != owner.end())
            pid = it->second;
        addGpu(g, pid);
    }
    nameProcessesAndThreads();
}

// B events still open at the end of the file are closed where they began.
void Ingest::closeOpenBegins()
{
    for (auto &[key, stack] : m_open) {
        for (OpenBegin &ob : stack) {
            ob.own();
            complete(ob.ev, catOf(ob.cat), *ob.ev.ts, *ob.ev.ts);
            ++malformed;
        }
    }
}

// Correlation ids: args.correlation, else the ac2g flow that starts/ends on the event. Kineto
// writes args.correlation on both sides; the flows are only needed when it does not.
void Ingest::resolveCorrelations()
{
    using Flows = std::vector<std::pair<uint64_t, uint32_t>>;
    auto flowId = [](const Flows &flows, uint64_t key) {
        auto it = std::lower_bound(flows.begin(), flows.end(), std::pair<uint64_t, uint32_t>{key, 0});
        return it != flows.end() && it->first == key ? it->second : 0u;
    };
    if (std::any_of(m_api.begin(), m_api.end(), [](const PendingApi &a) { return !a.corr; })) {
        std::sort(m_flowStart.begin(), m_flowStart.end());
        for (PendingApi &a : m_api)
            if (a.corr == 0)
                a.corr = flowId(m_flowStart, flowKey(a.pid, a.tid, a.start));
    }
    if (std::any_of(m_gpu.begin(), m_gpu.end(), [](const PendingGpu &g) { return !g.corr; })) {
        std::sort(m_flowEnd.begin(), m_flowEnd.end());
        for (PendingGpu &g : m_gpu)
            if (g.corr == 0)
                g.corr = flowId(m_flowEnd, flowKey(g.kpid, g.stream, g.start));
    }
    m_flowStart = {};
    m_flowEnd = {};
}

// The process with the most CPU events (the lowest pid on a tie); none without CPU events.
std::optional<uint32_t> Ingest::mainProcess() const
{
    uint32_t mainPid = 0;
    size_t most = 0;
    for (auto [pid, n] : m_cpuEvents)
        if (n > most || (n == most && pid < mainPid)) {
            most = n;
            mainPid = pid;
        }
    return most ? std::optional<uint32_t>(mainPid) : std::nullopt;
}

void Ingest::addGpu(const PendingGpu &g, uint32_t pid)
{
    switch (g.cat) {
    case Cat::Kernel: {
        const TrackHandle t = track({TrackKind::Kernel, pid, g.stream, g.device});
        m_b.add(t, g.start, g.end, g.name, g.corr, g.attr);
        if (g.collective != UINT32_MAX)
            m_b.addCollective(t, m_collectives[g.collective]);
        count(TrackKind::Kernel);
        break;
    }
    case Cat::Memcpy:
        m_b.addWithBytes(track({TrackKind::Memcpy, pid, g.stream, g.device}), g.start, g.end, g.name, g.corr, g.attr,
                         g.bytes);
        count(TrackKind::Memcpy);
        break;
    case Cat::Memset:
        m_b.addWithBytes(track({TrackKind::Memset, pid, g.stream, g.device}), g.start, g.end, g.name, g.corr, g.attr,
                         g.bytes);
        count(TrackKind::Memset);
        break;
    case Cat::Sync:
        m_b.add(track({TrackKind::Sync, pid, g.stream, g.device}), g.start, g.end, g.name, g.corr, g.attr);
        count(TrackKind::Sync);
        break;
    default: { // gpu_user_annotation
        const uint32_t lane = 0xF0000000u | ((g.device & 0xFF) << 20) | (g.stream & 0xFFFFF);
        m_b.add(track({TrackKind::NvtxStartEnd, pid, lane, 0}), g.start, g.end, g.name, 0,
                scope(pid, "gpu_user_annotation"));
        m_b.setThreadName(
            pid, lane,
            m_b.intern("GPU " + std::to_string(g.device) + " stream " + std::to_string(g.stream) + " annotations"));
        count(TrackKind::NvtxStartEnd);
        break;
    }
    }
}

void Ingest::nameProcessesAndThreads()
{
    std::set<uint32_t> pids;
    for (auto [pid, n] : m_cpuEvents)
        pids.insert(pid);
    if (pids.empty() && !m_gpu.empty())
        pids.insert(m_gpuPids.begin(), m_gpuPids.end());
    m_gpu = {};
    m_api = {};
    m_collectives = {};
    m_meta.pids.assign(pids.begin(), pids.end());
    for (uint32_t pid : pids)
        if (auto it = m_processNames.find(pid); it != m_processNames.end())
            m_b.setProcessName(pid, m_b.intern(it->second));
    for (auto &[key, name] : m_threadNames)
        if (pids.count(key.first))
            m_b.setThreadName(key.first, key.second, m_b.intern(name));
    if (!m_pseudoProcess.empty())
        m_b.setProcessName(0, m_b.intern(m_pseudoProcess));
    for (auto &[name, tid] : m_pseudoTids)
        m_b.setThreadName(0, tid, m_b.intern(name));
}

} // namespace ps::core::trace::formats::kineto
