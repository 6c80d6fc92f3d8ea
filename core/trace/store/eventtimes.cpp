#include "core/trace/store/eventtimes.h"

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

namespace {

// Each table's median start, from up to about 4096 starts taken evenly over its rows (in every
// entry that names it): enough to place the bulk of a table, at no cost beside the audit's pass.
std::map<std::string_view, int64_t> medianStarts(std::span<const TableTimes> tables)
{
    std::map<std::string_view, size_t> rows;
    for (const TableTimes &t : tables)
        rows[t.table] += t.start.size();
    std::map<std::string_view, std::vector<int64_t>> samples;
    std::map<std::string_view, size_t> seen;
    for (const TableTimes &t : tables) {
        const size_t stride = std::max<size_t>(1, rows[t.table] / 4096);
        std::vector<int64_t> &sample = samples[t.table];
        size_t &at = seen[t.table];
        for (int64_t s : t.start)
            if (at++ % stride == 0 && isPlausibleTime(s))
                sample.push_back(s);
    }
    std::map<std::string_view, int64_t> out;
    for (auto &[table, sample] : samples) {
        if (sample.empty())
            continue;
        std::nth_element(sample.begin(), sample.begin() + ptrdiff_t(sample.size() / 2), sample.end());
        out[table] = sample[sample.size() / 2];
    }
    return out;
}

} // namespace

// Against the event's own table: a table wholly on another clock (msprof's MSTX_EVENTS 639 days
// after its TASK rows) is consistent in itself and left to the reader's table-spread warning
// (tablespread.h); one row far from its table's others is no time any clock gave it.
size_t EventTimeAudit::markFarStarts(std::span<const TableTimes> tables, std::vector<std::vector<bool>> &far)
{
    const std::map<std::string_view, int64_t> median = medianStarts(tables);
    size_t count = 0;
    far.assign(tables.size(), {});
    for (size_t k = 0; k < tables.size(); ++k) {
        const TableTimes &t = tables[k];
        const auto m = median.find(t.table);
        for (size_t i = 0; m != median.end() && i < t.start.size(); ++i) {
            // Both are within 2^62 of 0, so the difference fits.
            const int64_t s = t.start[i];
            if (!isPlausibleTime(s) || (s - m->second <= kMaxReportSpanNs && m->second - s <= kMaxReportSpanNs))
                continue;
            if (far[k].empty())
                far[k].resize(t.start.size());
            far[k][i] = true;
            ++m_counts[std::string(t.table)].farStart;
            ++count;
        }
    }
    return count;
}

void EventTimeAudit::clipEnds(std::span<const TableTimes> tables)
{
    std::vector<std::vector<bool>> far;
    const bool anyFar = markFarStarts(tables, far) > 0;
    const auto isFar = [&](size_t k, size_t i) { return anyFar && !far[k].empty() && far[k][i]; };
    // The span of the starts (readers keep only plausible ones, so the difference fits).
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t k = 0; k < tables.size(); ++k)
        for (size_t i = 0; i < tables[k].start.size(); ++i)
            if (const int64_t s = tables[k].start[i]; isPlausibleTime(s) && !isFar(k, i)) {
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
    for (size_t k = 0; k < tables.size(); ++k)
        for (size_t i = 0; i < tables[k].start.size(); ++i)
            if (isPlausibleTime(tables[k].start[i]) && !isFar(k, i) && possible(tables[k].start[i], tables[k].end[i]))
                last = std::max(last, tables[k].end[i]);
    for (size_t k = 0; k < tables.size(); ++k) {
        const TableTimes &t = tables[k];
        for (size_t i = 0; i < t.start.size(); ++i) {
            if (isFar(k, i)) {
                t.start[i] = t.end[i] = last;
                continue;
            }
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
        add(c.farStart, "start(s) more than 30 days from its table's median start, moved to the report's last time "
                        "with no duration");
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
