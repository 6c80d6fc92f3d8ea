#pragma once
// Where a report's ranges of one name ran: the one search behind the alignment anchor, the
// step-boundary overlay and the cross-rank chart. From the report's events, or, for a report
// without them (a digest's outline), from the occurrences its statistics summary carries.

#include "core/trace/store/report.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace ps::core::trace {

// How a query names its ranges.
enum class RangeNaming {
    Text,     // the ranges' own text, in any domain (what an align spec and a range search name)
    Qualified // as nvtx_sum names them: "<domain>:<text>" for a named domain (nvtxRangeName)
};

struct RangeQuery
{
    // Implicit, so that a name alone is a query: findRanges(report, {"update_actor"}, error).
    RangeQuery(std::string_view name, RangeNaming naming = RangeNaming::Text, std::string_view style = {})
        : name(name), naming(naming), style(style)
    {
    }
    std::string_view name;
    RangeNaming naming;
    std::string_view style; // nvtx_sum's Style ("PushPop", "StartEnd"); empty: any
};

struct RangeHit
{
    int64_t start = 0;
    int64_t end = 0; // exclusive
    EventRef event;  // in the report's store, or as the summary recorded it
    friend bool operator<(const RangeHit &a, const RangeHit &b)
    {
        return std::tie(a.start, a.end, a.event.track, a.event.index) <
               std::tie(b.start, b.end, b.event.track, b.event.index);
    }
};

// Every range the query names, sorted by start (then end). A report without events answers from
// its statistics summary: empty, with `error`, when it has none.
std::vector<RangeHit> findRanges(const Report &report, const RangeQuery &query, std::string &error);
// The same over a store's events only.
std::vector<RangeHit> findRanges(const EventStore &store, const RangeQuery &query);

// [start, end) of every range whose text is `text` (in any domain), sorted by start.
std::vector<std::pair<int64_t, int64_t>> rangeOccurrences(const EventStore &store, std::string_view text);
std::vector<std::pair<int64_t, int64_t>> rangeOccurrencesOf(const Report &report, std::string_view text,
                                                            std::string &error);
// The K-th (1-based) of them, what an alignment anchor names; nullopt when there are fewer.
std::optional<std::pair<int64_t, int64_t>> rangeOccurrenceOf(const Report &report, std::string_view text,
                                                             int occurrence);

} // namespace ps::core::trace
