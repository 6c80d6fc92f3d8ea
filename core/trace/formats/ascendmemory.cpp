#include "core/trace/formats/ascendmemory.h"

#include "core/trace/read/readonlysqlite.h"

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
    MemorySeriesSet series;
    while (st.step())
        series.series(uint32_t(st.int64(0)), prefix + " (" + std::string(st.text(1)) + ")")
            .add(st.int64(2), st.int64(3));
    std::move(series).appendTo(meta.memory);
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
