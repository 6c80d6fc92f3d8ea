#pragma once
// Interval arithmetic for the GPU time breakdown: unions of [start, end) intervals in ns, and a
// sweep over several disjoint unions that labels each elementary segment with the set of unions
// active in it. Touching intervals merge, as in HTA's merge_kernel_intervals (hta/utils/utils.py).

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace ps::core::analysis {

struct Interval
{
    int64_t start = 0;
    int64_t end = 0;
};

// Appends [start, end) to a union being built in start order: extends the last interval when
// they overlap or touch (and the last one belongs to this run, index >= runBegin), else appends.
inline void appendToUnion(std::vector<Interval> &out, size_t runBegin, int64_t start, int64_t end)
{
    if (out.size() > runBegin && start <= out.back().end) {
        if (end > out.back().end)
            out.back().end = end;
        return;
    }
    out.push_back({start, end});
}

// Union of several runs stored back to back in `all`: run i is [bounds[i], bounds[i+1]), each a
// union in start order. Returns one union in start order.
std::vector<Interval> unionOfRuns(std::vector<Interval> all, std::span<const size_t> bounds);
// Same, leaving the union in `all`; `scratch` is working space. Both keep their capacity, so a
// caller that reuses them allocates nothing after the first call.
void unionOfRunsInPlace(std::vector<Interval> &all, std::vector<Interval> &scratch, std::span<const size_t> bounds);

// Total length of a union.
int64_t measure(std::span<const Interval> u);

// Calls onSegment(mask, start, end) for every maximal segment in which the set of active
// unions (bit i = lists[i]) is constant and non-empty, in time order. Each list must be a
// union (disjoint, non-touching, in start order); at most 32 lists.
template <typename OnSegment> void sweepUnions(std::span<const std::span<const Interval>> lists, OnSegment &&onSegment)
{
    // Only the non-empty lists take part (a report often lacks whole classes): `bit` keeps
    // each one's place in the mask.
    struct Cursor
    {
        const Interval *at;
        const Interval *end;
        uint32_t bit;
    };
    std::vector<Cursor> live;
    for (size_t i = 0; i < lists.size(); ++i)
        if (!lists[i].empty())
            live.push_back({lists[i].data(), lists[i].data() + lists[i].size(), 1u << i});
    uint32_t mask = 0;
    int64_t at = 0;
    while (!live.empty()) {
        // Next boundary: the end of an active interval or the start of the next one.
        int64_t next = INT64_MAX;
        for (const Cursor &c : live)
            next = std::min(next, mask & c.bit ? c.at->end : c.at->start);
        if (mask != 0 && next > at)
            onSegment(mask, at, next);
        for (size_t i = 0; i < live.size();) {
            Cursor &c = live[i];
            if (!(mask & c.bit)) {
                if (c.at->start == next)
                    mask |= c.bit; // may also end here: an instant, closed on the next pass
                ++i;
                continue;
            }
            if (c.at->end == next) {
                mask &= ~c.bit;
                if (++c.at == c.end) {
                    live.erase(live.begin() + std::ptrdiff_t(i));
                    continue;
                }
            }
            ++i;
        }
        at = next;
    }
}

} // namespace ps::core::analysis
