#include "core/trace/nsysreader.h"

#include "core/trace/sqlitedb.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>

namespace ps::core::trace {

namespace {

constexpr uint32_t kTextFlag = 0x80000000u; // NVTX name column: index into Chunk::texts
constexpr int kCancelPollRows = 16384;

uint32_t pidOf(int64_t globalId)
{
    return uint32_t((uint64_t(globalId) >> 24) & 0xFFFFFF);
}
uint32_t tidOf(int64_t globalId)
{
    return uint32_t(uint64_t(globalId) & 0xFFFFFF);
}

enum class Table { Kernel, Memcpy, Memset, Sync, Runtime, Osrt, Nvtx };

struct TableSpec
{
    Table table;
    const char *name;
};
constexpr TableSpec kTables[] = {
    {Table::Kernel, "CUPTI_ACTIVITY_KIND_KERNEL"},
    {Table::Memcpy, "CUPTI_ACTIVITY_KIND_MEMCPY"},
    {Table::Memset, "CUPTI_ACTIVITY_KIND_MEMSET"},
    {Table::Sync, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"},
    {Table::Runtime, "CUPTI_ACTIVITY_KIND_RUNTIME"},
    {Table::Osrt, "OSRT_API"},
    {Table::Nvtx, "NVTX_EVENTS"},
};

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
    std::string error;
};

struct Job
{
    Table table;
    std::string sql;
    int64_t lo = 0, hi = 0;
    size_t expect = 0; // rows to reserve for; bounded, as rowids may be sparse
};

// Select-list expression for a column that may be missing in older/newer schemas.
std::string col(const std::set<std::string> &cols, const char *name, const char *fallback = "NULL")
{
    return cols.count(name) ? std::string("\"") + name + "\"" : std::string(fallback);
}

std::string selectFor(Table t, const std::set<std::string> &c, const char *table)
{
    std::string s = "SELECT " + col(c, "start", "0") + ", " + col(c, "end", "NULL") + ", ";
    std::string where;
    switch (t) {
    case Table::Kernel:
        s += col(c, "globalPid", "0") + ", " + col(c, "streamId", "0") + ", " + col(c, "deviceId", "0") + ", " +
             col(c, "correlationId", "0") + ", " +
             (c.count("demangledName") ? "demangledName"
              : c.count("shortName")   ? "shortName"
                                       : "NULL") +
             ", " + col(c, "shortName") + ", " + col(c, "gridX", "0") + ", " + col(c, "gridY", "0") + ", " +
             col(c, "gridZ", "0") + ", " + col(c, "blockX", "0") + ", " + col(c, "blockY", "0") + ", " +
             col(c, "blockZ", "0");
        break;
    case Table::Memcpy:
        s += col(c, "globalPid", "0") + ", " + col(c, "streamId", "0") + ", " + col(c, "deviceId", "0") + ", " +
             col(c, "correlationId", "0") + ", " + col(c, "copyKind", "0") + ", " + col(c, "bytes", "0");
        break;
    case Table::Memset:
        s += col(c, "globalPid", "0") + ", " + col(c, "streamId", "0") + ", " + col(c, "deviceId", "0") + ", " +
             col(c, "correlationId", "0") + ", " + col(c, "memKind", "0") + ", " + col(c, "bytes", "0");
        break;
    case Table::Sync:
        s += col(c, "globalPid", "0") + ", " + col(c, "streamId", "0") + ", " + col(c, "deviceId", "0") + ", " +
             col(c, "correlationId", "0") + ", " + col(c, "syncType", "0");
        break;
    case Table::Runtime:
        s += col(c, "globalTid", "0") + ", " + col(c, "correlationId", "0") + ", " + col(c, "nameId", "0") + ", " +
             col(c, "eventClass", "0");
        // eventClass 67 rows are "CUDA backtrace" duplicates of real calls (spec 1.3).
        if (c.count("eventClass"))
            where = "eventClass IN (0,1)";
        break;
    case Table::Osrt:
        s += col(c, "globalTid", "0") + ", " + col(c, "nameId", "0");
        break;
    case Table::Nvtx:
        s += col(c, "globalTid", "0") + ", " + col(c, "eventType", "0") + ", " + col(c, "text") + ", " +
             col(c, "textId") + ", " + col(c, "endGlobalTid") + ", " + col(c, "domainId", "0") + ", " +
             col(c, "category", "0") + ", " + col(c, "color", "0");
        where = "eventType IN (34,59,60,70,71)";
        break;
    }
    s += std::string(" FROM \"") + table + "\" WHERE rowid BETWEEN ?1 AND ?2";
    if (!where.empty())
        s += " AND " + where;
    return s;
}

struct Shared
{
    const std::string *path = nullptr;
    const std::vector<NameId> *strings = nullptr; // StringIds id -> NameId
    const ReadContext *ctx = nullptr;
    std::atomic<size_t> rowsDone{0};
    size_t rowsTotal = 1;
    std::mutex progressMutex;

