#include "core/common/parallelfor.h"
#include "core/trace/nsys/nsysjobs.h"
#include "core/trace/nsys/nsysmetadata.h"
#include "core/trace/nsys/nvtxeventtype.h"
#include "core/trace/read/readonlysqlite.h"
#include "core/trace/read/tracereader.h"
#include "core/trace/tracestats.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>

namespace ps::core::trace::nsys {

namespace {

// What the jobs of one file share: the string table, the context and the progress count.
struct JobShared
{
    JobShared(const std::vector<NameId> &strings, const ReadContext &ctx, size_t rowsTotal)
        : strings(strings), ctx(ctx), rowsTotal(rowsTotal)
    {
    }

    const std::vector<NameId> &strings;
    const ReadContext &ctx;
    const size_t rowsTotal;
    std::atomic<size_t> rowsDone{0};
    std::mutex progressMutex;

    NameId name(int64_t id) const { return mapString(strings, id); }
    // The name of a row's string id, counting the row when the id lies beyond StringIds (the
    // table missing or cut short; an id StringIds maps to "" is a name).
    NameId nameOf(int64_t id, Chunk &c) const
    {
        c.unnamedRows += id < 0 || uint64_t(id) >= strings.size();
        return name(id);
    }
    bool cancelled() const { return ctx.cancel && ctx.cancel->cancelled(); }
    void progress(size_t rows)
    {
        const size_t done = rowsDone.fetch_add(rows) + rows;
        if (ctx.progress) {
            std::lock_guard lock(progressMutex);
            ctx.progress(std::min(1.0, double(done) / double(rowsTotal)));
        }
    }
};

bool isGpuTable(Table t)
{
    return t == Table::Kernel || t == Table::Memcpy || t == Table::Memset || t == Table::Sync;
}

void reserve(Chunk &c, Table table, size_t expect)
{
    for (auto *v : {&c.start, &c.end, &c.gid})
        v->reserve(expect);
    c.name.reserve(expect);
    c.aux.reserve(expect);
    c.attr.reserve(expect);
    if (isGpuTable(table)) {
        c.id2.reserve(expect);
        c.dev.reserve(expect);
    }
}

// Columns 3.. of the GPU tables: streamId, deviceId, correlationId.
void addGpuIds(const SqliteStmt &s, Chunk &c)
{
    c.id2.push_back(uint32_t(s.int64(3)));
    c.dev.push_back(uint16_t(s.int64(4)));
    c.aux.push_back(uint32_t(s.int64(5)));
}

uint16_t launchConfigIndex(Chunk &c, const LaunchConfig &lc)
{
    // Consecutive kernels mostly repeat a recent config: search from the back.
    for (size_t i = c.configs.size(); i-- > 0;)
        if (c.configs[i] == lc)
            return uint16_t(std::min<size_t>(i, 0xFFFF));
    c.configs.push_back(lc);
    return uint16_t(std::min<size_t>(c.configs.size() - 1, 0xFFFF));
}

// Per-table row decoders: the columns after (start, end, gid) as selected by planJobs.
struct KernelRows
{
    NameId lastFull = kNoName, lastShort = kNoName;
    void operator()(const SqliteStmt &s, Chunk &c, const JobShared &sh)
    {
        addGpuIds(s, c);
        const NameId full = s.isNull(6) ? kNoName : sh.nameOf(s.int64(6), c);
        c.name.push_back(full);
        if (!s.isNull(7)) {
            const NameId shortName = sh.name(s.int64(7));
            if (full != lastFull || shortName != lastShort) {
                c.shortNames.emplace_back(full, shortName);
                lastFull = full;
                lastShort = shortName;
            }
        }
        const LaunchConfig lc{uint32_t(s.int64(8)),  uint32_t(s.int64(9)),  uint32_t(s.int64(10)),
                              uint32_t(s.int64(11)), uint32_t(s.int64(12)), uint32_t(s.int64(13))};
        c.attr.push_back(launchConfigIndex(c, lc));
    }
};

// Memcpy (copyKind, bytes) and Memset (memKind, bytes): named from attr when merged.
void copyRow(const SqliteStmt &s, Chunk &c, const JobShared &)
{
    addGpuIds(s, c);
    c.attr.push_back(uint16_t(s.int64(6)));
    c.extra.push_back(uint64_t(s.int64(7)));
    c.name.push_back(kNoName);
}

void syncRow(const SqliteStmt &s, Chunk &c, const JobShared &)
{
    addGpuIds(s, c);
    c.attr.push_back(uint16_t(s.int64(6)));
    c.name.push_back(kNoName);
}

void runtimeRow(const SqliteStmt &s, Chunk &c, const JobShared &sh)
{
    c.aux.push_back(uint32_t(s.int64(3)));
    c.name.push_back(sh.nameOf(s.int64(4), c));
    const int64_t eventClass = s.int64(5);
    c.attr.push_back(uint16_t(eventClass == 0   ? ApiClass::Runtime
                              : eventClass == 1 ? ApiClass::Driver
                                                : ApiClass::Other));
}

// eventClass 27 rows are the calls; 31 and 32 mark the profiler's own start and finish ("OS
// runtime libraries profiling started"), zero-length, kept for the timeline but not calls (nsys
// osrt_sum counts 27 only).
void osrtRow(const SqliteStmt &s, Chunk &c, const JobShared &sh)
{
    c.aux.push_back(0);
    c.name.push_back(sh.nameOf(s.int64(3), c));
    c.attr.push_back(uint16_t(s.int64(4) == 27 ? OsrtClass::Call : OsrtClass::Mark));
}

void nvtxRow(const SqliteStmt &s, Chunk &c, const JobShared &sh)
{
    c.id2.push_back(uint32_t(s.int64(3)));
    // Label = COALESCE(text, StringIds[textId]) (spec 1.4).
    if (!s.isNull(4)) {
        c.name.push_back(kTextFlag | uint32_t(c.texts.size()));
        c.texts.emplace_back(s.text(4));
    } else {
        c.name.push_back(s.isNull(5) ? kNoName : sh.nameOf(s.int64(5), c));
    }
    c.extra.push_back(s.isNull(6) ? 0 : uint64_t(s.int64(6)));
    c.nvtxScope.push_back((uint64_t(s.int64(7)) << 32) | uint32_t(s.int64(8)));
    c.aux.push_back(uint32_t(s.int64(9)));
    c.attr.push_back(0);
}

// The shared columns (start, end, gid) here, the rest in `row`.
template <class RowFn>
void addRow(const SqliteStmt &s, const RowTimes &t, Table table, Chunk &c, JobShared &sh, RowFn &row)
{
    c.start.push_back(t.start);
    c.end.push_back(t.end);
    // A mark has no end by nature; a range without one was never closed.
    if (table == Table::Nvtx && t.endNull && s.int64(3) != number(NvtxEventType::Mark))
        c.openEnds.push_back(uint32_t(c.start.size() - 1));
    c.gid.push_back(s.int64(2));
    row(s, c, sh);
}

// Steps every row; polls for cancellation and reports progress every kPollRows rows.
template <class RowFn> void stepRows(SqliteStmt &s, Table table, Chunk &c, JobShared &sh, RowFn row)
{
    size_t rows = 0, reported = 0;
    while (s.step()) {
        if (const RowTimes t = rowTimes(s); t.usable)
            addRow(s, t, table, c, sh, row);
        else
            ++c.droppedRows;
        if (++rows % kPollRows == 0) {
            if (sh.cancelled()) {
                c.error = "cancelled";
                return;
            }
            sh.progress(rows - reported);
            reported = rows;
        }
    }
    sh.progress(rows - reported);
}

void readJob(const ReadOnlySqlite &db, const Job &job, Chunk &c, JobShared &sh)
{
    std::string error;
    SqliteStmt s = db.prepare(job.sql, error);
    if (!s.get()) {
        c.error = error;
        return;
    }
    s.bind(1, job.lo);
    s.bind(2, job.hi);
    reserve(c, job.table, job.expect);
    switch (job.table) {
    case Table::Kernel:
        stepRows(s, job.table, c, sh, KernelRows{});
        break;
    case Table::Memcpy:
    case Table::Memset:
        stepRows(s, job.table, c, sh, copyRow);
        break;
    case Table::Sync:
        stepRows(s, job.table, c, sh, syncRow);
        break;
    case Table::Runtime:
        stepRows(s, job.table, c, sh, runtimeRow);
        break;
    case Table::Osrt:
        stepRows(s, job.table, c, sh, osrtRow);
        break;
    case Table::Nvtx:
        stepRows(s, job.table, c, sh, nvtxRow);
        break;
    }
    if (c.error.empty() && s.stepCode() != SQLITE_DONE)
        c.error = db.lastError();
}

// Workers take the next job until none is left or one fails; each opens its own connection.
std::string readOnWorkers(const std::string &path, const std::vector<Job> &jobs, size_t workers,
                          std::vector<Chunk> &chunks, JobShared &sh)
{
    core::JobQueue queue(jobs.size());
    std::vector<std::string> openErrors(workers);
    core::runWorkers(workers, [&](size_t w) {
        ReadOnlySqlite own;
        if (std::string err = own.open(path); !err.empty()) {
            openErrors[w] = err;
            return;
        }
        while (const std::optional<size_t> j = queue.take()) {
            readJob(own, jobs[*j], chunks[*j], sh);
            if (!chunks[*j].error.empty())
                queue.stop();
        }
    });
    for (auto &e : openErrors)
        if (!e.empty())
            return e;
    return {};
}

} // namespace

std::string readJobs(const ReadOnlySqlite &db, const std::string &path, const JobPlan &plan,
                     const std::vector<NameId> &strings, const ReadContext &ctx, std::vector<Chunk> &chunks)
{
    const std::vector<Job> &jobs = plan.jobs;
    JobShared sh(strings, ctx, std::max<size_t>(1, plan.totalRows));
    chunks.assign(jobs.size(), Chunk{});
    const size_t workers = std::min<size_t>(size_t(std::max(1, ctx.threads)), jobs.size());
    if (workers <= 1) {
        for (size_t j = 0; j < jobs.size(); ++j) {
            readJob(db, jobs[j], chunks[j], sh);
            if (!chunks[j].error.empty())
                break;
        }
    } else if (std::string err = readOnWorkers(path, jobs, workers, chunks, sh); !err.empty()) {
        return err;
    }
    for (size_t j = 0; j < jobs.size(); ++j) {
        if (chunks[j].error == "cancelled")
            return path + ": cancelled";
        if (!chunks[j].error.empty())
            return chunks[j].error + " (reading " + tableName(jobs[j].table) +
                   "; the file may be truncated or corrupt)";
    }
    return {};
}

} // namespace ps::core::trace::nsys
