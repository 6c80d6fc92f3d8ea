#include "core/trace/formats/rocpdreader.h"

#include "core/trace/formats/formatutil.h"
#include "core/trace/read/readonlysqlite.h"
#include "core/trace/store/eventtimes.h"

#include <simdjson.h>
#include <sqlite3.h>

#include <algorithm>

#include <map>
#include <set>
#include <utility>

namespace ps::core::trace {

using namespace formats;

namespace {

// Resolves rocpd table names and their columns: the view when present, else the physical
// table with the DB's uuid suffix.
class Schema
{
public:
    Schema(const ReadOnlySqlite &db, const std::set<std::string> &tables, std::string uuid)
        : m_db(db), m_tables(tables), m_uuid(std::move(uuid))
    {
    }
    // Quoted table/view name, or "" when neither exists.
    std::string table(const std::string &base) const
    {
        if (m_tables.count(base))
            return "`" + base + "`";
        if (!m_uuid.empty() && m_tables.count(base + m_uuid))
            return "`" + base + m_uuid + "`";
        return {};
    }
    const std::set<std::string> &columns(const std::string &base)
    {
        auto it = m_columns.find(base);
        if (it != m_columns.end())
            return it->second;
        std::set<std::string> cols;
        std::string t = table(base);
        if (!t.empty())
            for (auto &c : m_db.columns(t.substr(1, t.size() - 2)))
                cols.insert(c);
        return m_columns.emplace(base, std::move(cols)).first->second;
    }
    bool has(const std::string &base, const char *col) { return columns(base).count(col) > 0; }

private:
    const ReadOnlySqlite &m_db;
    const std::set<std::string> &m_tables;
    std::string m_uuid;
    std::map<std::string, std::set<std::string>> m_columns;
};

// Builds "SELECT ... FROM <main> M LEFT JOIN ..." for one timeline table, picking each column
// from the row itself or (schema 4) from its track, and times inline or from rocpd_timestamp.
class Query
{
public:
    Query(Schema &s, std::string base) : m_s(s), m_base(std::move(base)) {}