    NameId mapString(int64_t id) const
    {
        return (id >= 0 && size_t(id) < strings->size()) ? (*strings)[size_t(id)] : kNoName;
    }
    bool cancelled() const { return ctx->cancel && ctx->cancel->cancelled(); }
    void progress(size_t rows)
    {
        const size_t done = rowsDone.fetch_add(rows) + rows;
        if (ctx->progress) {
            std::lock_guard lock(progressMutex);
            ctx->progress(std::min(1.0, double(done) / double(rowsTotal)));
        }
    }
};

void readJob(const SqliteDb &db, const Job &job, Chunk &c, Shared &sh)
{
    std::string error;
    SqliteStmt s = db.prepare(job.sql, error);
    if (!s.get()) {
        c.error = error;
        return;
    }
    s.bind(1, job.lo);
    s.bind(2, job.hi);
    const size_t expect = job.expect;
    c.start.reserve(expect);
    c.end.reserve(expect);
    c.gid.reserve(expect);
    c.name.reserve(expect);
    c.aux.reserve(expect);
    c.attr.reserve(expect);
    const bool gpu = job.table == Table::Kernel || job.table == Table::Memcpy || job.table == Table::Memset ||
                     job.table == Table::Sync;
    if (gpu) {
        c.id2.reserve(expect);
        c.dev.reserve(expect);
    }
    uint32_t lastFull = kNoName, lastShort = kNoName;
    size_t rows = 0, reported = 0;
    while (s.step()) {
        const int64_t start = s.int64(0);
        c.start.push_back(start);
        c.end.push_back(s.isNull(1) ? start : s.int64(1));
        // eventType 34 (mark) has no end by nature; a range without one was never closed.
        if (job.table == Table::Nvtx && s.isNull(1) && s.int64(3) != 34)
            c.openEnds.push_back(uint32_t(c.start.size() - 1));
        c.gid.push_back(s.int64(2));
        switch (job.table) {
        case Table::Kernel: {
            c.id2.push_back(uint32_t(s.int64(3)));
            c.dev.push_back(uint16_t(s.int64(4)));
            c.aux.push_back(uint32_t(s.int64(5)));
            const NameId full = sh.mapString(s.int64(6));
            c.name.push_back(full);
            if (!s.isNull(7)) {
                const NameId shortName = sh.mapString(s.int64(7));
                if (full != lastFull || shortName != lastShort) {
                    c.shortNames.emplace_back(full, shortName);
                    lastFull = full;
                    lastShort = shortName;
                }
            }
            const LaunchConfig lc{uint32_t(s.int64(8)),  uint32_t(s.int64(9)),  uint32_t(s.int64(10)),
                                  uint32_t(s.int64(11)), uint32_t(s.int64(12)), uint32_t(s.int64(13))};
            size_t idx = c.configs.size();
            for (size_t i = c.configs.size(); i-- > 0;)
                if (c.configs[i] == lc) {
                    idx = i;
                    break;
                }
            if (idx == c.configs.size())
                c.configs.push_back(lc);
            c.attr.push_back(uint16_t(std::min<size_t>(idx, 0xFFFF)));
            break;
        }
        case Table::Memcpy:
        case Table::Memset:
            c.id2.push_back(uint32_t(s.int64(3)));
            c.dev.push_back(uint16_t(s.int64(4)));
            c.aux.push_back(uint32_t(s.int64(5)));
            c.attr.push_back(uint16_t(s.int64(6)));
            c.extra.push_back(uint64_t(s.int64(7)));
            c.name.push_back(kNoName); // named from attr when merged
            break;
        case Table::Sync:
            c.id2.push_back(uint32_t(s.int64(3)));
            c.dev.push_back(uint16_t(s.int64(4)));
            c.aux.push_back(uint32_t(s.int64(5)));
            c.attr.push_back(uint16_t(s.int64(6)));
            c.name.push_back(kNoName);
            break;
        case Table::Runtime:
            c.aux.push_back(uint32_t(s.int64(3)));
            c.name.push_back(sh.mapString(s.int64(4)));
            c.attr.push_back(uint16_t(s.int64(5) == 0   ? ApiClass::Runtime
                                      : s.int64(5) == 1 ? ApiClass::Driver
                                                        : ApiClass::Other));
            break;
        case Table::Osrt:
            c.aux.push_back(0);
            c.name.push_back(sh.mapString(s.int64(3)));
            c.attr.push_back(0);
            break;
        case Table::Nvtx: {
            c.id2.push_back(uint32_t(s.int64(3)));
            // Label = COALESCE(text, StringIds[textId]) (spec 1.4).
            if (!s.isNull(4)) {
                c.name.push_back(kTextFlag | uint32_t(c.texts.size()));
                c.texts.emplace_back(s.text(4));
            } else {
                c.name.push_back(s.isNull(5) ? kNoName : sh.mapString(s.int64(5)));
            }
            c.extra.push_back(s.isNull(6) ? 0 : uint64_t(s.int64(6)));
            c.nvtxScope.push_back((uint64_t(s.int64(7)) << 32) | uint32_t(s.int64(8)));
            c.aux.push_back(uint32_t(s.int64(9)));
            c.attr.push_back(0);
            break;
        }
        }
        if (++rows % kCancelPollRows == 0) {
            if (sh.cancelled()) {
                c.error = "cancelled";
                return;
            }
            sh.progress(rows - reported);
            reported = rows;
        }
    }
    sh.progress(rows - reported);
    if (s.stepCode() != SQLITE_DONE)
        c.error = db.lastError();
}

std::map<std::string, std::string> readKeyValues(const SqliteDb &db, const std::string &table)
{
    std::map<std::string, std::string> out;
    std::string error;
    SqliteStmt s = db.prepare("SELECT name, value FROM \"" + table + "\"", error);
    while (s.get() && s.step())
        out[std::string(s.text(0))] = std::string(s.text(1));
    return out;
}

const char *memcpyName(uint16_t kind)
{
    switch (kind) {
    case 1:
        return "[CUDA memcpy HtoD]";
    case 2:
        return "[CUDA memcpy DtoH]";
    case 3:
        return "[CUDA memcpy HtoA]";
    case 4:
        return "[CUDA memcpy AtoH]";
    case 5:
        return "[CUDA memcpy AtoA]";
    case 6:
        return "[CUDA memcpy AtoD]";
    case 7:
        return "[CUDA memcpy DtoA]";
    case 8:
        return "[CUDA memcpy DtoD]";
    case 9:
        return "[CUDA memcpy HtoH]";
    case 10:
        return "[CUDA memcpy PtoP]";
    case 11:
        return "[CUDA Unified Memory memcpy HtoD]";
    case 12:
        return "[CUDA Unified Memory memcpy DtoH]";
    case 13:
        return "[CUDA Unified Memory memcpy DtoD]";
    default:
        return "[CUDA memcpy]";
    }
}

const char *syncName(uint16_t type)
{
    switch (type) {
    case 1:
        return "[CUDA event synchronize]";
    case 2:
        return "[CUDA stream wait event]";
    case 3:
        return "[CUDA stream synchronize]";
    case 4:
        return "[CUDA context synchronize]";
    default:
        return "[CUDA synchronization]";
    }
}

} // namespace

bool NsysReader::probe(std::string_view path, std::string_view head) const
{
    const bool sqliteHeader = head.substr(0, 16) == std::string_view("SQLite format 3\0", 16);
    const bool sqliteName = path.size() >= 7 && path.substr(path.size() - 7) == ".sqlite";
    return sqliteHeader || sqliteName;
}

std::string NsysReader::read(const std::string &path, StoreBuilder &b, ReportMeta &meta, const ReadContext &ctx) const
{
    meta.format = TraceFormat::NsysSqlite;
    SqliteDb db;
    if (std::string err = db.open(path); !err.empty())
        return err;
    std::string error;
    const std::set<std::string> tables = db.tables(error);
    if (!error.empty())
        return error + " (expected an Nsight Systems SQLite export)";
    bool anyEvents = false;
    for (const TableSpec &t : kTables)
        anyEvents = anyEvents || tables.count(t.name);
    if (!tables.count("StringIds") && !anyEvents)
        return path +
               ": not an Nsight Systems SQLite export (no StringIds, CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS or "
               "OSRT_API table" +
               (tables.empty() ? "; the database is empty)" : ")");

    // Metadata: the table was renamed in 2023.4 (spec 1.1); older exports have neither.
    bool normalizedExport = false; // `nsys export --ts-normalize=true`: see "Time base" below
    for (const char *mt : {"META_DATA_EXPORT", "EXPORT_META_DATA"}) {
        if (!tables.count(mt))
            continue;
        auto kv = readKeyValues(db, mt);
        meta.exporterVersion = kv["EXPORT_PRODUCT_VERSION"];
        meta.schemaVersion = kv["EXPORT_SCHEMA_VERSION"];
        std::string normalize = kv["EXPORT_PARAM_TIME_NORMALIZE"];
        std::transform(normalize.begin(), normalize.end(), normalize.begin(),
                       [](unsigned char ch) { return char(std::tolower(ch)); });
        normalizedExport = normalize == "true" || normalize == "1";
        break;
    }
    std::optional<int64_t> sessionStartUtc; // TARGET_INFO_SESSION_START_TIME.utcEpochNs
    if (tables.count("TARGET_INFO_SESSION_START_TIME") && db.columns("TARGET_INFO_SESSION_START_TIME").size() > 0) {
        SqliteStmt s = db.prepare("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1", error);
        if (s.get() && s.step() && !s.isNull(0))
            sessionStartUtc = s.int64(0);
    }
    if (tables.count("TARGET_INFO_SYSTEM_ENV")) {
        SqliteStmt s = db.prepare("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name='Hostname' LIMIT 1", error);
        if (s.get() && s.step())
            meta.host = std::string(s.text(0));
    }
    if (tables.count("TARGET_INFO_GPU")) {
        std::set<std::string> c;
        for (auto &n : db.columns("TARGET_INFO_GPU"))
            c.insert(n);
        const std::string idCol = c.count("id") ? "id" : c.count("deviceId") ? "deviceId" : "0";
        SqliteStmt s = db.prepare("SELECT " + idCol + ", " + col(c, "name", "''") + ", " + col(c, "busLocation", "''") +
                                      ", " + col(c, "uuid", "''") + " FROM TARGET_INFO_GPU",
                                  error);
        while (s.get() && s.step())
            meta.gpus.push_back(
                {uint32_t(s.int64(0)), std::string(s.text(1)), std::string(s.text(2)), std::string(s.text(3))});
    }

    // Strings: all ids, interned once.
    std::vector<NameId> strings;
    if (tables.count("StringIds")) {
        SqliteStmt s = db.prepare("SELECT id, value FROM StringIds", error);
        if (!s.get())
            return error;
        while (s.step()) {
            const int64_t id = s.int64(0);
            if (id < 0 || id > (int64_t(1) << 28))
                continue; // nonsensical id; leave unnamed
            if (size_t(id) >= strings.size())
                strings.resize(size_t(id) + 1, kNoName);
            strings[size_t(id)] = b.intern(s.text(1));
        }
        if (s.stepCode() != SQLITE_DONE)
            return db.lastError() + " (reading StringIds)";
    }
    auto mapString = [&](int64_t id) {
        return (id >= 0 && size_t(id) < strings.size()) ? strings[size_t(id)] : kNoName;
    };
    if (tables.count("ThreadNames")) {
        SqliteStmt s = db.prepare("SELECT globalTid, nameId FROM ThreadNames", error);
        while (s.get() && s.step())
            b.setThreadName(pidOf(s.int64(0)), tidOf(s.int64(0)), mapString(s.int64(1)));
    }
    if (tables.count("ProcessStreams")) {
        SqliteStmt s = db.prepare("SELECT ps.globalPid, f.value, c.value FROM ProcessStreams ps LEFT JOIN StringIds f "
                                  "ON f.id = ps.filenameId LEFT JOIN StringIds c ON c.id = ps.contentId",
                                  error);
        while (s.get() && s.step())
            meta.processStreams.push_back({pidOf(s.int64(0)), std::string(s.text(1)), std::string(s.text(2))});
    }
    std::map<uint32_t, NameId> processNames;
    if (tables.count("PROCESSES")) {
        SqliteStmt s = db.prepare("SELECT pid, name FROM PROCESSES", error);
        while (s.get() && s.step())
            processNames[uint32_t(s.int64(0))] = b.intern(s.text(1));
    }
    // NVTX domains and categories are per process (spec 1.4).
    std::map<std::pair<uint32_t, int64_t>, NameId> domainNames;
    std::map<std::tuple<uint32_t, int64_t, int64_t>, NameId> categoryNames;
    if (tables.count("NVTX_EVENTS")) {
        std::set<std::string> c;
        for (auto &n : db.columns("NVTX_EVENTS"))
            c.insert(n);
        SqliteStmt s = db.prepare("SELECT " + col(c, "eventType", "0") + ", " + col(c, "globalTid", "0") + ", " +
                                      col(c, "domainId", "0") + ", " + col(c, "category", "0") + ", " + col(c, "text") +
                                      ", " + col(c, "textId") + " FROM NVTX_EVENTS WHERE eventType IN (33, 75)",
                                  error);
        while (s.get() && s.step()) {
            const NameId n = !s.isNull(4) ? b.intern(s.text(4)) : mapString(s.isNull(5) ? -1 : s.int64(5));
            if (s.int64(0) == 75)
                domainNames[{pidOf(s.int64(1)), s.int64(2)}] = n;
            else
                categoryNames[{pidOf(s.int64(1)), s.int64(2), s.int64(3)}] = n;
        }
    }

    // Jobs: one per table, or per rowid range of a large table when threads are available.
    std::vector<Job> jobs;
    size_t totalRows = 0;
    // No table holds more rows than its file has bytes.
    std::error_code sizeError;
    const uintmax_t fileSize = std::filesystem::file_size(path, sizeError);
    const uint64_t maxRows = sizeError ? (uint64_t(1) << 20) : std::max<uint64_t>(1, uint64_t(fileSize) / 2);
    for (const TableSpec &t : kTables) {
        if (!tables.count(t.name))
            continue;
        std::set<std::string> c;
        for (auto &n : db.columns(t.name))
            c.insert(n);
        if (!c.count("start"))
            continue;
        SqliteStmt s = db.prepare(std::string("SELECT min(rowid), max(rowid) FROM \"") + t.name + "\"", error);
        if (!s.get() || !s.step()) {
            if (s.get() && s.stepCode() != SQLITE_DONE)
                return db.lastError() + " (reading " + t.name + ")";
            if (!s.get())
                return error;
            continue;
        }
        if (s.isNull(0))
            continue; // empty table
        const int64_t lo = s.int64(0), hi = s.int64(1);
        if (hi < lo)
            continue;
        const std::string sql = selectFor(t.table, c, t.name);
        // Rowids of exports are dense, but any int64 is legal: compute the span without
        // overflow and never trust it as a row count beyond what the file can hold (a fuzzed
        // file with rowids 1 and 2^62 once asked for an exabyte reservation).
        const uint64_t span = uint64_t(hi) - uint64_t(lo); // + 1 may wrap; kept for the split
        const uint64_t rows = std::min<uint64_t>(span == UINT64_MAX ? span : span + 1, maxRows);
        totalRows += size_t(rows);
        size_t parts = 1;
        if (ctx.threads > 1 && rows > ctx.splitRows)
            parts = std::min<size_t>(size_t(ctx.threads) * 2, size_t(rows / std::max<size_t>(1, ctx.splitRows / 2)));
        parts = std::max<size_t>(parts, 1);
        const uint64_t step = span / parts + 1;
        for (size_t p = 0; p < parts; ++p) {
            // Offsets from lo, in unsigned arithmetic, never past hi.
            const uint64_t first = uint64_t(p) * step;
            if (first > span)
                break;
            const uint64_t last = p + 1 == parts ? span : std::min(span, first + step - 1);
            jobs.push_back(
                {t.table, sql, int64_t(uint64_t(lo) + first), int64_t(uint64_t(lo) + last), size_t(rows / parts + 1)});
        }
    }

    Shared sh;
    sh.path = &path;
    sh.strings = &strings;
    sh.ctx = &ctx;
    sh.rowsTotal = std::max<size_t>(1, totalRows);
    std::vector<Chunk> chunks(jobs.size());
    const size_t workers = std::min<size_t>(size_t(std::max(1, ctx.threads)), jobs.size());
    if (workers <= 1) {
        for (size_t j = 0; j < jobs.size(); ++j) {
            readJob(db, jobs[j], chunks[j], sh);
            if (!chunks[j].error.empty())
                break;
        }
    } else {
        std::atomic<size_t> next{0};
        std::vector<std::thread> pool;
        std::vector<std::string> openErrors(workers);
        for (size_t w = 0; w < workers; ++w) {
            pool.emplace_back([&, w] {
                SqliteDb own;
                if (std::string err = own.open(path); !err.empty()) {
                    openErrors[w] = err;
                    return;
                }
                for (size_t j; (j = next.fetch_add(1)) < jobs.size();) {
                    readJob(own, jobs[j], chunks[j], sh);
                    if (!chunks[j].error.empty())
                        next.store(jobs.size());
                }
            });
        }
        for (auto &t : pool)
            t.join();
        for (auto &e : openErrors)
            if (!e.empty())
                return e;
    }
    for (size_t j = 0; j < jobs.size(); ++j) {
        if (chunks[j].error == "cancelled")
            return path + ": cancelled";
        if (!chunks[j].error.empty())
            return chunks[j].error + " (reading " + std::string(kTables[size_t(jobs[j].table)].name) +
                   "; the file may be truncated or corrupt)";
    }

    // A range never closed (pushed or started, then the capture ended) lasts, as in nsys stats,
    // until the last NVTX timestamp of the file: max(max(start), max(end)) over NVTX_EVENTS.
    if (std::any_of(chunks.begin(), chunks.end(), [](const Chunk &c) { return !c.openEnds.empty(); })) {
        std::string ignored; // without the bound, such ranges keep duration 0
        SqliteStmt q = db.prepare("SELECT max(start), max(end) FROM NVTX_EVENTS", ignored);
        int64_t last = INT64_MIN;
        if (q.get() && q.step()) {
            if (!q.isNull(0))
                last = q.int64(0);
            if (!q.isNull(1))
                last = std::max(last, q.int64(1));
        }
        for (Chunk &c : chunks)
            for (uint32_t i : c.openEnds)
                c.end[i] = std::max(c.end[i], last);
    }

    // Time base (spec 1.6). Event times are ns since the session start, whose UTC time is
    // utcEpochNs — unless the export was made with --ts-normalize, which adds utcEpochNs to every
    // timestamp: META_DATA_EXPORT / EXPORT_META_DATA says EXPORT_PARAM_TIME_NORMALIZE=true, or,
    // for files where the key is missing, the earliest start is past 1e17 ns (1973). Such times
    // are put back on the session clock, so that both exports of one capture give the same
    // report: same events, same UTC start (`trace info`), same place on a UTC-aligned axis.
    // Without a session start they stay epoch ns, with UTC origin 0.
    int64_t minStart = INT64_MAX;
    for (const Chunk &c : chunks)
        for (int64_t t : c.start)
            minStart = std::min(minStart, t);
    const bool absoluteTimes = normalizedExport || (minStart != INT64_MAX && minStart > int64_t(1e17));
    int64_t shift = 0; // subtracted from every timestamp
    if (absoluteTimes && sessionStartUtc)
        shift = *sessionStartUtc;
    meta.utcStartNs = absoluteTimes && !sessionStartUtc ? std::optional<int64_t>(0) : sessionStartUtc;
    if (!meta.utcStartNs)
        meta.warnings.push_back("no UTC origin (TARGET_INFO_SESSION_START_TIME missing): align by start or manually");
    if (shift != 0) // wrapping, not UB, on a damaged file's extreme values
        for (Chunk &c : chunks) {
            for (int64_t &t : c.start)
                t = int64_t(uint64_t(t) - uint64_t(shift));
            for (int64_t &t : c.end)
                t = int64_t(uint64_t(t) - uint64_t(shift));
        }

    // Merge, in table and rowid order, into tracks.
    NameId memcpyNames[16], syncNames[8];
    for (uint16_t k = 0; k < 16; ++k)
        memcpyNames[k] = b.intern(memcpyName(k));
    for (uint16_t k = 0; k < 8; ++k)
        syncNames[k] = b.intern(syncName(k));
    const NameId memsetName = b.intern("[CUDA memset]");
    std::unordered_map<uint64_t, uint16_t> scopeCache;
    std::map<std::pair<NameId, NameId>, bool> shortSeen;
    std::set<uint32_t> seenPids;
    for (size_t j = 0; j < jobs.size(); ++j) {
        Chunk &c = chunks[j];
        const Table table = jobs[j].table;
        const size_t n = c.start.size();
        TrackKey lastKey{};
        TrackHandle lastHandle = 0;
        bool haveLast = false;
        auto handleFor = [&](const TrackKey &k) {
            if (!haveLast || !(k == lastKey)) {
                lastHandle = b.track(k);
                lastKey = k;
                haveLast = true;
            }
            return lastHandle;
        };
        std::vector<uint16_t> configMap;
        for (const LaunchConfig &lc : c.configs)
            configMap.push_back(b.launchConfig(lc));
        for (auto [full, shortName] : c.shortNames)
            if (shortSeen.emplace(std::pair{full, shortName}, true).second)
                b.setShortName(full, shortName);
        uint32_t lastPid = 0xFFFFFFFF;
        for (size_t i = 0; i < n; ++i) {
            const uint32_t pid = pidOf(c.gid[i]);
            if (pid != lastPid) {
                seenPids.insert(pid);
                lastPid = pid;
            }
            switch (table) {
            case Table::Kernel: {
                const uint16_t a = c.attr[i] < configMap.size() ? configMap[c.attr[i]] : kNoLaunchConfig;
                b.add(handleFor({TrackKind::Kernel, pid, c.id2[i], c.dev[i]}), c.start[i], c.end[i], c.name[i],
                      c.aux[i], a);
                break;
            }
            case Table::Memcpy:
                b.addWithBytes(handleFor({TrackKind::Memcpy, pid, c.id2[i], c.dev[i]}), c.start[i], c.end[i],
                               memcpyNames[std::min<uint16_t>(c.attr[i], 15)], c.aux[i], c.attr[i], c.extra[i]);
                break;
            case Table::Memset:
                b.addWithBytes(handleFor({TrackKind::Memset, pid, c.id2[i], c.dev[i]}), c.start[i], c.end[i],
                               memsetName, c.aux[i], c.attr[i], c.extra[i]);
                break;
            case Table::Sync:
                b.add(handleFor({TrackKind::Sync, pid, c.id2[i], c.dev[i]}), c.start[i], c.end[i],
                      syncNames[std::min<uint16_t>(c.attr[i], 7)], c.aux[i], c.attr[i]);
                break;
            case Table::Runtime:
                b.add(handleFor({TrackKind::CudaApi, pid, tidOf(c.gid[i]), 0}), c.start[i], c.end[i], c.name[i],
                      c.aux[i], c.attr[i]);
                break;
            case Table::Osrt:
                b.add(handleFor({TrackKind::OsRuntime, pid, tidOf(c.gid[i]), 0}), c.start[i], c.end[i], c.name[i]);
                break;
            case Table::Nvtx: {
                const uint32_t type = c.id2[i];
                const TrackKind kind = type == 34                   ? TrackKind::NvtxMark
                                       : (type == 59 || type == 70) ? TrackKind::NvtxPushPop
                                                                    : TrackKind::NvtxStartEnd;
                NameId name = c.name[i];
                if (name & kTextFlag)
                    name = b.intern(c.texts[name & ~kTextFlag]);
                const uint64_t scopeKey = c.nvtxScope[i];
                const uint64_t cacheKey = (uint64_t(pid) << 40) ^ scopeKey;
                uint16_t scope;
                if (auto it = scopeCache.find(cacheKey); it != scopeCache.end()) {
                    scope = it->second;
                } else {
                    const int64_t domain = int64_t(scopeKey >> 32);
                    const uint32_t category = uint32_t(scopeKey);
                    NvtxScope sc{pid, uint64_t(domain), kNoName, category, kNoName};
                    if (auto d = domainNames.find({pid, domain}); d != domainNames.end())
                        sc.domainName = d->second;
                    if (auto k = categoryNames.find({pid, domain, category}); k != categoryNames.end())
                        sc.categoryName = k->second;
                    scope = b.nvtxScope(sc);
                    scopeCache.emplace(cacheKey, scope);
                }
                const int64_t end = kind == TrackKind::NvtxMark ? c.start[i] : c.end[i];
                const TrackHandle h = handleFor({kind, pid, tidOf(c.gid[i]), 0});
                b.add(h, c.start[i], end, name, c.aux[i], scope);
                if (kind == TrackKind::NvtxStartEnd && c.extra[i] != 0 && tidOf(int64_t(c.extra[i])) != tidOf(c.gid[i]))
                    b.setLastEndTid(h, tidOf(int64_t(c.extra[i])));
                break;
            }
            }
        }
        c = Chunk{}; // release as we go
    }
    // PROCESSES lists every process on the box under system-wide sampling; keep ours.
    for (uint32_t pid : seenPids) {
        meta.pids.push_back(pid);
        if (auto it = processNames.find(pid); it != processNames.end())
            b.setProcessName(pid, it->second);
    }
    return {};
}

} // namespace ps::core::trace
