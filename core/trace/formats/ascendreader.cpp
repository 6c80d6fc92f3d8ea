#include "core/trace/formats/ascendreader.h"

#include "core/trace/formats/ascendmemory.h"

#include "core/trace/formats/formatutil.h"
#include "core/trace/read/readonlysqlite.h"
#include "core/trace/store/eventtimes.h"
#include "core/trace/store/tablespread.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace ps::core::trace {

using namespace formats;

namespace {

constexpr int64_t kNone = 4294967295; // Ascend's "no value" sentinel

// aux of CANN calls and device tasks: connectionId + 1, because Ascend numbers connections from
// 0 while the EventStore reads aux 0 as "no correlation".
uint32_t correlation(int64_t connectionId)
{
    return connectionId < 0 || connectionId == kNone ? 0 : uint32_t(connectionId + 1);
}

uint32_t pidOf(int64_t globalTid)
{
    return uint32_t(uint64_t(globalTid) >> 32);
}
uint32_t tidOf(int64_t globalTid)
{
    return uint32_t(uint64_t(globalTid) & 0xFFFFFFFFu);
}

// MindStudio Insight's classes of device tasks. A task named in COMPUTE_TASK_INFO is compute and
// one in COMMUNICATION_TASK_INFO communication (its Notify waits and SDMA copies included: they
// are the collective's time). The rest go by task type: copies are memory, events and notifies
// sync, and everything else (Write Value, profiling markers, compute-typed tasks the profiler
// gave no op for) other. Without a COMPUTE_TASK_INFO table, compute task types are compute.
enum class TaskClass : uint8_t { Compute, Communication, Memory, Sync, Other };

class TaskClassifier
{
public:
    TaskClassifier(StoreBuilder &b, bool hasComputeInfo) : m_hasComputeInfo(hasComputeInfo)
    {
        for (const char *t : {"MEMCPY_ASYNC", "SDMA", "MEMCPY"})
            m_memory.insert(b.intern(t));
        for (const char *t : {"EVENT_RECORD", "EVENT_WAIT", "Notify Wait", "Notify Record", "EVENT_RESET"})
            m_sync.insert(b.intern(t));
        for (const char *t : {"AI_CORE", "AI_VECTOR_CORE", "AI_CPU", "KERNEL_AICORE", "KERNEL_AIVEC", "KERNEL_AICPU",
                              "MIX_AIC", "MIX_AIV"})
            m_computeTypes.insert(b.intern(t));
        m_waits = {b.intern("EVENT_WAIT"), b.intern("Notify Wait")};
    }

    TaskClass of(NameId type, bool computeInfo, bool commInfo) const
    {
        if (computeInfo)
            return TaskClass::Compute;
        if (commInfo)
            return TaskClass::Communication;
        if (m_memory.count(type))
            return TaskClass::Memory;
        if (m_sync.count(type))
            return TaskClass::Sync;
        if (!m_hasComputeInfo && m_computeTypes.count(type))
            return TaskClass::Compute;
        return TaskClass::Other;
    }

    // ENUM_CUPTI_SYNC_TYPE of a sync task: a wait is CUPTI's stream-wait-event (2), as nsys
    // records it; a record or reset is none (0).
    uint16_t syncType(NameId type) const { return m_waits.count(type) ? 2 : 0; }

private:
    bool m_hasComputeInfo;
    std::set<NameId> m_memory, m_sync, m_computeTypes, m_waits;
};

class Reader
{
public:
    Reader(const std::string &path, const ReadOnlySqlite &db, const std::set<std::string> &tables, StoreBuilder &b,
           ReportMeta &meta, const ReadContext &ctx)
        : m_path(path), m_db(db), m_tables(tables), m_b(b), m_meta(meta), m_ctx(ctx)
    {
    }

