#pragma once
// Internal to the nsys reader: everything read before the event tables. Report metadata
// (exporter, host, GPUs, session start), the StringIds table interned once, and the names that
// events refer to (threads, processes, NVTX domains and categories).

#include "core/trace/store/report.h"
#include "core/trace/store/storebuilder.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace ps::core::trace {
class ReadOnlySqlite;
}

namespace ps::core::trace::nsys {

// What the time base needs from the metadata (spec 1.6).
struct SessionClock
{
    bool normalizedExport = false;          // `nsys export --ts-normalize=true`
    std::optional<int64_t> sessionStartUtc; // TARGET_INFO_SESSION_START_TIME.utcEpochNs
};

// Fills meta's exporter/schema version, host, GPUs and each launched process's recorded identity
// (META_DATA_CAPTURE PROCESS_<n> rows: environment, command line; malformed rows are warnings);
// returns the session clock.
SessionClock readReportMetadata(const ReadOnlySqlite &db, const std::set<std::string> &tables, ReportMeta &meta);

// StringIds id -> NameId (kNoName where the id is absent). "" or an error.
std::string readStringTable(const ReadOnlySqlite &db, const std::set<std::string> &tables, StoreBuilder &b,
                            std::vector<NameId> &strings);

inline NameId mapString(const std::vector<NameId> &strings, int64_t id)
{
    return (id >= 0 && size_t(id) < strings.size()) ? strings[size_t(id)] : kNoName;
}

// Names that are applied while merging; NVTX domains and categories are per process (spec 1.4).
struct NameTables
{
    std::map<uint32_t, NameId> processNames;
    std::map<std::pair<uint32_t, int64_t>, NameId> domainNames;
    std::map<std::tuple<uint32_t, int64_t, int64_t>, NameId> categoryNames;
};

// Thread names go to the builder and process streams to meta at once; the rest is returned.
NameTables readNameTables(const ReadOnlySqlite &db, const std::set<std::string> &tables,
                          const std::vector<NameId> &strings, StoreBuilder &b, ReportMeta &meta);

// Select-list expression for a column that may be missing in older/newer schemas.
std::string column(const std::set<std::string> &columns, const char *name, const char *fallback = "NULL");

} // namespace ps::core::trace::nsys
