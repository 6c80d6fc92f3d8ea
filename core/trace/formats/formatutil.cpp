#include "core/trace/formats/formatutil.h"

#include "core/trace/read/readonlysqlite.h"
#include "core/trace/store/eventtimes.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace ps::core::trace::formats {

std::string lowerFileName(std::string_view path)
{
    const size_t slash = path.rfind('/');
    std::string name(slash == std::string_view::npos ? path : path.substr(slash + 1));
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return name;
}

std::set<std::string> sqliteTableNames(const std::string &path)
{
    ReadOnlySqlite db;
    if (!db.open(path).empty())
        return {};
    std::string error;
    return db.tables(error);
}

void clipImpossibleTimes(StoreBuilder &b, EventTimeAudit &audit,
                         const std::function<std::string_view(const TrackKey &)> &tableOf, ReportMeta &meta)
{
    b.clipImpossibleTimes(audit, tableOf);
    if (std::string w = audit.warning(); !w.empty())
        meta.warnings.push_back(std::move(w));
}

std::optional<int> numberAfter(std::string_view name, std::string_view prefix)
{
    const size_t at = name.rfind(prefix);
    if (at == std::string_view::npos)
        return std::nullopt;
    const char *b = name.data() + at + prefix.size();
    const char *e = name.data() + name.size();
    int v = 0;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || p == b)
        return std::nullopt;
    return v;
}

} // namespace ps::core::trace::formats