    std::string run();
    // After run(): impossible ends clipped, and one warning for the report (eventtimes.h).
    void clipImpossibleTimes();
    // After run(): the first and last row start of each table of events.
    const std::vector<TableSpan> &tableSpans() const { return m_tableSpans; }
    std::set<uint32_t> pids;

private:
    bool has(const char *t) const { return m_tables.count(t) > 0; }
    std::set<std::string> columns(const char *t) const
    {
        std::set<std::string> c;
        for (auto &n : m_db.columns(t))
            c.insert(n);
        return c;
    }
    NameId str(const SqliteStmt &s, int col) const
    {
        if (s.isNull(col))
            return kNoName;
        auto it = m_strings.find(s.int64(col));
        return it != m_strings.end() ? it->second : kNoName;
    }
    void count(TrackKind k) { ++m_meta.fileCounts[size_t(k)]; }
    template <typename Fn> std::string eachRow(const std::string &sql, const char *what, int endCol, Fn fn);
    // The track an event of the current table goes to, remembered for the audit's warning.
    TrackHandle track(const TrackKey &key);
    std::string readStrings();
    std::string readCann();
    std::string readTasks();
    std::string readPytorch();
    std::string readMstx();
    std::string readCommunication();
    void addHcclCollective(TrackHandle h, const SqliteStmt &s);

