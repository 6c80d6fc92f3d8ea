#include "core/trace/formats/ascendmemory.h"

#include "core/trace/readonlysqlite.h"

#include <map>

namespace ps::core::trace::formats {

namespace {

// Rows of (device, label, time, bytes) become one series per (device, label), in label order.
void readSeries(const ReadOnlySqlite &db, const std::string &sql, const std::string &prefix, ReportMeta &meta)
{
    std::string error;
    SqliteStmt st = db.prepare(sql, error);
    if (!st.get()) {
        meta.warnings.push_back("device memory not read: " + error);
        return;
    }
    std::map<std::pair<uint32_t, std::string>, MemorySeriesBuilder> series;
    while (st.step()) {
        const uint32_t device = uint32_t(st.int64(0));
        const std::string label = prefix + " (" + std::string(st.text(1)) + ")";
        auto it = series.try_emplace({device, label}, device, label).first;
        it->second.add(st.int64(2), st.int64(3));
    }
    for (auto &[key, builder] : series)
        meta.memory.push_back(std::move(builder).build());
}

// SELECT device, label, time, value FROM `table`, the label column resolved through STRING_IDS
// when the database has it.
std::string seriesQuery(const std::set<std::string> &tables, const std::string &table, const std::string &labelColumn,
                        const std::string &timeColumn, const std::string &valueColumn)
{
    const bool strings = tables.count("STRING_IDS") != 0;
    const std::string label = strings ? "coalesce(S.value, M." + labelColumn + ")" : "M." + labelColumn;
    const std::string join = strings ? " LEFT JOIN STRING_IDS S ON S.id = M." + labelColumn : "";
    return "SELECT M.deviceId, " + label + ", M." + timeColumn + ", M." + valueColumn + " FROM " + table + " M" + join +
           " ORDER BY M.rowid";
}

} // namespace

void readAscendMemory(const ReadOnlySqlite &db, const std::set<std::string> &tables, ReportMeta &meta)
{
    if (tables.count("MEMORY_RECORD"))
        readSeries(db, seriesQuery(tables, "MEMORY_RECORD", "component", "timestamp", "totalAllocated"), "allocated",
                   meta);
    if (tables.count("NPU_MEM"))
        readSeries(db, seriesQuery(tables, "NPU_MEM", "type", "timestampNs", "hbm"), "HBM", meta);
}

} // namespace ps::core::trace::formats
