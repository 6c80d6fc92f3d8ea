#pragma once
// A half-open span of time [start, end) in int64 ns: the window a breakdown, a statistics
// summary, a phase or step, and the timeline's view cover. One type, so a window passes from
// the timeline to an analysis as it is.

#include <cstdint>

namespace ps::core {

struct TimeWindow
{
    int64_t start = 0;
    int64_t end = 0; // exclusive
    int64_t duration() const { return end - start; }
    bool contains(int64_t t) const { return t >= start && t < end; }
    friend bool operator==(const TimeWindow &, const TimeWindow &) = default;
};

} // namespace ps::core