    // Joins `base` AS alias ON alias.id = onExpr, plus alias.guid = partner.guid when both have
    // guid (always, in real rocpd files). Once per alias.
    void join(const std::string &base, const std::string &alias, const std::string &onExpr,
              const std::string &partnerBase, const std::string &partner)
    {
        if (m_aliases.count(alias) || m_s.table(base).empty() || onExpr == "NULL")
            return;
        m_aliases.insert(alias);
        m_joins += " LEFT JOIN " + m_s.table(base) + " " + alias + " ON " + alias + ".id = " + onExpr;
        if (m_s.has(base, "guid") && m_s.has(partnerBase, "guid"))
            m_joins += " AND " + alias + ".guid = " + partner + ".guid";
    }
    bool joined(const std::string &alias) const { return m_aliases.count(alias) > 0; }
    // Expression for a column of the row, or of its track (schema 4), or NULL.
    std::string col(const char *name)
    {
        if (m_s.has(m_base, name))
            return std::string("M.\"") + name + "\"";
        if (m_s.has(m_base, "track_id") && m_s.has("rocpd_track", name)) {
            join("rocpd_track", "TR", "M.track_id", m_base, "M");
            return std::string("TR.\"") + name + "\"";
        }
        return "NULL";
    }
    // Time: the inline column, or rocpd_timestamp.value through <idCol>.
    std::string time(const char *name, const char *idCol, const std::string &alias)
    {
        if (m_s.has(m_base, name))
            return std::string("M.\"") + name + "\"";
        if (m_s.has(m_base, idCol)) {
            join("rocpd_timestamp", alias, std::string("M.\"") + idCol + "\"", m_base, "M");
            return alias + ".value";
        }
        return "NULL";
    }
    // Process (P) and thread (T) OS ids of the row: ids into the info tables.
    std::pair<std::string, std::string> pidTid()
    {
        const std::string pid = col("pid"), tid = col("tid");
        join("rocpd_info_process", "P", pid, m_base, "M");
        join("rocpd_info_thread", "T", tid, m_base, "M");
        return {joined("P") ? "P.pid" : "NULL", joined("T") ? "T.tid" : "NULL"};
    }
    // Correlation columns of the row's event (E): correlation_id, stack_id, category (C).
    std::string eventColumns()
    {
        if (!m_s.has(m_base, "event_id"))
            return "NULL, NULL, NULL, NULL";
        join("rocpd_event", "E", "M.event_id", m_base, "M");
        join("rocpd_string", "C", "E.category_id", "rocpd_event", "E");
        std::string s = m_s.has("rocpd_event", "correlation_id") ? "E.correlation_id" : "NULL";
        s += m_s.has("rocpd_event", "stack_id") ? ", E.stack_id" : ", NULL";
        s += joined("C") ? ", C.string" : ", NULL";
        // roctx message; json_valid guards against malformed extdata aborting the query.
        s += m_s.has("rocpd_event", "extdata") && joined("C")
                 ? ", CASE WHEN C.string LIKE '%MARKER%' AND json_valid(E.extdata) THEN "
                   "json_extract(E.extdata, '$.message') END"
                 : ", NULL";
        return s;
    }
    std::string from() const { return " FROM " + m_s.table(m_base) + " M" + m_joins; }

private:
    Schema &m_s;
    std::string m_base;
    std::string m_joins;
    std::set<std::string> m_aliases;
};

bool isGpuAgent(std::string_view type)
{
    return type == "GPU";
}

uint16_t copyKind(bool srcGpu, bool dstGpu, int64_t srcAgent, int64_t dstAgent)
{
    if (!srcGpu && dstGpu)
        return 1; // HtoD
    if (srcGpu && !dstGpu)
        return 2; // DtoH
    if (srcGpu && dstGpu)
        return srcAgent == dstAgent ? 8 : 10; // DtoD : PtoP
    return 9;                                 // HtoH
}

struct Context
{
    const std::string &path;
    const ReadOnlySqlite &db;
    StoreBuilder &b;
    ReportMeta &meta;
    const ReadContext &ctx;
    std::set<uint32_t> pids;
    size_t rowsDone = 0, rowsTotal = 1;
    EventTimeAudit audit;