    const std::string &m_path;
    const ReadOnlySqlite &m_db;
    const std::set<std::string> &m_tables;
    StoreBuilder &m_b;
    ReportMeta &m_meta;
    const ReadContext &m_ctx;
    // STRING_IDS ids are sparse: torch_npu numbers its strings from 2^28 and 2^29 up.
    std::unordered_map<int64_t, NameId> m_strings;
    std::map<int64_t, NameId> m_apiTypes;  // ENUM_API_TYPE
    std::map<uint32_t, size_t> m_hostPids; // pid -> CANN rows, for device tasks without a pid
    uint32_t m_devicePid = 0;
    uint32_t m_device = 0;
    size_t m_rows = 0, m_rowsTotal = 1;
    EventTimeAudit m_audit;
    const char *m_table = "";
    std::vector<std::string> m_trackTables; // per handle: the tables its events came from
    std::vector<TableSpan> m_tableSpans;
};

// Rows whose start (column 0) or end (`endCol`; a single time: 0) is not a usable time are
// dropped and counted under the table `what`.
template <typename Fn> std::string Reader::eachRow(const std::string &sql, const char *what, int endCol, Fn fn)
{
    std::string error;
    SqliteStmt s = m_db.prepare(sql, error);
    if (!s.get())
        return error + " (reading " + what + ")";
    m_table = what;
    // Column 0 is a time in every table but STRING_IDS.
    const bool timed = std::string_view(what) != "STRING_IDS";
    TableSpan span{what, INT64_MAX, INT64_MIN};
    while (s.step()) {
        if (const RowTimes t = rowTimes(s, 0, endCol); t.usable) {
            if (timed) {
                span.first = std::min(span.first, t.start);
                span.last = std::max(span.last, t.start);
            }
            fn(s);
        } else {
            m_audit.dropped(what, 1);
        }
        if (++m_rows % kPollRows == 0) {
            if (m_ctx.progress)
                m_ctx.progress(std::min(1.0, double(m_rows) / double(m_rowsTotal)));
            if (m_ctx.cancel && m_ctx.cancel->cancelled())
                return m_path + ": cancelled";
        }
    }
    if (s.stepCode() != SQLITE_DONE)
        return m_db.lastError() + " (reading " + what + "; the file may be truncated or corrupt)";
    if (span.first <= span.last)
        m_tableSpans.push_back(std::move(span));
    return {};
}

TrackHandle Reader::track(const TrackKey &key)
{
    const TrackHandle h = m_b.track(key);
    if (h >= m_trackTables.size())
        m_trackTables.resize(h + 1);
    std::string &tables = m_trackTables[h];
    if (tables.empty())
        tables = m_table;
    else if (tables.rfind(m_table) == std::string::npos)
        tables += std::string("/") + m_table;
    return h;
}

void Reader::clipImpossibleTimes()
{
    const auto tableOf = [&](const TrackKey &k) -> std::string_view {
        const TrackHandle h = m_b.track(k); // every track was made by track(): none is added here
        return h < m_trackTables.size() ? std::string_view(m_trackTables[h]) : std::string_view("events");
    };
    formats::clipImpossibleTimes(m_b, m_audit, tableOf, m_meta);
}

std::string Reader::readStrings()
{
    return eachRow("SELECT id, value FROM STRING_IDS", "STRING_IDS", 0,
                   [&](const SqliteStmt &s) { m_strings[s.int64(0)] = m_b.intern(s.text(1)); });
}

std::string Reader::readCann()
{
    if (!has("CANN_API"))
        return {};
    const auto c = columns("CANN_API");
    const std::string sql = std::string("SELECT startNs, endNs, ") + (c.count("type") ? "type" : "0") +
                            ", globalTid, " + (c.count("connectionId") ? "connectionId" : "0") + ", name FROM CANN_API";
    return eachRow(sql, "CANN_API", 1, [&](const SqliteStmt &s) {
        const int64_t gtid = s.int64(3), type = s.int64(2);
        const uint32_t pid = pidOf(gtid);
        ++m_hostPids[pid];
        pids.insert(pid);
        // runtime (5000) and acl (20000) are the API a user calls; node/model/hccl are GE levels.
        const ApiClass cls = type == 5000 || type == 20000 ? ApiClass::Runtime : ApiClass::Other;
        m_b.add(track({TrackKind::CudaApi, pid, tidOf(gtid), 0}), s.int64(0), s.int64(1), str(s, 5),
                correlation(s.isNull(4) ? kNone : s.int64(4)), uint16_t(cls));
        count(TrackKind::CudaApi);
    });
}

std::string Reader::readTasks()
{
    if (!has("TASK"))
        return {};
    const auto c = columns("TASK");
    const bool compute = has("COMPUTE_TASK_INFO") && columns("COMPUTE_TASK_INFO").count("globalTaskId");
    const bool comm = has("COMMUNICATION_TASK_INFO") && columns("COMMUNICATION_TASK_INFO").count("globalTaskId");
    // Communication tasks can repeat a globalTaskId (one row per plane); take one name.
    std::string sql =
        std::string("SELECT T.startNs, T.endNs, ") + (c.count("deviceId") ? "T.deviceId" : "0") + ", " +
        (c.count("connectionId") ? "T.connectionId" : "0") + ", " + (c.count("globalPid") ? "T.globalPid" : "0") +
        ", " + (c.count("streamId") ? "T.streamId" : "0") + ", " +
        (compute ? "(SELECT name FROM COMPUTE_TASK_INFO C WHERE C.globalTaskId = T.globalTaskId LIMIT 1)" : "NULL") +
        ", " +
        (comm ? "(SELECT name FROM COMMUNICATION_TASK_INFO M WHERE M.globalTaskId = T.globalTaskId LIMIT 1)" : "NULL") +
        ", " + (c.count("taskType") ? "T.taskType" : "NULL") + " FROM TASK T";
    // Device tasks without a pid (msprof) belong to the host process that launched them.
    uint32_t hostPid = 0;
    size_t most = 0;
    for (auto [pid, n] : m_hostPids)
        if (n > most) {
            most = n;
            hostPid = pid;
        }
    const TaskClassifier classes(m_b, compute);
    return eachRow(sql, "TASK", 1, [&](const SqliteStmt &s) {
        const int64_t gpid = s.isNull(4) ? 0 : s.int64(4);
        const uint32_t pid = gpid > 0 && gpid != kNone ? uint32_t(gpid) : hostPid;
        const uint32_t device = uint32_t(s.int64(2));
        pids.insert(pid);
        m_devicePid = pid;
        m_device = device;
        const NameId type = str(s, 8), computeName = str(s, 6), commName = str(s, 7);
        const TaskClass c = classes.of(type, computeName != kNoName, commName != kNoName);
        const NameId name = computeName != kNoName ? computeName : commName != kNoName ? commName : type;
        const uint32_t corr = correlation(s.isNull(3) ? kNone : s.int64(3));
        const uint32_t stream = uint32_t(s.int64(5));
        switch (c) {
        case TaskClass::Memory:
            m_b.addWithBytes(track({TrackKind::Memcpy, pid, stream, device}), s.int64(0), s.int64(1), name, corr, 0, 0);
            count(TrackKind::Memcpy);
            return;
        case TaskClass::Sync:
            m_b.add(track({TrackKind::Sync, pid, stream, device}), s.int64(0), s.int64(1), name, corr,
                    classes.syncType(type));
            count(TrackKind::Sync);
            return;
        default:
            m_b.add(track({TrackKind::Kernel, pid, stream, device, TrackClass::DeviceTasks}), s.int64(0), s.int64(1),
                    name, corr,
                    uint16_t(c == TaskClass::Compute         ? DeviceTaskClass::Compute
                             : c == TaskClass::Communication ? DeviceTaskClass::Communication
                                                             : DeviceTaskClass::Other));
            count(TrackKind::Kernel);
        }
    });
}

std::string Reader::readPytorch()
{
    if (!has("PYTORCH_API"))
        return {};
    const auto c = columns("PYTORCH_API");
    // torch_npu declares and stores startNs/endNs as TEXT (spec 3): cast the text of an integer, and
    // leave any other value as it is, for eachRow to drop (a cast would read 'abc' as 0).
    const auto integer = [](const char *x) {
        return std::string("CASE WHEN typeof(") + x + ") = 'text' AND ltrim(" + x + ", '-') <> '' AND ltrim(" + x +
               ", '-') NOT GLOB '*[^0-9]*' THEN CAST(" + x + " AS INTEGER) ELSE " + x + " END";
    };
    const std::string sql = "SELECT " + integer("startNs") + ", " + integer("endNs") + ", globalTid, name, " +
                            (c.count("type") ? "type" : "50001") + " FROM PYTORCH_API";
    std::map<std::pair<uint32_t, int64_t>, uint16_t> scopes;
    return eachRow(sql, "PYTORCH_API", 1, [&](const SqliteStmt &s) {
        const int64_t gtid = s.int64(2), type = s.int64(4);
        const uint32_t pid = pidOf(gtid);
        pids.insert(pid);
        auto it = scopes.find({pid, type});
        if (it == scopes.end()) {
            auto n = m_apiTypes.find(type);
            const NameId dn = n != m_apiTypes.end() ? n->second : m_b.intern("torch " + std::to_string(type));
            // The API type is a category of the range, not an NVTX domain (no nvtx_sum prefix).
            it = scopes.emplace(std::pair{pid, type}, m_b.nvtxScope({pid, uint64_t(type), kNoName, uint32_t(type), dn}))
                     .first;
        }
        // Task-queue enqueue/dequeue ranges overlap the ops around them.
        const TrackKind kind = type == 50002 ? TrackKind::NvtxStartEnd : TrackKind::NvtxPushPop;
        m_b.add(track({kind, pid, tidOf(gtid), 0}), s.int64(0), s.int64(1), str(s, 3), 0, it->second);
        count(kind);
    });
}

std::string Reader::readMstx()
{
    if (!has("MSTX_EVENTS"))
        return {};
    const auto c = columns("MSTX_EVENTS");
    const std::string sql = std::string("SELECT startNs, endNs, eventType, message, globalTid, ") +
                            (c.count("endGlobalTid") ? "endGlobalTid" : "NULL") + ", " +
                            (c.count("domainId") ? "domainId" : "0") + " FROM MSTX_EVENTS";
    const NameId mstx = m_b.intern("mstx");
    return eachRow(sql, "MSTX_EVENTS", 1, [&](const SqliteStmt &s) {
        const int64_t gtid = s.int64(4), type = s.int64(2);
        const uint32_t pid = pidOf(gtid), tid = tidOf(gtid);
        pids.insert(pid);
        const TrackKind kind = type == 1   ? TrackKind::NvtxPushPop
                               : type == 2 ? TrackKind::NvtxStartEnd
                                           : TrackKind::NvtxMark; // 0 marker, 3 marker_ex
        const int64_t domain = s.isNull(6) || s.int64(6) == kNone ? 0 : s.int64(6);
        const uint16_t scope = m_b.nvtxScope({pid, uint64_t(domain), kNoName, 0, mstx});
        const TrackHandle h = track({kind, pid, tid, 0});
        m_b.add(h, s.int64(0), kind == TrackKind::NvtxMark ? s.int64(0) : s.int64(1), str(s, 3), 0, scope);
        if (kind == TrackKind::NvtxStartEnd && !s.isNull(5) && tidOf(s.int64(5)) != tid && s.int64(5) != 0)
            m_b.setLastEndTid(h, tidOf(s.int64(5)));
        count(kind);
    });
}

// An HCCL op as a collective record (collectiverecord.h): its name embeds the op, the group
// names the communicator; the element count is kept, the data type's size is not known here.
void Reader::addHcclCollective(TrackHandle h, const SqliteStmt &s)
{
    CollectiveRecord r;
    r.start = s.int64(0);
    r.end = std::max(r.start, s.int64(1));
    r.op = str(s, 2);
    r.groupName = str(s, 3);
    r.inNelems = s.isNull(5) ? -1 : s.int64(5);
    r.source = CollectiveSource::HcclOp;
    m_b.addCollective(h, r);
}

std::string Reader::readCommunication()
{
    if (!has("COMMUNICATION_OP"))
        return {};
    const auto c = columns("COMMUNICATION_OP");
    // The group's text comes with the row: its lane is named after it (hcclGroupLabel), and views
    // call the lane HCCL by its class.
    const bool grouped = c.count("groupName") > 0;
    const std::string sql = std::string("SELECT startNs, endNs, opName, ") + (grouped ? "groupName" : "0") + ", " +
                            (grouped ? "(SELECT value FROM STRING_IDS WHERE id = groupName)" : "NULL") +
                            (c.count("count") ? ", count" : ", NULL") + " FROM COMMUNICATION_OP";
    const NameId hccl = m_b.intern("hccl");
    std::set<int64_t> named;
    return eachRow(sql, "COMMUNICATION_OP", 1, [&](const SqliteStmt &s) {
        const int64_t group = s.isNull(3) ? 0 : s.int64(3);
        const uint32_t lane = 0xE0000000u | uint32_t(group & 0x0FFFFFFF);
        if (named.insert(group).second) {
            const std::string label = s.isNull(4) ? std::string("default group") : hcclGroupLabel(s.text(4));
            m_b.setThreadName(m_devicePid, lane, m_b.intern(label));
        }
        const uint16_t scope = m_b.nvtxScope({m_devicePid, 5500, kNoName, 0, hccl});
        // aux of range kinds is a colour, not a correlation: none.
        const TrackHandle h = track({TrackKind::NvtxStartEnd, m_devicePid, lane, 0, TrackClass::CollectiveLane});
        m_b.add(h, s.int64(0), s.int64(1), str(s, 2), 0, scope);
        addHcclCollective(h, s);
        count(TrackKind::NvtxStartEnd);
    });
}

std::string Reader::run()
{
    if (has("ENUM_API_TYPE")) {
        std::string error;
        SqliteStmt s = m_db.prepare("SELECT id, name FROM ENUM_API_TYPE", error);
        while (s.get() && s.step())
            m_apiTypes[s.int64(0)] = m_b.intern(s.text(1));
    }
    for (const char *t : {"TASK", "CANN_API", "PYTORCH_API", "MSTX_EVENTS", "COMMUNICATION_OP"}) {
        if (!has(t))
            continue;
        std::string error;
        SqliteStmt s = m_db.prepare(std::string("SELECT count(*) FROM ") + t, error);
        if (s.get() && s.step())
            m_rowsTotal += size_t(s.int64(0));
    }
    // CANN first: device tasks without a pid take the host process's.
    for (auto step : {&Reader::readStrings, &Reader::readCann, &Reader::readTasks, &Reader::readPytorch,
                      &Reader::readMstx, &Reader::readCommunication})
        if (std::string err = (this->*step)(); !err.empty())
            return err;
    return {};
}

} // namespace

