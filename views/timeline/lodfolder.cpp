#include "views/timeline/lodfolder.h"

#include <algorithm>
#include <cmath>

namespace ps::views {

std::pair<size_t, size_t> LaneView::window(int64_t t0, int64_t t1) const
{
    if (indices.empty()) {
        const core::trace::IndexRange r = track->window(t0, t1);
        size_t first = r.first;
        while (first < r.last && track->end(first) <= t0 && track->duration(first) > 0)
            ++first;
        return {first, r.last};
    }
    // One level: starts and ends are both non-decreasing.
    size_t lo = 0, hi = indices.size();
    while (lo < hi) { // first with end > t0 (zero-length events at t0 count as inside)
        const size_t mid = lo + (hi - lo) / 2;
        const int64_t e = end(mid);
        if (e < t0 || (e == t0 && start(mid) < t0))
            lo = mid + 1;
        else
            hi = mid;
    }
    const size_t first = lo;
    hi = indices.size();
    while (lo < hi) { // first with start >= t1
        const size_t mid = lo + (hi - lo) / 2;
        if (start(mid) < t1)
            lo = mid + 1;
        else
            hi = mid;
    }
    return {first, lo};
}

namespace {
// First position in [k, last) whose start is >= t, searching outward from k (the next pixel
// column usually begins a few events later).
size_t gallop(const LaneView &lane, size_t k, size_t last, int64_t t)
{
    size_t lo = k, step = 1, hi = k + 1;
    while (hi < last && lane.start(hi) < t) {
        lo = hi;
        step *= 2;
        hi = std::min(last, hi + step);
    }
    hi = std::min(hi, last);
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (lane.start(mid) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

float clampX(double x, double width)
{
    return float(std::clamp(x, -4.0, width + 4.0));
}
} // namespace

void foldLane(const LaneView &lane, const TimeMapping &m, int64_t offset, std::vector<LodMark> &out, double minPx)
{
    if (!lane.track || lane.size() == 0)
        return;
    const int64_t t0 = m.window().start - offset, t1 = m.window().end - offset;
    auto [k, last] = lane.window(t0, t1);
    const double width = m.width();
    while (k < last) {
        const double x0 = m.x(lane.start(k), offset);
        double x1 = m.x(lane.end(k), offset);
        if (x1 - x0 >= minPx) {
            out.push_back({clampX(x0, width), clampX(x1, width), lane.event(k), 1, lane.track->name(lane.event(k))});
            ++k;
            continue;
        }
        // A run of narrow events: swallow whole pixel columns until a gap or a wide event.
        const uint32_t first = lane.event(k);
        size_t count = 0;
        double runX1 = x1;
        double colX = x0;
        while (true) {
            const int64_t nextColumn = m.time(std::floor(colX) + 1.0) - offset;
            size_t j = std::max(gallop(lane, k, last, nextColumn), k + 1);
            // Leave a wide event that starts in this column for its own box.
            if (j - 1 > k && m.x(lane.end(j - 1), offset) - m.x(lane.start(j - 1), offset) >= minPx)
                --j;
            count += j - k;
            runX1 = std::max(runX1, m.x(lane.end(j - 1), offset));
            k = j;
            if (k >= last)
                break;
            const double nx0 = m.x(lane.start(k), offset);
            if (nx0 > runX1 + 1.0 || m.x(lane.end(k), offset) - nx0 >= minPx)
                break;
            colX = nx0;
        }
        out.push_back({clampX(x0, width), clampX(std::max(runX1, x0 + 1.0), width), first, uint32_t(count),
                       lane.track->name(first)});
    }
}

void foldPyramidLevel(const core::trace::LodLevel &level, const TimeMapping &m, int64_t offset,
                      std::vector<LodMark> &out)
{
    const int64_t t0 = m.window().start - offset, t1 = m.window().end - offset;
    const auto &runs = level.runs; // no overlaps: ends ascend with starts
    auto it = std::partition_point(runs.begin(), runs.end(), [t0](const core::trace::LodRun &r) { return r.end < t0; });
    const double width = m.width();
    bool lastNarrow = false;
    for (; it != runs.end() && it->start < t1; ++it) {
        const double x0 = m.x(it->start, offset), x1 = m.x(it->end, offset);
        // A run of several events is made of events narrower than its level's width, itself at
        // most a pixel: it folds on as foldLane folds narrow events; one wide event stays alone.
        const bool narrow = it->count > 1 || x1 - x0 < kFoldPx;
        if (narrow && lastNarrow && x0 <= out.back().x1 + kFoldPx) {
            out.back().x1 = std::max(out.back().x1, clampX(std::max(x1, x0 + 1.0), width));
            out.back().count += it->count;
            continue;
        }
        out.push_back({clampX(x0, width), clampX(std::max(x1, x0 + 1.0), width), 0, it->count, it->name});
        lastNarrow = narrow;
    }
}

int64_t hitTestLane(const LaneView &lane, const TimeMapping &m, int64_t offset, double x, double slopPx)
{
    if (!lane.track || lane.size() == 0)
        return -1;
    const int64_t t = m.time(x) - offset;
    const int64_t slop = std::max<int64_t>(0, m.span(slopPx));
    auto [first, last] = lane.window(t - slop, t + slop + 1);
    int64_t best = -1, bestDistance = slop + 1;
    for (size_t k = first; k < last; ++k) {
        const int64_t s = lane.start(k), e = lane.end(k);
        const int64_t d = t < s ? s - t : (t < e ? 0 : t - e);
        if (d < bestDistance) {
            bestDistance = d;
            best = lane.event(k);
            if (d == 0)
                break;
        }
    }
    return best;
}

int markAt(std::span<const LodMark> marks, double x, double slopPx)
{
    auto it = std::partition_point(marks.begin(), marks.end(), [x](const LodMark &mk) { return mk.x0 <= x; });
    // Candidates: the mark starting at or before x, and the one right after it.
    int best = -1;
    double bestD = slopPx + 1e-9;
    auto consider = [&](std::span<const LodMark>::iterator c) {
        if (c < marks.begin() || c >= marks.end())
            return;
        const double d = x < c->x0 ? c->x0 - x : (x < c->x1 ? 0.0 : x - c->x1);
        if (d <= bestD) {
            bestD = d;
            best = int(c - marks.begin());
        }
    };
    if (it != marks.begin())
        consider(it - 1);
    consider(it);
    return best;
}

} // namespace ps::views
