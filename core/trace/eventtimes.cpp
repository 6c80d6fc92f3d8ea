#include "core/trace/eventtimes.h"

#include <algorithm>
#include <climits>
#include <cstdio>

namespace ps::core::trace {

void EventTimeAudit::dropped(std::string_view table, size_t rows)
{
    if (rows > 0)
        m_counts[std::string(table)].dropped += rows;
}

void EventTimeAudit::unnamed(std::string_view table, size_t rows)
{
    if (rows > 0)
        m_counts[std::string(table)].unnamed += rows;
}

void EventTimeAudit::clipEnds(std::span<const TableTimes> tables)
{
    // The span of the starts (readers keep only plausible ones, so the difference fits).
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const TableTimes &t : tables)
        for (int64_t s : t.start)
            if (isPlausibleTime(s)) {
                lo = std::min(lo, s);
                hi = std::max(hi, s);
            }
    if (lo > hi)
        return;
    m_spanNs = hi - lo;
    const int64_t limit = m_spanNs > INT64_MAX - kSpanSlackNs ? INT64_MAX : m_spanNs + kSpanSlackNs;
    const auto possible = [&](int64_t s, int64_t e) { return isPlausibleTime(e) && e >= s && e - s <= limit; };
    // The last time a possible event reaches: where an impossible end is clipped to.
    int64_t last = hi;
    for (const TableTimes &t : tables)
        for (size_t i = 0; i < t.start.size(); ++i)
            if (isPlausibleTime(t.start[i]) && possible(t.start[i], t.end[i]))
                last = std::max(last, t.end[i]);
    for (const TableTimes &t : tables)
        for (size_t i = 0; i < t.start.size(); ++i) {
            const int64_t s = t.start[i];
            if (!isPlausibleTime(s) || possible(s, t.end[i]))
                continue;
            Counts &c = m_counts[std::string(t.table)];
            if (t.end[i] < s) {
                ++c.endBeforeStart;
                t.end[i] = s;
            } else {
                ++c.tooLong;
                t.end[i] = std::max(s, last);
            }
        }
}

std::string EventTimeAudit::warning() const
{
    std::string out;
    char span[64];
    std::snprintf(span, sizeof span, "%.3f s", double(m_spanNs) / 1e9);
    for (const auto &[table, c] : m_counts) {
        std::string parts;
        const auto add = [&](size_t n, const std::string &what) {
            if (n > 0)
                parts += (parts.empty() ? "" : ", ") + std::to_string(n) + " " + what;
        };
        add(c.dropped, "row(s) dropped (start or end not an integer, or beyond 2^62 ns)");
        add(c.endBeforeStart, "end(s) before their start, set to the start");
        add(c.tooLong, std::string("end(s) more than a day beyond the report's span (") + span +
                           ") or 2^62 ns, clipped to its last time");
        add(c.unnamed, "row(s) named by a string id StringIds does not hold, left unnamed");
        if (!parts.empty())
            out += (out.empty() ? "" : "; ") + table + ": " + parts;
    }
    return out.empty() ? out : std::string(kInvalidDataWarning) + out;
}

} // namespace ps::core::trace
