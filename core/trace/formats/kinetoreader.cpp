#include "core/trace/formats/kinetoreader.h"

#include "core/trace/formats/bytesource.h"
#include "core/trace/formats/formatutil.h"
#include "core/trace/formats/kinetotime.h"
#include "core/trace/formats/traceeventsplitter.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

namespace ps::core::trace {

using namespace formats;
namespace od = simdjson::ondemand;

namespace {

// Categories the reader distinguishes; everything else is Other (a range).
enum class Cat : uint8_t {
    Other,
    CpuOp,
    UserAnnotation,
    PythonFunction,
    Trace,
    Runtime,
    Driver,
    Kernel,
    Memcpy,
    Memset,
    Sync,
    GpuAnnotation,
    Ac2g,
};

Cat catOf(std::string_view c)
{
    switch (c.size()) {
    case 4:
        return c == "ac2g" ? Cat::Ac2g : Cat::Other;
    case 5:
        return c == "Trace" ? Cat::Trace : Cat::Other;
    case 6:
        return c == "cpu_op" ? Cat::CpuOp : c == "kernel" ? Cat::Kernel : Cat::Other;
    case 9:
        return c == "cuda_sync" ? Cat::Sync : Cat::Other;
    case 10:
        return c == "gpu_memcpy" ? Cat::Memcpy : c == "gpu_memset" ? Cat::Memset : Cat::Other;
    case 11:
        return c == "cuda_driver" ? Cat::Driver : Cat::Other;
    case 12:
        return c == "cuda_runtime" ? Cat::Runtime : Cat::Other;
    case 15:
        return c == "user_annotation" ? Cat::UserAnnotation : c == "python_function" ? Cat::PythonFunction : Cat::Other;
    case 19:
        return c == "gpu_user_annotation" ? Cat::GpuAnnotation : Cat::Other;
    default:
        return Cat::Other;
    }
}

bool isGpuCat(Cat c)
{
    return c == Cat::Kernel || c == Cat::Memcpy || c == Cat::Memset || c == Cat::Sync || c == Cat::GpuAnnotation;
}

// A pid or tid: Kineto writes ints for OS ids and GPU device/stream, strings for profiler spans.
struct Id
{
    bool numeric = true;
    int64_t num = 0;
    std::string_view str;
};

struct Event
{
    char ph = 0;
    bool hasCat = false;
    std::string_view cat, name;
    Id pid, tid;
    std::optional<int64_t> ts, dur;
    uint64_t flowId = 0;
    bool bindEnclosing = false;
    // args
    uint32_t correlation = 0;
    std::optional<int64_t> device, stream;
    uint64_t bytes = 0;
    LaunchConfig launch;
    bool hasLaunch = false;
    std::string_view argName; // M events
};

struct PendingGpu
{
    int64_t start, end;
    NameId name;
    uint32_t corr;
    uint32_t kpid, stream, device;
    Cat cat;
    uint16_t attr;
    uint64_t bytes;
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
    }
};

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

std::string_view rawKey(od::field &f)
{
    const char *p = f.key().raw();
    const void *q = std::memchr(p, '"', 64);
    return q ? std::string_view(p, size_t(static_cast<const char *>(q) - p)) : std::string_view();
}

simdjson::error_code readId(od::value v, Id &out)
{
    od::json_type t;
    if (auto e = v.type().get(t))
        return e;
    if (t == od::json_type::string) {
        out.numeric = false;
        if (auto e = v.get_string().get(out.str))
            return e;
        // Numeric strings are ids too.
        int64_t n = 0;
        bool digits = !out.str.empty() && out.str.size() < 19;
        for (char c : out.str)
            digits = digits && c >= '0' && c <= '9';
        if (digits) {
            for (char c : out.str)
                n = n * 10 + (c - '0');
            out.numeric = true;
            out.num = n;
        }
        return simdjson::SUCCESS;
    }
    out.numeric = true;
    int64_t n = 0;
    if (v.get_int64().get(n) == simdjson::SUCCESS) {
        out.num = n;
        return simdjson::SUCCESS;
    }
    double d = 0;
    if (auto e = v.get_double().get(d))
        return e;
    out.num = int64_t(d);
    return simdjson::SUCCESS;
}

uint32_t launchDim(od::value v, uint32_t *xyz)
{
    od::array a;
    if (v.get_array().get(a))
        return 0;
    uint32_t n = 0;
    for (auto x : a) {
        int64_t d = 0;
        if (x.get_int64().get(d))
            return n;
        if (n < 3)
            xyz[n] = uint32_t(d);
        ++n;
    }
    return n;
}

simdjson::error_code readArgs(od::value v, Event &ev)
{
    od::object args;
    if (auto e = v.get_object().get(args))
        return e;
    for (auto fr : args) {
        od::field f;
        if (auto e = std::move(fr).get(f))
            return e;
        const std::string_view k = rawKey(f);
        if (k == "correlation") {
            int64_t c = 0;
            if (f.value().get_int64().get(c) == simdjson::SUCCESS)
                ev.correlation = uint32_t(c);
        } else if (k == "device") {
            int64_t d = 0;
            if (f.value().get_int64().get(d) == simdjson::SUCCESS)
                ev.device = d;
        } else if (k == "stream") {
            int64_t s = 0;
            if (f.value().get_int64().get(s) == simdjson::SUCCESS)
                ev.stream = s;
        } else if (k == "bytes") {
            int64_t b = 0;
            if (f.value().get_int64().get(b) == simdjson::SUCCESS)
                ev.bytes = uint64_t(std::max<int64_t>(0, b));
        } else if (k == "grid") {
            uint32_t g[3] = {1, 1, 1};
            if (launchDim(f.value(), g) > 0) {
                ev.launch.gridX = g[0];
                ev.launch.gridY = g[1];
                ev.launch.gridZ = g[2];
                ev.hasLaunch = true;
            }
        } else if (k == "block") {
            uint32_t g[3] = {1, 1, 1};
            if (launchDim(f.value(), g) > 0) {
                ev.launch.blockX = g[0];
                ev.launch.blockY = g[1];
                ev.launch.blockZ = g[2];
                ev.hasLaunch = true;
            }
        } else if (k == "name") {
            std::string_view s;
            if (f.value().get_string().get(s) == simdjson::SUCCESS)
                ev.argName = s;
        }
    }
    return simdjson::SUCCESS;
}

simdjson::error_code readEvent(od::object obj, Event &ev)
{
    for (auto fr : obj) {
        od::field f;
        if (auto e = std::move(fr).get(f))
            return e;
        const std::string_view k = rawKey(f);
        if (k.empty())
            continue;
        switch (k[0]) {
        case 'p':
            if (k == "ph") {
                std::string_view s;
                if (auto e = f.value().get_string().get(s))
                    return e;
                ev.ph = s.empty() ? 0 : s[0];
            } else if (k == "pid") {
                if (auto e = readId(f.value(), ev.pid))
                    return e;
            }
            break;
        case 'c':
            if (k == "cat") {
                if (f.value().get_string().get(ev.cat) == simdjson::SUCCESS)
                    ev.hasCat = true;
            }
            break;
        case 'n':
            if (k == "name") {
                std::string_view s;
                if (f.value().get_string().get(s) == simdjson::SUCCESS)
                    ev.name = s;
            }
            break;
        case 't':
            if (k == "tid") {
                if (auto e = readId(f.value(), ev.tid))
                    return e;
            } else if (k == "ts") {
                ev.ts = microsTextToNs(f.value().raw_json_token());
            }
            break;
        case 'd':
            if (k == "dur") {
                ev.dur = microsTextToNs(f.value().raw_json_token());
            }
            break;
        case 'i':
            if (k == "id") {
                Id id;
                if (readId(f.value(), id) == simdjson::SUCCESS)
                    ev.flowId = id.numeric ? uint64_t(id.num) : std::hash<std::string_view>{}(id.str);
            }
            break;
        case 'b':
            if (k == "bp") {
                std::string_view s;
                if (f.value().get_string().get(s) == simdjson::SUCCESS)
                    ev.bindEnclosing = s == "e";
            }
            break;
        case 'a':
            if (k == "args") {
                // Only GPU work, API calls and metadata need args; skip them for the many CPU ops.
                const Cat c = ev.hasCat ? catOf(ev.cat) : Cat::Other;
                if (!ev.hasCat || ev.ph == 'M' || isGpuCat(c) || c == Cat::Runtime || c == Cat::Driver) {
                    if (auto e = readArgs(f.value(), ev))
                        return e;
                }
            }
            break;
        default:
            break;
        }
    }
    return simdjson::SUCCESS;
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

class Ingest
{
public:
    Ingest(StoreBuilder &b, ReportMeta &meta) : m_b(b), m_meta(meta) {}

    void event(Event &ev);
    void finish();

    size_t malformed = 0;
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
    TrackHandle track(const TrackKey &k)
    {
        if (!m_haveLast || !(k == m_lastKey)) {
            m_lastHandle = m_b.track(k);
            m_lastKey = k;
            m_haveLast = true;
        }
        return m_lastHandle;
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
    void count(TrackKind k) { ++m_meta.fileCounts[size_t(k)]; }

    StoreBuilder &m_b;
    ReportMeta &m_meta;
    TrackKey m_lastKey;
    TrackHandle m_lastHandle = 0;
    bool m_haveLast = false;
    std::string m_pseudoProcess;
    std::map<std::string, uint32_t> m_pseudoTids;
    std::map<std::pair<uint32_t, std::string>, uint16_t> m_scopes;
    bool m_haveLastScope = false;
    uint32_t m_lastScopePid = 0;
    std::string m_lastScopeCat;
    uint16_t m_lastScope = 0;
    std::map<std::string, uint64_t> m_domainIds;
    std::vector<PendingGpu> m_gpu;
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
        m_gpu.push_back({start, end, m_b.intern(ev.name), ev.correlation, kpid, stream, device, cat, attr, ev.bytes});
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

void Ingest::event(Event &ev)
{
    const Cat cat = catOf(ev.cat);
    switch (ev.ph) {
    case 'X':
        if (!ev.ts) {
            ++malformed;
            return;
        }
        complete(ev, cat, *ev.ts, *ev.ts + std::max<int64_t>(0, ev.dur.value_or(0)));
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
        complete(ob.ev, catOf(ob.cat), *ob.ev.ts, std::max(*ob.ev.ts, *ev.ts));
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

void Ingest::finish()
{
    for (auto &[key, stack] : m_open) {
        for (OpenBegin &ob : stack) {
            ob.own();
            complete(ob.ev, catOf(ob.cat), *ob.ev.ts, *ob.ev.ts);
            ++malformed;
        }
    }
    // Correlation ids: args.correlation, else the ac2g flow that starts/ends on the event.
    // Kineto writes args.correlation on both sides; the flows are only needed when it does not.
    const bool apiNeedsFlows = std::any_of(m_api.begin(), m_api.end(), [](const PendingApi &a) { return !a.corr; });
    const bool gpuNeedsFlows = std::any_of(m_gpu.begin(), m_gpu.end(), [](const PendingGpu &g) { return !g.corr; });
    if (apiNeedsFlows)
        std::sort(m_flowStart.begin(), m_flowStart.end());
    else
        m_flowStart = {};
    if (gpuNeedsFlows)
        std::sort(m_flowEnd.begin(), m_flowEnd.end());
    else
        m_flowEnd = {};
    auto flowId = [](const std::vector<std::pair<uint64_t, uint32_t>> &flows, uint64_t key) {
        auto it = std::lower_bound(flows.begin(), flows.end(), std::pair<uint64_t, uint32_t>{key, 0});
        return it != flows.end() && it->first == key ? it->second : 0u;
    };
    std::unordered_map<uint32_t, uint32_t> owner; // correlation -> CPU pid
    owner.reserve(m_api.size());
    for (PendingApi &a : m_api) {
        if (a.corr == 0)
            a.corr = flowId(m_flowStart, flowKey(a.pid, a.tid, a.start));
        if (a.corr != 0)
            owner.emplace(a.corr, a.pid);
        m_b.add(track({TrackKind::CudaApi, a.pid, a.tid, 0}), a.start, a.end, a.name, a.corr, a.attr);
        count(TrackKind::CudaApi);
    }
    uint32_t mainPid = 0;
    size_t most = 0;
    for (auto [pid, n] : m_cpuEvents)
        if (n > most || (n == most && pid < mainPid)) {
            most = n;
            mainPid = pid;
        }
    for (PendingGpu &g : m_gpu) {
        if (g.corr == 0)
            g.corr = flowId(m_flowEnd, flowKey(g.kpid, g.stream, g.start));
        uint32_t pid = most ? mainPid : g.kpid;
        if (auto it = owner.find(g.corr); g.corr != 0 && it != owner.end())
            pid = it->second;
        switch (g.cat) {
        case Cat::Kernel:
            m_b.add(track({TrackKind::Kernel, pid, g.stream, g.device}), g.start, g.end, g.name, g.corr, g.attr);
            count(TrackKind::Kernel);
            break;
        case Cat::Memcpy:
            m_b.addWithBytes(track({TrackKind::Memcpy, pid, g.stream, g.device}), g.start, g.end, g.name, g.corr,
                             g.attr, g.bytes);
            count(TrackKind::Memcpy);
            break;
        case Cat::Memset:
            m_b.addWithBytes(track({TrackKind::Memset, pid, g.stream, g.device}), g.start, g.end, g.name, g.corr,
                             g.attr, g.bytes);
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
    std::set<uint32_t> pids;
    for (auto [pid, n] : m_cpuEvents)
        pids.insert(pid);
    if (pids.empty() && !m_gpu.empty())
        pids.insert(m_gpuPids.begin(), m_gpuPids.end());
    m_gpu = {};
    m_api = {};
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

struct Header
{
    std::optional<int64_t> baseTimeNs;
    std::optional<int> rank;
    std::string schemaVersion;
    std::string host;
    std::vector<GpuInfo> gpus;
};

std::string parseHeader(const std::string &text, Header &h)
{
    simdjson::padded_string padded(text);
    od::parser parser;
    od::document doc;
    if (auto e = parser.iterate(padded).get(doc))
        return simdjson::error_message(e);
    od::object top;
    if (doc.get_object().get(top))
        return {}; // a bare array has no header
    for (auto fr : top) {
        od::field f;
        if (auto e = std::move(fr).get(f))
            return simdjson::error_message(e);
        std::string_view k;
        if (f.unescaped_key().get(k))
            continue;
        if (k == "baseTimeNanoseconds") {
            int64_t v = 0;
            uint64_t u = 0;
            if (f.value().get_int64().get(v) == simdjson::SUCCESS)
                h.baseTimeNs = v;
            else if (f.value().get_uint64().get(u) == simdjson::SUCCESS && u <= uint64_t(INT64_MAX))
                h.baseTimeNs = int64_t(u);
        } else if (k == "schemaVersion") {
            std::string_view raw = f.value().raw_json_token();
            while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r'))
                raw.remove_suffix(1);
            h.schemaVersion = std::string(raw);
        } else if (k == "distributedInfo") {
            od::object di;
            if (f.value().get_object().get(di))
                continue;
            int64_t r = 0;
            if (di.find_field_unordered("rank").get_int64().get(r) == simdjson::SUCCESS)
                h.rank = int(r);
        } else if (k == "deviceProperties") {
            od::array arr;
            if (f.value().get_array().get(arr))
                continue;
            for (auto dv : arr) {
                od::object d;
                if (dv.get_object().get(d))
                    continue;
                GpuInfo g;
                int64_t id = 0;
                std::string_view name;
                for (auto dfr : d) {
                    od::field df;
                    if (std::move(dfr).get(df))
                        break;
                    std::string_view dk;
                    if (df.unescaped_key().get(dk))
                        continue;
                    if (dk == "id" && df.value().get_int64().get(id) == simdjson::SUCCESS)
                        g.id = uint32_t(id);
                    else if (dk == "name" && df.value().get_string().get(name) == simdjson::SUCCESS)
                        g.name = std::string(name);
                }
                h.gpus.push_back(std::move(g));
            }
        } else if (k == "hostname" || k == "host_name") {
            std::string_view s;
            if (f.value().get_string().get(s) == simdjson::SUCCESS)
                h.host = std::string(s);
        }
    }
    return {};
}

} // namespace

bool KinetoReader::probe(std::string_view path, std::string_view head) const
{
    if (endsWith(path, ".json") || endsWith(path, ".json.gz"))
        return true;
    if (head.size() >= 2 && uint8_t(head[0]) == 0x1f && uint8_t(head[1]) == 0x8b)
        return false; // gzip of something not named as JSON
    const size_t first = head.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && (head[first] == '{' || head[first] == '[') &&
           head.find("\"traceEvents\"") != std::string_view::npos;
}

std::string KinetoReader::read(const std::string &path, StoreBuilder &b, ReportMeta &meta, const ReadContext &ctx) const
{
    std::optional<int> rank;
    return readWithRank(path, b, meta, ctx, rank);
}

std::string KinetoReader::readWithRank(const std::string &path, StoreBuilder &b, ReportMeta &meta,
                                       const ReadContext &ctx, std::optional<int> &rank) const
{
    meta.format = TraceFormat::KinetoJson;
    ByteSource src;
    if (std::string err = src.open(path); !err.empty())
        return err;
    Ingest ingest(b, meta);
    od::parser parser;
    std::string padded;
    std::string batchError;
    size_t batches = 0;
    TraceEventSplitter splitter;
    const std::string err = splitter.run(src, [&](std::string_view batch) {
        if (ctx.cancel && ctx.cancel->cancelled())
            return false;
        // "[" batch "]" plus the zeroed padding simdjson reads ahead into.
        padded.resize(batch.size() + 2 + simdjson::SIMDJSON_PADDING);
        padded[0] = '[';
        std::memcpy(padded.data() + 1, batch.data(), batch.size());
        padded[batch.size() + 1] = ']';
        std::memset(padded.data() + batch.size() + 2, 0, simdjson::SIMDJSON_PADDING);
        od::document doc;
        od::array arr;
        if (auto e = parser.iterate(padded.data(), batch.size() + 2, padded.size()).get(doc);
            e || (e = doc.get_array().get(arr))) {
            batchError = simdjson::error_message(e);
            return false;
        }
        for (auto item : arr) {
            od::object obj;
            if (auto e = item.get_object().get(obj)) {
                batchError = simdjson::error_message(e);
                return false;
            }
            Event ev;
            if (auto e = readEvent(obj, ev)) {
                batchError = simdjson::error_message(e);
                return false;
            }
            ingest.event(ev);
        }
        if (ctx.progress && (++batches % 4) == 0)
            ctx.progress(src.progress() * 0.95);
        return true;
    });
    if (!batchError.empty())
        return path + ": malformed JSON in traceEvents (" + batchError + ")";
    if (err == "cancelled")
        return path + ": cancelled";
    if (!err.empty())
        return path + ": " + err + (src.compressed() ? " (gzip)" : "") + "; expected a PyTorch profiler (Kineto) trace";
    ingest.finish();

    Header h;
    if (std::string herr = parseHeader(splitter.header(), h); !herr.empty())
        meta.warnings.push_back("top-level metadata unreadable (" + herr + ")");
    meta.schemaVersion = h.schemaVersion;
    meta.host = h.host;
    meta.gpus = h.gpus;
    rank = h.rank;
    if (!rank) {
        const std::string name = path.substr(path.find_last_of('/') + 1);
        rank = numberAfter(name, "rank-");
        if (!rank)
            rank = numberAfter(name, "rank_");
    }
    meta.rank = rank;
    // Epoch timestamps are >= 1e14 µs (1973 on); relative ones are far smaller (spec 4).
    const bool absolute = ingest.minTs() != INT64_MAX && ingest.minTs() >= int64_t(1e17);
    if (absolute) {
        meta.utcStartNs = 0;
        if (h.baseTimeNs)
            meta.warnings.push_back("baseTimeNanoseconds present but timestamps are already epoch-based; "
                                    "the base is ignored");
    } else if (h.baseTimeNs) {
        meta.utcStartNs = *h.baseTimeNs;
    } else if (ingest.minTs() != INT64_MAX) {
        meta.warnings.push_back("relative timestamps without baseTimeNanoseconds: no UTC origin, align by start "
                                "or on an anchor");
    }
    if (ingest.malformed)
        meta.warnings.push_back(std::to_string(ingest.malformed) +
                                " trace events without a timestamp or with unmatched B/E were skipped or closed");
    for (auto [ph, n] : ingest.skippedPhases)
        meta.warnings.push_back(std::to_string(n) + " events of phase '" + std::string(1, ph) +
                                "' are not drawn (counters/async events are not read)");
    if (ctx.progress)
        ctx.progress(1.0);
    return {};
}

} // namespace ps::core::trace
