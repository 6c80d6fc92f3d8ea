#include "core/trace/nsys/nsysjobs.h"

#include "core/trace/nsys/nsysmetadata.h"
#include "core/trace/nsys/nvtxeventtype.h"
#include "core/trace/read/readonlysqlite.h"
#include "core/trace/read/tracereader.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>

namespace ps::core::trace::nsys {

namespace {

std::string gpuColumns(const std::set<std::string> &c)
{
    return column(c, "globalPid", "0") + ", " + column(c, "streamId", "0") + ", " + column(c, "deviceId", "0") + ", " +
           column(c, "correlationId", "0");
}

std::string kernelColumns(const std::set<std::string> &c)
{
    const char *fullName = c.count("demangledName") ? "demangledName" : c.count("shortName") ? "shortName" : "NULL";
    return gpuColumns(c) + ", " + fullName + ", " + column(c, "shortName") + ", " + column(c, "gridX", "0") + ", " +
           column(c, "gridY", "0") + ", " + column(c, "gridZ", "0") + ", " + column(c, "blockX", "0") + ", " +
           column(c, "blockY", "0") + ", " + column(c, "blockZ", "0");
}

std::string nvtxColumns(const std::set<std::string> &c)
{
    return column(c, "globalTid", "0") + ", " + column(c, "eventType", "0") + ", " + column(c, "text") + ", " +
           column(c, "textId") + ", " + column(c, "endGlobalTid") + ", " + column(c, "domainId", "0") + ", " +
           column(c, "category", "0") + ", " + column(c, "color", "0");
}

// The columns after (start, end) that readJob expects for a table, and the rows to skip.
std::pair<std::string, std::string> columnsAndFilter(Table t, const std::set<std::string> &c)
{
    switch (t) {
    case Table::Kernel:
        return {kernelColumns(c), ""};
    case Table::Memcpy:
        return {gpuColumns(c) + ", " + column(c, "copyKind", "0") + ", " + column(c, "bytes", "0"), ""};
    case Table::Memset:
        return {gpuColumns(c) + ", " + column(c, "memKind", "0") + ", " + column(c, "bytes", "0"), ""};
    case Table::Sync:
        return {gpuColumns(c) + ", " + column(c, "syncType", "0"), ""};
    case Table::Runtime:
        // eventClass 67 rows are "CUDA backtrace" duplicates of real calls (spec 1.3).
        return {column(c, "globalTid", "0") + ", " + column(c, "correlationId", "0") + ", " + column(c, "nameId", "0") +
                    ", " + column(c, "eventClass", "0"),
                c.count("eventClass") ? "eventClass IN (0,1)" : ""};
    case Table::Osrt:
        // eventClass: 27 for the calls (osrtRow tells them from the profiler's own marks).
        return {column(c, "globalTid", "0") + ", " + column(c, "nameId", "0") + ", " + column(c, "eventClass", "27"),
                ""};
    case Table::Nvtx:
        return {nvtxColumns(c), "eventType IN (" + drawnTypesSql() + ")"};
    }
    return {};
}

std::string selectFor(Table t, const std::set<std::string> &c)
{
    const auto [columns, filter] = columnsAndFilter(t, c);
    std::string s = "SELECT " + column(c, "start", "0") + ", " + column(c, "end", "NULL") + ", " + columns +
                    " FROM \"" + tableName(t) + "\" WHERE rowid BETWEEN ?1 AND ?2";
    if (!filter.empty())
        s += " AND " + filter;
    return s;
}

// No table holds more rows than its file has bytes.
uint64_t maxRowsOf(const std::string &path)
{
    std::error_code sizeError;
    const uintmax_t fileSize = std::filesystem::file_size(path, sizeError);
    return sizeError ? (uint64_t(1) << 20) : std::max<uint64_t>(1, uint64_t(fileSize) / 2);
}

// Splits rowids lo..hi into jobs. Rowids of exports are dense, but any int64 is legal: compute
// the span without overflow and never trust it as a row count beyond what the file can hold (a
// fuzzed file with rowids 1 and 2^62 once asked for an exabyte reservation).
void splitRange(Table t, const std::string &sql, int64_t lo, int64_t hi, uint64_t maxRows, const ReadContext &ctx,
                JobPlan &plan)
{
    const uint64_t span = uint64_t(hi) - uint64_t(lo); // + 1 may wrap; kept for the split
    const uint64_t rows = std::min<uint64_t>(span == UINT64_MAX ? span : span + 1, maxRows);
    plan.totalRows += size_t(rows);
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
        plan.jobs.push_back(
            {t, sql, int64_t(uint64_t(lo) + first), int64_t(uint64_t(lo) + last), size_t(rows / parts + 1)});
    }
}

} // namespace

std::string planJobs(const ReadOnlySqlite &db, const std::string &path, const std::set<std::string> &tables,
                     const ReadContext &ctx, JobPlan &plan)
{
    const uint64_t maxRows = maxRowsOf(path);
    for (const TableSpec &t : kTables) {
        if (!tables.count(t.name))
            continue;
        const std::set<std::string> c = db.columnSet(t.name);
        if (!c.count("start"))
            continue;
        // Two scalar subqueries: SQLite answers min() or max() of the rowid from the b-tree's ends
        // only when each stands alone; "SELECT min(rowid), max(rowid)" scans the whole table.
        const std::string from = std::string(" FROM \"") + t.name + "\")";
        std::string error;
        SqliteStmt s = db.prepare("SELECT (SELECT min(rowid)" + from + ", (SELECT max(rowid)" + from, error);
        if (!s.get())
            return error;
        if (!s.step()) {
            if (s.stepCode() != SQLITE_DONE)
                return db.lastError() + " (reading " + t.name + ")";
            continue;
        }
        if (s.isNull(0))
            continue; // empty table
        const int64_t lo = s.int64(0), hi = s.int64(1);
        if (hi >= lo)
            splitRange(t.table, selectFor(t.table, c), lo, hi, maxRows, ctx, plan);
    }
    return {};
}

} // namespace ps::core::trace::nsys
