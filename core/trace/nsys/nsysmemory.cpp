#include "core/trace/nsys/nsysmemory.h"

#include "core/trace/readonlysqlite.h"

#include <map>

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
    std::map<uint32_t, MemorySeriesBuilder> byDevice;
    while (st.step()) {
        const uint32_t device = uint32_t(st.int64(0));
        auto it = byDevice.try_emplace(device, device, "CUDA device memory").first;
        it->second.addDelta(st.int64(1), st.int64(2));
    }
    for (auto &[device, builder] : byDevice)
        meta.memory.push_back(std::move(builder).build());
}

} // namespace ps::core::trace::nsys
