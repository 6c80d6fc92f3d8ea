#include "core/analysis/breakdown/activityindex.h"

#include "core/analysis/breakdown/workunions.h"

#include <algorithm>

namespace ps::core::analysis {

using trace::EventStore;
using trace::Track;

namespace {

const char kIndexKey = 0; // its address finds the index among the store's derived data

bool endsInStartOrder(const Track &t)
{
    for (size_t i = 1; i < t.size(); ++i)
        if (t.end(i) < t.end(i - 1))
            return false;
    return true;
}

// The segments of the sweep, their masks' slots and the whole report's mask times.
void addSegments(std::span<const std::span<const Interval>> lists, ActivityIndex &index)
{
    std::array<int, 1u << kGpuWorkCount> slotOf;
    slotOf.fill(-1);
    GpuBreakdown &b = index.whole;
    size_t boundaries = 0; // a segment starts at each, so no more segments than that: the bound
    for (std::span<const Interval> c : lists)
        boundaries += 2 * c.size();
    index.segmentStart.reserve(boundaries);
    index.segmentLength.reserve(boundaries);
    index.segmentSlot.reserve(boundaries);
    sweepUnions(lists, [&](uint32_t mask, int64_t s, int64_t e) {
        b.maskNs[mask] += e - s;
        if (slotOf[mask] < 0) {
            slotOf[mask] = int(index.masks.size());
            index.masks.push_back(uint8_t(mask));
        }
        index.segmentStart.push_back(s);
        index.segmentLength.push_back(e - s);
        index.segmentSlot.push_back(uint8_t(slotOf[mask]));
    });
}

void addCheckpoints(ActivityIndex &index)
{
    const size_t slots = index.masks.size();
    const size_t segments = index.segmentStart.size();
    std::vector<int64_t> running(slots, 0);
    index.checkpoints.reserve((segments / ActivityIndex::kStride + 1) * slots);
    for (size_t i = 0; i <= segments; ++i) {
        if (i % ActivityIndex::kStride == 0)
            index.checkpoints.insert(index.checkpoints.end(), running.begin(), running.end());
        if (i < segments)
            running[index.segmentSlot[i]] += index.segmentLength[i];
    }
}

std::shared_ptr<const ActivityIndex> buildIndex(const EventStore &store, const core::CancelToken *cancel)
{
    auto index = std::make_shared<ActivityIndex>();
    GpuBreakdown &b = index->whole;
    const bool ok = withGpuWorkUnions(store, WorkClassTable(store), {}, cancel, [&](auto byClass, size_t events) {
        b.events = events;
        if (events == 0)
            return;
        b.firstStart = INT64_MAX;
        b.lastEnd = INT64_MIN;
        for (std::span<const Interval> c : byClass)
            if (!c.empty()) {
                b.firstStart = std::min(b.firstStart, c.front().start);
                b.lastEnd = std::max(b.lastEnd, c.back().end);
            }
        addSegments(byClass, *index);
        finishBreakdown(b);
    });
    if (!ok)
        return nullptr;
    addCheckpoints(*index);
    const auto tracks = store.tracks();
    for (uint32_t k = 0; k < tracks.size(); ++k)
        if (trace::isGpuKind(tracks[k].kind()) && !tracks[k].empty())
            index->gpuTracks.push_back({k, endsInStartOrder(tracks[k])});
    return index;
}

// What the events of `t` in [t0, t1) contribute: their count, first clipped start and last
// clipped end. An event counts when start < t1 and (end > t0, or it is an instant at t0), as in
// computeBreakdown.
struct WindowEvents
{
    size_t events = 0;
    int64_t first = INT64_MAX;
    int64_t last = INT64_MIN;

