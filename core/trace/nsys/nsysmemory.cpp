#include "core/trace/nsys/nsysmemory.h"

#include "core/trace/read/readonlysqlite.h"

namespace ps::core::trace::nsys {

void readGpuMemory(const ReadOnlySqlite &db, const std::set<std::string> &tables, ReportMeta &meta)
{
    if (!tables.count("CUDA_GPU_MEMORY_USAGE_EVENTS"))
        return;
    std::string error;
    // memoryOperationType: 0 allocation, 1 free (the schema's own comment).
    SqliteStmt st = db.prepare("SELECT deviceId, start, CASE memoryOperationType WHEN 0 THEN bytes ELSE -bytes END "
                               "FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE memKind IN (2, 3, 5) ORDER BY start, rowid",
                               error);
    if (!st.get()) {
        meta.warnings.push_back("device memory not read: " + error);
        return;
    }
    MemorySeriesSet series;
    while (st.step())
        series.series(uint32_t(st.int64(0)), "CUDA device memory").addDelta(st.int64(1), st.int64(2));
    std::move(series).appendTo(meta.memory);
}

} // namespace ps::core::trace::nsys
