#include "core/trace/nsys/nsystimebase.h"

#include "core/trace/read/readonlysqlite.h"
#include "core/trace/store/eventtimes.h"

#include <algorithm>
#include <climits>

namespace ps::core::trace::nsys {

void closeOpenRanges(const ReadOnlySqlite &db, std::vector<Chunk> &chunks)
{
    if (std::none_of(chunks.begin(), chunks.end(), [](const Chunk &c) { return !c.openEnds.empty(); }))
        return;
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

// Event times are ns since the session start, whose UTC time is utcEpochNs, unless the export
// was made with --ts-normalize, which adds utcEpochNs to every timestamp: META_DATA_EXPORT /
// EXPORT_META_DATA says EXPORT_PARAM_TIME_NORMALIZE=true, or, for files where the key is
// missing, the earliest start is past 1e17 ns (1973). Such times are put back on the session
// clock, so that both exports of one capture give the same report: same events, same UTC start
// (`trace info`), same place on a UTC-aligned axis. Without a session start they stay epoch ns,
// with UTC origin 0.
void applyTimeBase(const SessionClock &clock, std::vector<Chunk> &chunks, ReportMeta &meta)
{
    int64_t minStart = INT64_MAX;
    for (const Chunk &c : chunks)
        for (int64_t t : c.start)
            minStart = std::min(minStart, t);
    const bool absoluteTimes = clock.normalizedExport || (minStart != INT64_MAX && minStart > int64_t(1e17));
    const int64_t shift = absoluteTimes && clock.sessionStartUtc ? *clock.sessionStartUtc : 0;
    meta.utcStartNs = absoluteTimes && !clock.sessionStartUtc ? std::optional<int64_t>(0) : clock.sessionStartUtc;
    if (!meta.utcStartNs)
        meta.warnings.push_back("no UTC origin (TARGET_INFO_SESSION_START_TIME missing): align by start or manually");
    if (shift == 0)
        return;
    shiftMemorySeries(meta.memory, shift);
    for (Chunk &c : chunks) // wrapping, not UB, on a damaged file's extreme values
        for (auto *times : {&c.start, &c.end})
            for (int64_t &t : *times)
                t = int64_t(uint64_t(t) - uint64_t(shift));
}

void clipImpossibleTimes(const std::vector<Job> &jobs, std::vector<Chunk> &chunks, ReportMeta &meta)
{
    EventTimeAudit audit;
    std::vector<TableTimes> times;
    for (size_t j = 0; j < chunks.size(); ++j) {
        const char *table = tableName(jobs[j].table);
        audit.dropped(table, chunks[j].droppedRows);
        audit.unnamed(table, chunks[j].unnamedRows);
        times.push_back({table, chunks[j].start, chunks[j].end});
    }
    audit.clipEnds(times);
    if (std::string w = audit.warning(); !w.empty())
        meta.warnings.push_back(std::move(w));
}

} // namespace ps::core::trace::nsys
