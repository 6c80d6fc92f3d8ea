#include "core/analysis/breakdown/intervals.h"

#include <algorithm>

namespace ps::core::analysis {

namespace {

// Union of two unions, each in start order.
void mergeTwo(std::span<const Interval> a, std::span<const Interval> b, std::vector<Interval> &out)
{
    const size_t begin = out.size();
    size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        const Interval &next = j >= b.size() || (i < a.size() && a[i].start <= b[j].start) ? a[i++] : b[j++];
        appendToUnion(out, begin, next.start, next.end);
    }
}

} // namespace

void unionOfRunsInPlace(std::vector<Interval> &all, std::vector<Interval> &scratch, std::span<const size_t> bounds)
{
    std::vector<size_t> runs(bounds.begin(), bounds.end());
    if (runs.size() < 2) {
        all.clear();
        return;
    }
    // Pairwise merging: O(n log k) for k runs.
    while (runs.size() > 2) {
        scratch.clear();
        scratch.reserve(all.size());
        std::vector<size_t> merged{0};
        for (size_t r = 0; r + 1 < runs.size(); r += 2) {
            const std::span<const Interval> a(all.data() + runs[r], runs[r + 1] - runs[r]);
            if (r + 2 < runs.size())
                mergeTwo(a, std::span<const Interval>(all.data() + runs[r + 1], runs[r + 2] - runs[r + 1]), scratch);
            else
                scratch.insert(scratch.end(), a.begin(), a.end());
            merged.push_back(scratch.size());
        }
        all.swap(scratch);
        runs.swap(merged);
    }
}

std::vector<Interval> unionOfRuns(std::vector<Interval> all, std::span<const size_t> bounds)
{
    std::vector<Interval> scratch;
    unionOfRunsInPlace(all, scratch, bounds);
    return all;
}

int64_t measure(std::span<const Interval> u)
{
    int64_t total = 0;
    for (const Interval &iv : u)
        total += iv.end - iv.start;
    return total;
}

} // namespace ps::core::analysis
