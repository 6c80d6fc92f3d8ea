#include "core/trace/store/tablespread.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace ps::core::trace {

namespace {

struct TableGroup
{
    std::vector<std::string> tables;
    int64_t first = 0;
    int64_t last = 0;
};

// "2023-10-25 08:00:11 UTC", or "12.345 s" on a clock without an origin.
std::string timeText(int64_t t, std::optional<int64_t> utcOriginNs)
{
    char buffer[64];
    if (!utcOriginNs) {
        std::snprintf(buffer, sizeof buffer, "%.3f s", double(t) / 1e9);
        return buffer;
    }
    const int64_t ns = t + *utcOriginNs;
    const auto seconds = std::time_t(ns / 1'000'000'000 - (ns % 1'000'000'000 < 0 ? 1 : 0));
    std::tm tm{};
    if (!gmtime_r(&seconds, &tm) || std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
        return std::to_string(ns) + " ns";
    return buffer;
}

std::string joined(const std::vector<std::string> &names)
{
    std::string out;
    for (const std::string &n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

} // namespace

std::string tableSpreadWarning(std::vector<TableSpan> tables, std::optional<int64_t> utcOriginNs)
{
    std::sort(tables.begin(), tables.end(), [](const TableSpan &a, const TableSpan &b) {
        return a.first != b.first ? a.first < b.first : a.table < b.table;
    });
    std::vector<TableGroup> groups;
    int64_t widestGap = 0;
    for (const TableSpan &t : tables) {
        // Times are plausible (eventtimes.h), so differences of them fit int64.
        if (!groups.empty() && t.first - groups.back().last <= kTableSpreadNs) {
            groups.back().tables.push_back(t.table);
            groups.back().last = std::max(groups.back().last, t.last);
            continue;
        }
        if (!groups.empty())
            widestGap = std::max(widestGap, t.first - groups.back().last);
        groups.push_back({{t.table}, t.first, t.last});
    }
    if (groups.size() < 2)
        return {};
    for (TableGroup &g : groups)
        std::sort(g.tables.begin(), g.tables.end());
    char days[32];
    std::snprintf(days, sizeof days, "%.1f", double(widestGap) / 86'400e9);
    std::string text = std::string("its tables' rows lie ") + days + " days apart: ";
    for (size_t i = 0; i < groups.size(); ++i)
        text += (i ? "; " : "") + joined(groups[i].tables) + " from " + timeText(groups[i].first, utcOriginNs);
    return text + " (one clock was wrong, or the file holds more than one capture): the timeline spans the gap, and "
                  "these tables' events do not line up";
}

} // namespace ps::core::trace
