#include "core/analysis/breakdown/idletime.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace ps::core::analysis {

using trace::EventStore;
using trace::TrackKind;

namespace {

struct StreamEvent
{
    int64_t start = 0;
    int64_t end = 0;
    std::optional<int64_t> launchStart; // start of the CPU call that launched it
};

// Linear interpolation between order statistics, as pandas' quantile does.
double quantile(const std::vector<int64_t> &sorted, double q)
{
    const double pos = q * double(sorted.size() - 1);
    const size_t lo = size_t(std::floor(pos));
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    return double(sorted[lo]) + (pos - double(lo)) * double(sorted[hi] - sorted[lo]);
}

GapStats describe(std::vector<int64_t> gaps)
{
    GapStats s;
    s.count = gaps.size();
    if (gaps.empty())
        return s;
    std::sort(gaps.begin(), gaps.end());
    for (int64_t g : gaps)
        s.sum += g;
    s.mean = double(s.sum) / double(s.count);
    double squares = 0;
    for (int64_t g : gaps)
        squares += (double(g) - s.mean) * (double(g) - s.mean);
    s.stddev = s.count > 1 ? std::sqrt(squares / double(s.count - 1)) : 0;
    s.min = double(gaps.front());
    s.max = double(gaps.back());
    s.p25 = quantile(gaps, 0.25);
    s.p50 = quantile(gaps, 0.5);
    s.p75 = quantile(gaps, 0.75);
    return s;
}

StreamIdle classifyGaps(std::vector<StreamEvent> &events, const IdleOptions &options)
{
    std::stable_sort(events.begin(), events.end(),
                     [](const StreamEvent &a, const StreamEvent &b) { return a.start < b.start; });
    std::array<std::vector<int64_t>, kIdleCategoryCount> gaps;
    for (size_t i = 1; i < events.size(); ++i) {
        const int64_t prevEnd = events[i - 1].end;
        const int64_t gap = events[i].start - prevEnd;
        IdleCategory c = IdleCategory::Other;
        if (events[i].launchStart && *events[i].launchStart > prevEnd)
            c = IdleCategory::HostWait;
        else if (gap < options.consecutiveKernelDelayNs)
            c = IdleCategory::KernelWait;
        gaps[size_t(c)].push_back(gap);
    }
    StreamIdle out;
    for (size_t c = 0; c < kIdleCategoryCount; ++c)
        out.categories[c] = describe(std::move(gaps[c]));
    return out;
}

} // namespace

std::string_view idleCategoryName(IdleCategory c)
{
    static constexpr std::string_view kNames[] = {"host_wait", "kernel_wait", "other"};
    return kNames[size_t(c)];
}

int64_t StreamIdle::totalNs() const
{
    int64_t t = 0;
    for (const GapStats &g : categories)
        t += g.sum;
    return t;
}

IdleBreakdown idleTimeBreakdown(const EventStore &store, const IdleOptions &options, const core::CancelToken *cancel)
{
    IdleBreakdown out;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<StreamEvent>> streams;
    for (uint32_t ti = 0; ti < store.tracks().size(); ++ti) {
        const trace::Track &t = store.track(ti);
        if (t.kind() != TrackKind::Kernel && t.kind() != TrackKind::Memcpy && t.kind() != TrackKind::Memset)
            continue;
        if (cancel && cancel->cancelled()) {
            out.cancelled = true;
            return out;
        }
        auto &events = streams[{t.deviceId(), t.streamId()}];
        for (uint32_t i = 0; i < t.size(); ++i) {
            StreamEvent e{t.start(i), t.end(i), std::nullopt};
            if (auto api = store.apiCallFor({ti, i}))
                e.launchStart = store.track(api->track).start(api->index);
            events.push_back(e);
        }
    }
    for (auto &[key, events] : streams) {
        StreamIdle s = classifyGaps(events, options);
        s.device = key.first;
        s.stream = key.second;
        out.streams.push_back(s);
    }
    return out;
}

} // namespace ps::core::analysis