    void add(int64_t s, int64_t e, int64_t t0, int64_t t1)
    {
        ++events;
        first = std::min(first, std::max(s, t0));
        last = std::max(last, std::min(e, t1));
    }
};

// For a track whose starts and ends both ascend: binary searches.
void countOrdered(const Track &t, int64_t t0, int64_t t1, WindowEvents &w)
{
    const auto &starts = t.columns().start;
    const auto endAfter = [&](int64_t x) { // first index whose end > x
        size_t lo = 0, hi = t.size();
        while (lo < hi) {
            const size_t mid = (lo + hi) / 2;
            if (t.end(mid) > x)
                hi = mid;
            else
                lo = mid + 1;
        }
        return lo;
    };
    const size_t j = endAfter(t0); // [j, ...): end > t0
    // Instants at t0 close the block of events that end at t0, [z, j) (starts ascend, start
    // <= end); only looked for when there is such a block.
    size_t k = j;
    if (j > 0 && t.end(j - 1) == t0 && t0 > INT64_MIN) {
        const size_t z = endAfter(t0 - 1);
        k = size_t(std::lower_bound(starts.begin() + std::ptrdiff_t(z), starts.begin() + std::ptrdiff_t(j), t0) -
                   starts.begin());
    }
    const size_t m = size_t(std::lower_bound(starts.begin(), starts.end(), t1) - starts.begin()); // start < t1
    const bool instants = t0 < t1 && k < j;
    const bool spanning = m > j;
    if (!instants && !spanning)
        return;
    w.events += (instants ? j - k : 0) + (spanning ? m - j : 0);
    const size_t first = instants ? k : j;
    const size_t last = spanning ? m - 1 : j - 1;
    w.first = std::min(w.first, std::max(t.start(first), t0));
    w.last = std::max(w.last, std::min(t.end(last), t1));
}

void countAny(const Track &t, int64_t t0, int64_t t1, WindowEvents &w)
{
    const trace::IndexRange range = t.window(t0 == INT64_MIN ? t0 : t0 - 1, t1);
    for (size_t i = range.first; i < range.last; ++i) {
        const int64_t s = t.start(i), e = t.end(i);
        if (s < t1 && (e > t0 || (e == t0 && s == t0)))
            w.add(s, e, t0, t1);
    }
}

} // namespace

void ActivityIndex::addSegmentTimes(size_t from, size_t to, std::array<int64_t, 1u << kGpuWorkCount> &maskNs) const
{
    const auto addOne = [&](size_t i) { maskNs[masks[segmentSlot[i]]] += segmentLength[i]; };
    const size_t cpFrom = (from + kStride - 1) / kStride, cpTo = to / kStride;
    if (cpFrom >= cpTo) {
        for (size_t i = from; i < to; ++i)
            addOne(i);
        return;
    }
    for (size_t i = from; i < cpFrom * kStride; ++i)
        addOne(i);
    for (size_t i = cpTo * kStride; i < to; ++i)
        addOne(i);
    const size_t slots = masks.size();
    for (size_t s = 0; s < slots; ++s)
        maskNs[masks[s]] += checkpoints[cpTo * slots + s] - checkpoints[cpFrom * slots + s];
}

size_t ActivityIndex::memoryBytes() const
{
    return sizeof(*this) + segmentStart.capacity() * 8 + segmentLength.capacity() * 8 + segmentSlot.capacity() +
           checkpoints.capacity() * 8 + gpuTracks.capacity() * sizeof(GpuTrack);
}

std::shared_ptr<const ActivityIndex> activityIndex(const EventStore &store, const core::CancelToken *cancel)
{
    return std::static_pointer_cast<const ActivityIndex>(
        store.derived(&kIndexKey, [&]() -> std::shared_ptr<const void> { return buildIndex(store, cancel); }));
}

GpuBreakdown windowBreakdown(const EventStore &store, const ActivityIndex &index, TimeWindow window)
{
    const int64_t t0 = window.start, t1 = window.end;
    if (t1 < t0)
        return {};
    WindowEvents w;
    for (const ActivityIndex::GpuTrack &g : index.gpuTracks)
        (g.endsInStartOrder ? countOrdered : countAny)(store.track(g.track), t0, t1, w);
    GpuBreakdown b;
    if (w.events == 0)
        return b;
    b.events = w.events;
    b.firstStart = w.first;
    b.lastEnd = w.last;
    // Segments [i0, i1) overlap the window: the first ends after t0, the last starts before t1.
    const auto &starts = index.segmentStart;
    const size_t count = starts.size();
    size_t i0 = size_t(std::upper_bound(starts.begin(), starts.end(), t0) - starts.begin()); // starts > t0
    if (i0 > 0 && index.segmentEnd(i0 - 1) > t0)
        --i0; // the segment that starts at or before t0 reaches into the window
    const size_t i1 = size_t(std::lower_bound(starts.begin(), starts.end(), t1) - starts.begin());
    if (i0 < i1 && i0 < count) {
        const auto clipped = [&](size_t i) {
            b.maskNs[index.masks[index.segmentSlot[i]]] += std::min(index.segmentEnd(i), t1) - std::max(starts[i], t0);
        };
        clipped(i0);
        if (i1 - 1 > i0) {
            clipped(i1 - 1);
            index.addSegmentTimes(i0 + 1, i1 - 1, b.maskNs);
        }
    }
    finishBreakdown(b);
    return b;
}

} // namespace ps::core::analysis
