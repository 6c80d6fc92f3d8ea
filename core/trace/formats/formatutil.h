#pragma once
// Small helpers shared by the readers in core/trace/formats (internal to this folder).

#include "core/trace/store/report.h"
#include "core/trace/store/storebuilder.h"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace ps::core::trace {
class EventTimeAudit;
}

namespace ps::core::trace::formats {

// A path's file name, lower-cased: what name rules (the readers' patterns, memory file kinds)
// match, so that RANK0.SQLITE is rank0.sqlite.
std::string lowerFileName(std::string_view path);

inline bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

inline bool hasSqliteHeader(std::string_view head)
{
    return head.substr(0, 16) == std::string_view("SQLite format 3\0", 16);
}

// Table and view names of an SQLite file, opened read-only and immutable (no -wal/-shm appear).
// Empty when the file is not SQLite. Used by probe(): the first 4 KiB cannot tell rocpd, Ascend
// and nsys databases apart, their schemas can.
std::set<std::string> sqliteTableNames(const std::string &path);

// After a reader's last add(): clips the impossible ends of the events in `b` (eventtimes.h) and
// gives `meta` the audit's one warning, naming for each track the table `tableOf` says.
void clipImpossibleTimes(StoreBuilder &b, EventTimeAudit &audit,
                         const std::function<std::string_view(const TrackKey &)> &tableOf, ReportMeta &meta);

// Trailing digits after the last occurrence of `prefix` in a file name ("rank-34." -> 34).
std::optional<int> numberAfter(std::string_view name, std::string_view prefix);

} // namespace ps::core::trace::formats
