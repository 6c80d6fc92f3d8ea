#include "core/analysis/breakdown/breakdown.h"

#include "core/analysis/breakdown/activityindex.h"
#include "core/analysis/breakdown/workunions.h"

namespace ps::core::analysis {

using trace::EventStore;
using trace::Track;
using trace::TrackKind;

namespace {

constexpr uint32_t kCompBit = 1u << size_t(GpuWork::Compute);
constexpr uint32_t kCommBit = 1u << size_t(GpuWork::Communication);

// One class's intervals: a union per track, back to back, then (unite()) their union.
struct ClassRuns
{
    std::vector<Interval> all;
    std::vector<size_t> bounds{0};
    std::vector<Interval> scratch;

    void reset()
    {
        all.clear();
        bounds.assign(1, 0);
    }
    void closeRun()
    {
        if (all.size() > bounds.back())
            bounds.push_back(all.size());
    }
    void unite()
    {
        if (bounds.size() > 2)
            unionOfRunsInPlace(all, scratch, bounds);
    }
    // Keeps at most kKeptIntervals of capacity for the next call (16 MB per buffer), so a
    // thread that once met a huge report does not hold its memory for good.
    void trim()
    {
        constexpr size_t kKeptIntervals = size_t(1) << 20;
        if (all.capacity() > kKeptIntervals)
            std::vector<Interval>().swap(all);
        if (scratch.capacity() > kKeptIntervals)
            std::vector<Interval>().swap(scratch);
    }
};
using AllRuns = std::array<ClassRuns, kGpuWorkCount>;

// Per-thread buffers that keep their capacity: a breakdown per report or per phase window then
// allocates nothing, where fresh vectors of a 1 M-event report (16 MB, above malloc's mmap
// threshold) were mapped and faulted in on every call.
AllRuns &threadRuns()
{
    thread_local AllRuns runs;
    return runs;
}

bool trackSelected(const Track &t, const BreakdownFilter &f)
{
    if (!trace::isGpuKind(t.kind()) || t.empty())
        return false;
    if (f.device && t.deviceId() != *f.device)
        return false;
    return !f.stream || t.streamId() == *f.stream;
}

// Adds the track's events (clipped to the window) to the per-class runs; false when cancelled.
bool collectTrack(const Track &t, const WorkClassTable &classes, const BreakdownFilter &f, AllRuns &runs,
                  size_t &events, const core::CancelToken *cancel)
{
    const int64_t t0 = f.window ? f.window->start : INT64_MIN;
    const int64_t t1 = f.window ? f.window->end : INT64_MAX;
    trace::IndexRange range{0, t.size()};
    if (f.window && t1 < t0)
        return true; // an inverted window holds nothing
    if (f.window)    // from t0 - 1: Track::window() leaves out instants at t0
        range = t.window(t0 == INT64_MIN ? t0 : t0 - 1, t1);
    std::array<size_t, kGpuWorkCount> runBegin;
    for (size_t c = 0; c < kGpuWorkCount; ++c)
        runBegin[c] = runs[c].all.size();
    for (size_t i = range.first; i < range.last; ++i) {
        if ((i & 0xFFFF) == 0 && cancel && cancel->cancelled())
            return false;
        const int64_t s = t.start(i), e = t.end(i);
        if (s >= t1 || e < t0 || (e == t0 && s < t0))
            continue;
        const size_t c = size_t(classes.of(t, i));
        appendToUnion(runs[c].all, runBegin[c], std::max(s, t0), std::min(e, t1));
        ++events;
    }
    for (ClassRuns &r : runs)
        r.closeRun();
    return true;
}

} // namespace

void finishBreakdown(GpuBreakdown &b)
{
    for (uint32_t m = 1; m < b.maskNs.size(); ++m) {
        const int64_t ns = b.maskNs[m];
        if (ns == 0)
            continue;
        b.busyNs += ns;
        for (size_t c = 0; c < kGpuWorkCount; ++c)
            if (m & (1u << c))
                b.unionNs[c] += ns;
        b.exclusiveNs[size_t(__builtin_ctz(m))] += ns;
        if ((m & kCompBit) && (m & kCommBit))
            b.commCompOverlapNs += ns;
    }
    b.spanNs = b.lastEnd - b.firstStart;
    b.idleNs = b.spanNs - b.busyNs;
}

namespace {

// The whole report's or a window's breakdown from the store's activity index (built on first use).
GpuBreakdown indexedBreakdown(const EventStore &store, const BreakdownFilter &filter, const core::CancelToken *cancel)
{
    const std::shared_ptr<const ActivityIndex> index = activityIndex(store, cancel);
    if (!index || (cancel && cancel->cancelled())) {
        GpuBreakdown b;
        b.cancelled = true;
        return b;
    }
    return filter.window ? windowBreakdown(store, *index, *filter.window) : index->whole;
}

} // namespace

std::optional<double> GpuBreakdown::overlapPct() const
{
    const int64_t comm = unionNs[size_t(GpuWork::Communication)];
    if (comm == 0)
        return std::nullopt;
    return 100.0 * double(commCompOverlapNs) / double(comm);
}

// Every name is classed, not only the kernels' ones: names are few, and finding which ones
// kernels use would cost a pass over every kernel event.
WorkClassTable::WorkClassTable(const EventStore &store)
{
    m_kernelClass.reserve(store.names().size());
    for (trace::NameId n = 0; n < store.names().size(); ++n)
        m_kernelClass.push_back(classifyGpuWork(TrackKind::Kernel, store.name(n)));
}

GpuWork WorkClassTable::of(const Track &track, size_t index) const
{
    switch (track.kind()) {
    case TrackKind::Kernel: {
        switch (track.taskClass(index)) {
        case trace::DeviceTaskClass::Communication:
            return GpuWork::Communication;
        case trace::DeviceTaskClass::Other:
            return GpuWork::Other;
        case trace::DeviceTaskClass::Compute:
            break;
        }
        const trace::NameId n = track.name(index);
        return n < m_kernelClass.size() ? m_kernelClass[n] : GpuWork::Compute;
    }
    case TrackKind::Memcpy:
        return GpuWork::Memcpy;
    case TrackKind::Memset:
        return GpuWork::Memset;
    default:
        return GpuWork::Sync;
    }
}

GpuBreakdown computeBreakdown(const EventStore &store, const BreakdownFilter &filter, const core::CancelToken *cancel)
{
    // The index path classes nothing: a class table is made only for a pass over the events.
    if (!filter.device && !filter.stream)
        return indexedBreakdown(store, filter, cancel);
    return computeBreakdownDirect(store, WorkClassTable(store), filter, cancel);
}

namespace {

// The per-class unions of the selected GPU events into `runs[c].all`; false when cancelled.
bool collectUnions(const EventStore &store, const WorkClassTable &classes, const BreakdownFilter &filter,
                   const core::CancelToken *cancel, AllRuns &runs, size_t &events)
{
    for (ClassRuns &r : runs)
        r.reset();
    for (const Track &t : store.tracks()) {
        if (!trackSelected(t, filter))
            continue;
        if (!collectTrack(t, classes, filter, runs, events, cancel))
            return false;
    }
    for (ClassRuns &r : runs)
        r.unite();
    return true;
}

} // namespace

bool withGpuWorkUnions(const EventStore &store, const WorkClassTable &classes, const BreakdownFilter &filter,
                       const core::CancelToken *cancel,
                       const std::function<void(std::span<const std::span<const Interval>>, size_t)> &use)
{
    // The per-track runs are many times the size of their unions; they stay in the thread's
    // buffers, where fresh memory for them would cost more in page faults than the work.
    AllRuns &runs = threadRuns();
    size_t events = 0;
    const bool ok = collectUnions(store, classes, filter, cancel, runs, events);
    if (ok) {
        std::array<std::span<const Interval>, kGpuWorkCount> lists;
        for (size_t c = 0; c < kGpuWorkCount; ++c)
            lists[c] = runs[c].all;
        use(lists, events);
    }
    for (ClassRuns &r : runs)
        r.trim();
    return ok;
}

std::optional<WorkUnions> gpuWorkUnions(const EventStore &store, const WorkClassTable &classes,
                                        const BreakdownFilter &filter, const core::CancelToken *cancel)
{
    WorkUnions u;
    const bool ok = withGpuWorkUnions(store, classes, filter, cancel, [&](auto byClass, size_t events) {
        u.events = events;
        for (size_t c = 0; c < kGpuWorkCount; ++c)
            u.byClass[c].assign(byClass[c].begin(), byClass[c].end());
    });
    if (!ok)
        return std::nullopt;
    return u;
}

GpuBreakdown computeBreakdown(const EventStore &store, const WorkClassTable &classes, const BreakdownFilter &filter,
                              const core::CancelToken *cancel)
{
    if (filter.device || filter.stream)
        return computeBreakdownDirect(store, classes, filter, cancel);
    return indexedBreakdown(store, filter, cancel);
}

GpuBreakdown computeBreakdownDirect(const EventStore &store, const WorkClassTable &classes,
                                    const BreakdownFilter &filter, const core::CancelToken *cancel,
                                    std::vector<Interval> *busy)
{
    GpuBreakdown b;
    AllRuns &runs = threadRuns();
    if (!collectUnions(store, classes, filter, cancel, runs, b.events) || (cancel && cancel->cancelled())) {
        b = GpuBreakdown{};
        b.cancelled = true;
        return b;
    }
    if (b.events == 0)
        return b;
    std::array<std::span<const Interval>, kGpuWorkCount> lists;
    b.firstStart = INT64_MAX;
    b.lastEnd = INT64_MIN;
    for (size_t c = 0; c < kGpuWorkCount; ++c) {
        lists[c] = runs[c].all;
        if (!lists[c].empty()) {
            b.firstStart = std::min(b.firstStart, lists[c].front().start);
            b.lastEnd = std::max(b.lastEnd, lists[c].back().end);
        }
    }
    sweepUnions(std::span<const std::span<const Interval>>(lists), [&](uint32_t mask, int64_t s, int64_t e) {
        b.maskNs[mask] += e - s;
        if (busy && !busy->empty() && busy->back().end == s)
            busy->back().end = e;
        else if (busy)
            busy->push_back({s, e});
    });
    finishBreakdown(b);
    for (ClassRuns &r : runs)
        r.trim();
    return b;
}

} // namespace ps::core::analysis
