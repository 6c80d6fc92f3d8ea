#pragma once
// Event times a report cannot have, caught where they are read, so that nothing downstream (the
// activity index, the breakdown, the phase table, a digest's pyramids) sizes memory or sums
// durations from a number no clock produced. A reader drops the rows whose start it cannot take
// (not an integer, or beyond kMaxEventTimeNs), then lets the audit clip the ends of the rest:
//   - a start further than kMaxReportSpanNs from its table's median start (a kernel 126 years
//     after the others would make the report 100 % idle) moves, with its end, to the report's
//     last plausible time; a whole table on another clock stays (tablespread.h says so);
//   - an end before its start becomes the start;
//   - an end further than the report's span plus a day from its start, or beyond
//     kMaxEventTimeNs, becomes the report's last plausible time (never before the start).
// The report then gets one warning naming each table and how many of its rows were touched
// (and how many name a string the file does not hold).

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::trace {

// ~146 years of ns either side of a report's origin: session clocks and epoch ns (2026 is
// 1.8e18) fit, every difference of two such times fits int64, and the digest refuses track
// extents beyond it as well.
inline constexpr int64_t kMaxEventTimeNs = int64_t(1) << 62;
// No table of a report spans more than this around its median start: a profiled step lasts
// seconds, an RLinf tracer's whole run days.
inline constexpr int64_t kMaxReportSpanNs = 30 * 86'400'000'000'000; // thirty days
// The slack beyond the report's span an event may last before its end is called impossible.
inline constexpr int64_t kSpanSlackNs = 86'400'000'000'000; // one day

// Warnings that say what a reader dropped or changed because the file's data cannot be right
// begin with this; every command shows them (others, such as a missing UTC origin, `trace info`).
inline constexpr std::string_view kInvalidDataWarning = "invalid data: ";

inline bool isPlausibleTime(int64_t t)
{
    return t > -kMaxEventTimeNs && t < kMaxEventTimeNs;
}

// The start and end columns of one table's events (several entries may name one table).
struct TableTimes
{
    std::string_view table;
    std::span<int64_t> start;
    std::span<int64_t> end;
};

class EventTimeAudit
{
public:
    // Rows of `table` the reader dropped: their start or end is not an integer, or the start is
    // not plausible.
    void dropped(std::string_view table, size_t rows);
    // Rows of `table` whose name is a string id the file's StringIds does not hold (a dropped
    // or damaged table): they stay, unnamed, and the warning says how many.
    void unnamed(std::string_view table, size_t rows);
    // Moves far starts and clips the ends of one report's events in place (see the header
    // comment).
    void clipEnds(std::span<const TableTimes> tables);
    // The report's one warning, "" when every time was possible.
    std::string warning() const;

private:
    struct Counts
    {
        size_t dropped = 0, farStart = 0, endBeforeStart = 0, tooLong = 0, unnamed = 0;
    };
    // Marks starts beyond kMaxReportSpanNs of their table's median start; returns how many.
    size_t markFarStarts(std::span<const TableTimes> tables, std::vector<std::vector<bool>> &far);
    std::map<std::string, Counts, std::less<>> m_counts;
    int64_t m_spanNs = 0;
};

} // namespace ps::core::trace