    bool poll()
    {
        if (++rowsDone % kPollRows != 0)
            return true;
        if (ctx.progress)
            ctx.progress(std::min(1.0, double(rowsDone) / double(rowsTotal)));
        return !(ctx.cancel && ctx.cancel->cancelled());
    }
    void count(TrackKind k) { ++meta.fileCounts[size_t(k)]; }
};

// Runs a statement row by row; returns "" or the error. Every statement selects the start first
// and, for events with one, the end at `endCol` (a single time: endCol 0); rows without usable
// times are dropped and counted under the table `what`.
template <typename Fn> std::string eachRow(Context &c, const std::string &sql, const char *what, int endCol, Fn fn)
{
    std::string error;
    SqliteStmt s = c.db.prepare(sql, error);
    if (!s.get())
        return error + " (reading " + what + ")";
    while (s.step()) {
        if (hasUsableTimes(s, 0, endCol))
            fn(s);
        else
            c.audit.dropped(what, 1);
        if (!c.poll())
            return c.path + ": cancelled";
    }
    if (s.stepCode() != SQLITE_DONE)
        return c.db.lastError() + " (reading " + what + "; the file may be truncated or corrupt)";
    return {};
}

// Event columns start at `at`: correlation_id, stack_id, category, message.
uint32_t correlationAt(const SqliteStmt &s, int at)
{
    const int64_t corr = s.isNull(at) ? 0 : s.int64(at);
    return uint32_t(corr != 0 ? corr : s.isNull(at + 1) ? 0 : s.int64(at + 1));
}

int64_t int64Or(const SqliteStmt &s, int col, int64_t fallback)
{
    return s.isNull(col) ? fallback : s.int64(col);
}

struct Agent
{
    bool gpu = false;
    uint32_t index = 0; // GPU index (type_index) for GPUs
};

// The table a track's events come from, for the warning about their impossible times.
std::string_view tableOfTrack(const TrackKey &k)
{
    return k.kind == TrackKind::Kernel   ? "rocpd_kernel_dispatch"
           : k.kind == TrackKind::Memcpy ? "rocpd_memory_copy"
                                         : "rocpd_region";
}

std::string readRegions(Context &c, Schema &sc)
{
    if (sc.table("rocpd_region").empty())
        return {};
    Query q(sc, "rocpd_region");
    const std::string start = q.time("start", "start_id", "TS"), end = q.time("end", "end_id", "TE");
    auto [pid, tid] = q.pidTid();
    q.join("rocpd_string", "S", "M.name_id", "rocpd_region", "M");
    const std::string event = q.eventColumns(); // adds joins: before from()
    const std::string sql = "SELECT " + start + ", " + end + ", " + (q.joined("S") ? "S.string" : "NULL") + ", " + pid +
                            ", " + tid + ", " + event + q.from();
    std::map<std::string, uint16_t, std::less<>> scopes;
    const NameId roctx = c.b.intern("roctx");
    return eachRow(c, sql, "rocpd_region", 1, [&](const SqliteStmt &s) {
        const int64_t t0 = int64Or(s, 0, 0), t1 = int64Or(s, 1, t0);
        const std::string_view api = s.text(2);
        const uint32_t p = uint32_t(int64Or(s, 3, 0)), t = uint32_t(int64Or(s, 4, 0));
        const uint32_t corr = correlationAt(s, 5);
        const std::string_view category = s.text(7);
        c.pids.insert(p);
        const bool marker = category.find("MARKER") != std::string_view::npos &&
                            category.find("NAME") == std::string_view::npos &&
                            category.find("CONTROL") == std::string_view::npos;
        if (!marker) {
            const uint16_t cls = uint16_t(category.rfind("HIP_RUNTIME", 0) == 0 ? ApiClass::Runtime
                                          : category.rfind("HSA", 0) == 0       ? ApiClass::Driver
                                                                                : ApiClass::Other);
            c.b.add(c.b.track({TrackKind::CudaApi, p, t, 0}), t0, t1, c.b.intern(api), corr, cls);
            c.count(TrackKind::CudaApi);
            return;
        }
        const NameId label = c.b.intern(s.isNull(8) ? api : s.text(8));
        // roctx has no domains: "roctx" labels the range's category, with no nvtx_sum prefix.
        const uint16_t scope = c.b.nvtxScope({p, 1, kNoName, 0, roctx});
        const TrackKind kind =
            api.find("Mark") != std::string_view::npos && t1 == t0 ? TrackKind::NvtxMark
            : api.find("Start") != std::string_view::npos || api.find("Stop") != std::string_view::npos
                ? TrackKind::NvtxStartEnd
                : TrackKind::NvtxPushPop;
        c.b.add(c.b.track({kind, p, t, 0}), t0, kind == TrackKind::NvtxMark ? t0 : t1, label, 0, scope);
        c.count(kind);
    });
}

std::string readKernels(Context &c, Schema &sc, const std::map<int64_t, Agent> &agents)
{
    if (sc.table("rocpd_kernel_dispatch").empty())
        return {};
    Query q(sc, "rocpd_kernel_dispatch");
    const std::string start = q.time("start", "start_id", "TS"), end = q.time("end", "end_id", "TE");
    auto [pid, tid] = q.pidTid();
    const std::string agent = q.col("agent_id"), queue = q.col("queue_id"), stream = q.col("stream_id");
    q.join("rocpd_info_kernel_symbol", "KS", "M.kernel_id", "rocpd_kernel_dispatch", "M");
    const bool ks = q.joined("KS");
    const std::string name = ks && sc.has("rocpd_info_kernel_symbol", "display_name")  ? "KS.display_name"
                             : ks && sc.has("rocpd_info_kernel_symbol", "kernel_name") ? "KS.kernel_name"
                                                                                       : "NULL";
    std::string geometry;
    for (const char *g :
         {"grid_size_x", "grid_size_y", "grid_size_z", "workgroup_size_x", "workgroup_size_y", "workgroup_size_z"})
        geometry += q.col(g) + ", ";
    const std::string event = q.eventColumns(); // adds joins: before from()
    const std::string sql = "SELECT " + start + ", " + end + ", " + name + ", " + pid + ", " + agent + ", " + queue +
                            ", " + stream + ", " + geometry + event + q.from();
    return eachRow(c, sql, "rocpd_kernel_dispatch", 1, [&](const SqliteStmt &s) {
        const int64_t t0 = int64Or(s, 0, 0), t1 = int64Or(s, 1, t0);
        const uint32_t p = uint32_t(int64Or(s, 3, 0));
        c.pids.insert(p);
        auto a = agents.find(int64Or(s, 4, -1));
        const uint32_t device = a != agents.end() ? a->second.index : uint32_t(int64Or(s, 4, 0));
        // Queues are the hardware lanes of rocprofv3's timeline; streams when there is no queue.
        const uint32_t lane = uint32_t(s.isNull(5) ? int64Or(s, 6, 0) : s.int64(5));
        const LaunchConfig lc{uint32_t(int64Or(s, 7, 0)),  uint32_t(int64Or(s, 8, 0)),  uint32_t(int64Or(s, 9, 0)),
                              uint32_t(int64Or(s, 10, 0)), uint32_t(int64Or(s, 11, 0)), uint32_t(int64Or(s, 12, 0))};
        c.b.add(c.b.track({TrackKind::Kernel, p, lane, device}), t0, t1, c.b.intern(s.text(2)), correlationAt(s, 13),
                c.b.launchConfig(lc));
        c.count(TrackKind::Kernel);
    });
}

std::string readCopies(Context &c, Schema &sc, const std::map<int64_t, Agent> &agents)
{
    if (sc.table("rocpd_memory_copy").empty())
        return {};
    Query q(sc, "rocpd_memory_copy");
    const std::string start = q.time("start", "start_id", "TS"), end = q.time("end", "end_id", "TE");
    auto [pid, tid] = q.pidTid();
    q.join("rocpd_string", "S", "M.name_id", "rocpd_memory_copy", "M");
    std::string cols;
    for (const char *g : {"src_agent_id", "dst_agent_id", "queue_id", "stream_id", "size"})
        cols += q.col(g) + ", ";
    const std::string event = q.eventColumns(); // adds joins: before from()
    const std::string sql = "SELECT " + start + ", " + end + ", " + (q.joined("S") ? "S.string" : "NULL") + ", " + pid +
                            ", " + cols + event + q.from();
    return eachRow(c, sql, "rocpd_memory_copy", 1, [&](const SqliteStmt &s) {
        const int64_t t0 = int64Or(s, 0, 0), t1 = int64Or(s, 1, t0);
        const uint32_t p = uint32_t(int64Or(s, 3, 0));
        c.pids.insert(p);
        const int64_t src = int64Or(s, 4, -1), dst = int64Or(s, 5, -1);
        auto sa = agents.find(src), da = agents.find(dst);
        const bool srcGpu = sa != agents.end() && sa->second.gpu, dstGpu = da != agents.end() && da->second.gpu;
        // The copy is drawn on the GPU that takes part (the destination when both do).
        const uint32_t device = dstGpu ? da->second.index : srcGpu ? sa->second.index : 0;
        const uint32_t lane = uint32_t(s.isNull(6) ? int64Or(s, 7, 0) : s.int64(6));
        c.b.addWithBytes(c.b.track({TrackKind::Memcpy, p, lane, device}), t0, t1, c.b.intern(s.text(2)),
                         correlationAt(s, 9), copyKind(srcGpu, dstGpu, src, dst), uint64_t(int64Or(s, 8, 0)));
        c.count(TrackKind::Memcpy);
    });
}

// roctxMark and other single markers: samples whose event category is a MARKER one.
std::string readMarks(Context &c, Schema &sc)
{
    if (sc.table("rocpd_sample").empty() || !sc.has("rocpd_sample", "event_id"))
        return {};
    Query q(sc, "rocpd_sample");
    const std::string ts = q.time("timestamp", "timestamp_id", "TS");
    auto [pid, tid] = q.pidTid();
    // The marker's name: the sample's own name_id (schema 4) or its track's (schema 3).
    std::string nameId = q.col("name_id");
    q.join("rocpd_string", "S", nameId, "rocpd_sample", "M");
    const std::string event = q.eventColumns(); // adds joins: before from()
    const std::string sql = "SELECT " + ts + ", " + (q.joined("S") ? "S.string" : "NULL") + ", " + pid + ", " + tid +
                            ", " + event + q.from();
    const NameId roctx = c.b.intern("roctx");
    return eachRow(c, sql, "rocpd_sample", 0, [&](const SqliteStmt &s) {
        const std::string_view category = s.text(6);
        if (category.find("MARKER") == std::string_view::npos)
            return; // counters and other samples are not timeline events
        const int64_t t0 = int64Or(s, 0, 0);
        const uint32_t p = uint32_t(int64Or(s, 2, 0)), t = uint32_t(int64Or(s, 3, 0));
        c.pids.insert(p);
        const NameId label = c.b.intern(s.isNull(7) ? s.text(1) : s.text(7));
        c.b.add(c.b.track({TrackKind::NvtxMark, p, t, 0}), t0, t0, label, 0, c.b.nvtxScope({p, 1, kNoName, 0, roctx}));
        c.count(TrackKind::NvtxMark);
    });
}

// Metadata: schema_version and the uuid that suffixes the physical tables.
std::map<std::string, std::string> readMetadata(const ReadOnlySqlite &db, const std::set<std::string> &tables)
{
    std::map<std::string, std::string> metadata;
    std::string name = tables.count("rocpd_metadata") ? "rocpd_metadata" : "";
    for (const auto &n : tables)
        if (name.empty() && n.rfind("rocpd_metadata_", 0) == 0)
            name = n;
    if (name.empty())
        return metadata;
    std::string error;
    SqliteStmt s = db.prepare("SELECT tag, value FROM `" + name + "`", error);
    while (s.get() && s.step())
        metadata[std::string(s.text(0))] = std::string(s.text(1));
    return metadata;
}

// Device memory per GPU agent: ALLOC adds its size, FREE subtracts the size allocated at its
// address (rocprofiler-sdk records frees with size 0), counting REAL memory only (VIRTUAL is an
// address reservation, SCRATCH the queues' private space).
std::string readAllocations(Context &c, Schema &sc, const std::map<int64_t, Agent> &agents)
{
    if (sc.table("rocpd_memory_allocate").empty())
        return {};
    Query q(sc, "rocpd_memory_allocate");
    const std::string start = q.time("start", "start_id", "TS");
    std::string cols;
    for (const char *g : {"agent_id", "type", "level", "address", "size"})
        cols += ", " + q.col(g);
    // Rows come in time order, so the running totals can be kept as they are read.
    MemorySeriesSet series;
    std::map<std::pair<uint32_t, int64_t>, int64_t> live; // (device, address) -> bytes
    const std::string sql = "SELECT " + start + cols + q.from() + " ORDER BY 1";
    std::string err = eachRow(c, sql, "rocpd_memory_allocate", 0, [&](const SqliteStmt &s) {
        auto a = agents.find(int64Or(s, 1, -1));
        const std::string_view type = s.text(2), level = s.text(3);
        if (a == agents.end() || !a->second.gpu || (!level.empty() && level != "REAL"))
            return;
        const uint32_t device = a->second.index;
        const std::pair key{device, int64Or(s, 4, 0)};
        int64_t delta = 0;
        if (type == "ALLOC" || type == "REALLOC") {
            const int64_t size = int64Or(s, 5, 0);
            delta = size - std::exchange(live[key], size);
        } else if (type == "FREE" || type == "RECLAIM") {
            auto it = live.find(key);
            delta = it == live.end() ? -int64Or(s, 5, 0) : -it->second;
            if (it != live.end())
                live.erase(it);
        } else {
            return;
        }
        series.series(device, "HIP device memory").addDelta(int64Or(s, 0, 0), delta);
    });
    std::move(series).appendTo(c.meta.memory);
    return err;
}

// The host name into meta, and the agents (CPU/GPU, index) by id; GPUs also into meta.gpus.
std::map<int64_t, Agent> readHostAndAgents(const ReadOnlySqlite &db, Schema &sc, ReportMeta &meta)
{
    std::string error;
    if (!sc.table("rocpd_info_node").empty() && sc.has("rocpd_info_node", "hostname")) {
        SqliteStmt s = db.prepare("SELECT hostname FROM " + sc.table("rocpd_info_node") + " LIMIT 1", error);
        if (s.get() && s.step())
            meta.host = std::string(s.text(0));
    }
    std::map<int64_t, Agent> agents;
    if (sc.table("rocpd_info_agent").empty())
        return agents;
    auto col = [&](const char *n, const char *fallback) {
        return sc.has("rocpd_info_agent", n) ? std::string("\"") + n + "\"" : std::string(fallback);
    };
    SqliteStmt s = db.prepare("SELECT id, " + col("type", "''") + ", " + col("type_index", "0") + ", " +
                                  col("product_name", "''") + ", " + col("name", "''") + " FROM " +
                                  sc.table("rocpd_info_agent") + " ORDER BY id",
                              error);
    while (s.get() && s.step()) {
        Agent a{isGpuAgent(s.text(1)), uint32_t(s.int64(2))};
        agents[s.int64(0)] = a;
        if (a.gpu)
            meta.gpus.push_back({a.index, std::string(s.text(3).empty() ? s.text(4) : s.text(3)), {}, {}});
    }
    return agents;
}

// Rows to read, for progress.
size_t countEventRows(const ReadOnlySqlite &db, Schema &sc)
{
    size_t rows = 1;
    std::string error;
    for (const char *t : {"rocpd_region", "rocpd_kernel_dispatch", "rocpd_memory_copy", "rocpd_sample"}) {
        if (sc.table(t).empty())
            continue;
        SqliteStmt s = db.prepare("SELECT count(*) FROM " + sc.table(t), error);
        if (s.get() && s.step())
            rows += size_t(s.int64(0));
    }
    return rows;
}

// Names: OS pid -> command, (pid, tid) -> thread name, for the processes with events.
void readProcessAndThreadNames(Context &c, Schema &sc)
{
    std::string error;
    if (!sc.table("rocpd_info_process").empty() && sc.has("rocpd_info_process", "command")) {
        SqliteStmt s = c.db.prepare("SELECT pid, command FROM " + sc.table("rocpd_info_process"), error);
        while (s.get() && s.step())
            if (c.pids.count(uint32_t(s.int64(0))) && !s.isNull(1)) {
                std::string_view cmd = s.text(1);
                cmd = cmd.substr(0, cmd.find(' ')); // the executable, not its arguments
                c.b.setProcessName(uint32_t(s.int64(0)), c.b.intern(cmd.substr(cmd.find_last_of('/') + 1)));
            }
    }
    if (!sc.table("rocpd_info_thread").empty() && sc.has("rocpd_info_thread", "name")) {
        Query q(sc, "rocpd_info_thread");
        q.join("rocpd_info_process", "P", "M.pid", "rocpd_info_thread", "M");
        SqliteStmt s = c.db.prepare("SELECT P.pid, M.tid, M.name" + q.from() + " WHERE M.name IS NOT NULL", error);
        while (s.get() && s.step())
            c.b.setThreadName(uint32_t(s.int64(0)), uint32_t(s.int64(1)), c.b.intern(s.text(2)));
    }
}

// rocpd_info_process.environment: a JSON object of the process's variables; false when it is not one.
bool parseEnvironment(std::string_view json, std::vector<EnvironmentVariable> &out)
{
    simdjson::dom::parser parser;
    simdjson::dom::object env;
    if (parser.parse(json.data(), json.size()).get(env) != simdjson::SUCCESS)
        return false;
    for (auto [name, value] : env) {
        std::string_view text;
        if (value.get(text) == simdjson::SUCCESS)
            out.emplace_back(std::string(name), std::string(text));
    }
    return true;
}

// The command as its words (rocpd records one string, not the argv).
std::vector<std::string> commandWords(std::string_view command)
{
    std::vector<std::string> words;
    for (size_t at = 0; at < command.size();) {
        const size_t end = std::min(command.find(' ', at), command.size());
        if (end > at)
            words.emplace_back(command.substr(at, end - at));
        at = end + 1;
    }
    return words;
}

// Each process with events: its identity from the environment and command rocprofv3 recorded.
void readProcessIdentities(Context &c, Schema &sc)
{
    if (sc.table("rocpd_info_process").empty() || !sc.has("rocpd_info_process", "environment"))
        return;
    std::string error;
    const std::string command = sc.has("rocpd_info_process", "command") ? "command" : "NULL";
    SqliteStmt s =
        c.db.prepare("SELECT pid, " + command + ", environment FROM " + sc.table("rocpd_info_process"), error);
    std::vector<std::string> problems;
    while (s.get() && s.step()) {
        const uint32_t pid = uint32_t(s.int64(0));
        if (!c.pids.count(pid))
            continue;
        const std::string where = "rocpd_info_process pid " + std::to_string(pid);
        std::vector<EnvironmentVariable> env;
        if (!s.isNull(2) && !parseEnvironment(s.text(2), env)) {
            problems.push_back(where + ": environment is not a JSON object of variables; not used");
            continue;
        }
        LaunchReading r = launchIdentityOf(env, commandWords(s.isNull(1) ? "" : s.text(1)), where);
        problems.insert(problems.end(), r.problems.begin(), r.problems.end());
        if (!r.identity.empty())
            c.meta.processIdentities.push_back({pid, where, std::move(r.identity)});
    }
    reportLaunchIdentity(c.meta.processIdentities, &problems);
    for (const std::string &p : problems)
        c.meta.warnings.push_back(std::string(kInvalidDataWarning) + p);
}

} // namespace

bool RocpdReader::probe(std::string_view path, std::string_view head) const
{
    if (!hasSqliteHeader(head))
        return false;
    const std::set<std::string> t = sqliteTableNames(std::string(path));
    for (const char *name : {"rocpd_region", "rocpd_kernel_dispatch", "rocpd_info_agent", "rocpd_metadata"})
        if (t.count(name))
            return true;
    return false;
}

std::string RocpdReader::read(const std::string &path, StoreBuilder &b, ReportMeta &meta, const ReadContext &ctx) const
{
    meta.format = TraceFormat::Rocpd;
    ReadOnlySqlite db;
    std::set<std::string> tables;
    if (std::string err = db.openTables(path, "a rocprofv3 rocpd database", tables); !err.empty())
        return err;
    if (!tables.count("rocpd_region") && !tables.count("rocpd_kernel_dispatch") && tables.count("rocpd_op"))
        return path + ": a legacy rocmProfileData (RPD) trace (rocpd_op/rocpd_api tables); only rocprofv3's rocpd "
                      "format is read";

    std::map<std::string, std::string> metadata = readMetadata(db, tables);
    Schema sc(db, tables, metadata["uuid"]);
    meta.schemaVersion = metadata["schema_version"];
    if (sc.table("rocpd_region").empty() && sc.table("rocpd_kernel_dispatch").empty())
        return path + ": not a rocpd database (no rocpd_region or rocpd_kernel_dispatch view or table)";
    if (meta.schemaVersion.empty())
        meta.schemaVersion = sc.table("rocpd_timestamp").empty() ? "3" : "4";
    const std::map<int64_t, Agent> agents = readHostAndAgents(db, sc, meta);

    Context c{path, db, b, meta, ctx, {}, 0, countEventRows(db, sc), {}};
    for (auto step : {readRegions, readMarks})
        if (std::string err = step(c, sc); !err.empty())
            return err;
    if (std::string err = readKernels(c, sc, agents); !err.empty())
        return err;
    if (std::string err = readCopies(c, sc, agents); !err.empty())
        return err;
    if (std::string err = readAllocations(c, sc, agents); !err.empty())
        return err;
    readProcessAndThreadNames(c, sc);
    readProcessIdentities(c, sc);
    meta.pids.assign(c.pids.begin(), c.pids.end());
    formats::clipImpossibleTimes(b, c.audit, tableOfTrack, meta);
    meta.warnings.push_back("no UTC origin: rocpd timestamps are CLOCK_BOOTTIME ns (time since the host booted); "
                            "align by start or on an anchor event");
    if (ctx.progress)
        ctx.progress(1.0);
    return {};
}

} // namespace ps::core::trace