bool AscendReader::probe(std::string_view path, std::string_view head) const
{
    if (!hasSqliteHeader(head))
        return false;
    const std::set<std::string> t = sqliteTableNames(std::string(path));
    const bool timeline = t.count("STRING_IDS") &&
                          (t.count("TASK") || t.count("CANN_API") || t.count("PYTORCH_API") || t.count("MSTX_EVENTS"));
    const bool analysis = t.count("StepTraceTime") && t.count("CommAnalyzerTime");
    return timeline || analysis;
}

std::string AscendReader::read(const std::string &path, StoreBuilder &b, ReportMeta &meta, const ReadContext &ctx) const
{
    meta.format = TraceFormat::AscendDb;
    ReadOnlySqlite db;
    std::set<std::string> tables;
    if (std::string err = db.openTables(path, "an Ascend profiler database", tables); !err.empty())
        return err;
    std::string error;
    const std::string name = path.substr(path.find_last_of('/') + 1);
    std::optional<int> rank = numberAfter(name, "ascend_pytorch_profiler_");
    if (tables.count("StepTraceTime") && !tables.count("STRING_IDS")) {
        meta.warnings.push_back("an Ascend analysis.db holds communication analysis, not a timeline: open the "
                                "ascend_pytorch_profiler_<rank>.db beside it");
        meta.rank = rank;
        return {};
    }
    if (!tables.count("STRING_IDS"))
        return path + ": not an Ascend profiler database (no STRING_IDS table)";

    if (tables.count("META_DATA")) {
        SqliteStmt s = db.prepare("SELECT value FROM META_DATA WHERE name = 'SCHEMA_VERSION'", error);
        if (s.get() && s.step())
            meta.schemaVersion = std::string(s.text(0));
    }
    if (tables.count("HOST_INFO")) {
        SqliteStmt s = db.prepare("SELECT hostName FROM HOST_INFO LIMIT 1", error);
        if (s.get() && s.step())
            meta.host = std::string(s.text(0));
    }
    if (tables.count("NPU_INFO")) {
        SqliteStmt s = db.prepare("SELECT id, name FROM NPU_INFO ORDER BY id", error);
        while (s.get() && s.step())
            meta.gpus.push_back({uint32_t(s.int64(0)), std::string(s.text(1)), {}, {}});
    }
    // The rank table of a one-rank database is the rank torch_npu recorded: the report's identity.
    if (tables.count("RANK_DEVICE_MAP")) {
        SqliteStmt s = db.prepare("SELECT min(rankId), count(*) FROM RANK_DEVICE_MAP", error);
        if (s.get() && s.step() && s.int64(1) == 1 && s.int64(0) >= 0 && s.int64(0) <= INT32_MAX) {
            LaunchIdentity id;
            id.rank = Recorded<int>{int(s.int64(0)), "RANK_DEVICE_MAP.rankId"};
            meta.processIdentities.push_back({0, "RANK_DEVICE_MAP", std::move(id)});
            rank = rank ? rank : int(s.int64(0));
        }
    }
    meta.rank = rank;

    Reader r(path, db, tables, b, meta, ctx);
    if (std::string err = r.run(); !err.empty())
        return err;
    r.clipImpossibleTimes();
    meta.pids.assign(r.pids.begin(), r.pids.end());
    readAscendMemory(db, tables, meta);
    // Ascend times are epoch ns (msprof: "local Unix time").
    meta.utcStartNs = 0;
    if (std::string w = tableSpreadWarning(r.tableSpans(), meta.utcStartNs); !w.empty())
        meta.warnings.push_back(std::move(w));
    if (ctx.progress)
        ctx.progress(1.0);
    return {};
}

std::string hcclGroupLabel(std::string_view groupName)
{
    const size_t percent = groupName.find('%');
    if (percent == std::string_view::npos)
        return std::string(groupName);
    const size_t portStart = groupName.find('_', percent);
    if (portStart == std::string_view::npos)
        return std::string(groupName);
    const size_t portEnd = groupName.find('_', portStart + 1);
    return std::string(groupName.substr(0, percent)) + ":" +
           std::string(groupName.substr(portStart + 1, portEnd == std::string_view::npos ? std::string_view::npos
                                                                                         : portEnd - portStart - 1));
}

} // namespace ps::core::trace
