#include "core/trace/nsys/nsysreader.h"

#include "core/trace/nsys/nsysjobs.h"
#include "core/trace/nsys/nsysmemory.h"
#include "core/trace/nsys/nsysmerge.h"
#include "core/trace/nsys/nsysmetadata.h"
#include "core/trace/nsys/nsysnccl.h"
#include "core/trace/nsys/nsystimebase.h"
#include "core/trace/read/readonlysqlite.h"

namespace ps::core::trace {

using namespace nsys;

namespace {

// "" when the file has at least one table an nsys export would have, else why not.
std::string checkIsNsysExport(const std::string &path, const std::set<std::string> &tables)
{
    if (tables.count("StringIds"))
        return {};
    for (const TableSpec &t : kTables)
        if (tables.count(t.name))
            return {};
    return path +
           ": not an Nsight Systems SQLite export (no StringIds, CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS or OSRT_API table" +
           (tables.empty() ? "; the database is empty)" : ")");
}

} // namespace

bool NsysReader::probe(std::string_view path, std::string_view head) const
{
    const bool sqliteHeader = head.substr(0, 16) == std::string_view("SQLite format 3\0", 16);
    const bool sqliteName = path.size() >= 7 && path.substr(path.size() - 7) == ".sqlite";
    return sqliteHeader || sqliteName;
}

void NsysReader::finish(ReportMeta &meta, const EventStore &store) const
{
    // Exports made with --ts-normalize carry absolute times (spec 1.6): their UTC origin is 0.
    if (meta.utcStartNs && *meta.utcStartNs != 0 && store.firstStart() > int64_t(1e17))
        meta.utcStartNs = 0;
}

std::string NsysReader::read(const std::string &path, StoreBuilder &b, ReportMeta &meta, const ReadContext &ctx) const
{
    meta.format = TraceFormat::NsysSqlite;
    ReadOnlySqlite db;
    std::set<std::string> tables;
    if (std::string err = db.openTables(path, "an Nsight Systems SQLite export", tables); !err.empty())
        return err;
    if (std::string err = checkIsNsysExport(path, tables); !err.empty())
        return err;

    const SessionClock clock = readReportMetadata(db, tables, meta);
    std::vector<NameId> strings;
    if (std::string err = readStringTable(db, tables, b, strings); !err.empty())
        return err;
    const NameTables names = readNameTables(db, tables, strings, b, meta);

    JobPlan plan;
    if (std::string err = planJobs(db, path, tables, ctx, plan); !err.empty())
        return err;
    std::vector<Chunk> chunks;
    if (std::string err = readJobs(db, path, plan, strings, ctx, chunks); !err.empty())
        return err;

    readGpuMemory(db, tables, meta);
    closeOpenRanges(db, chunks);
    applyTimeBase(clock, chunks, meta);
    clipImpossibleTimes(plan.jobs, chunks, meta);
    mergeChunks(plan.jobs, chunks, names, b, meta, readNcclLaunches(db, tables, strings));
    return {};
}

} // namespace ps::core::trace
