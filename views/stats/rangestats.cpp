#include "views/stats/rangestats.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>

namespace ps::views {

using namespace ps::core::trace;

namespace {
bool counts(StatsKind kind, TrackKind t)
{
    return kind == StatsKind::NvtxSum ? isRangeKind(t) : t == TrackKind::Kernel;
}

StatRow finish(std::string name, std::vector<int64_t> &d)
{
    StatRow r;
    r.name = std::move(name);
    std::sort(d.begin(), d.end());
    r.count = d.size();
    long double sum = 0;
    for (int64_t v : d)
        sum += v;
    r.totalNs = int64_t(sum);
    r.avgNs = double(sum / d.size());
    const size_t n = d.size();
    r.medNs = n % 2 ? double(d[n / 2]) : (double(d[n / 2 - 1]) + double(d[n / 2])) / 2.0;
    r.minNs = d.front();
    r.maxNs = d.back();
    if (n > 1) {
        long double ss = 0;
        for (int64_t v : d)
            ss += (v - (long double)r.avgNs) * (v - (long double)r.avgNs);
        r.stddevNs = double(std::sqrt(ss / (n - 1)));
    }
    return r;
}
} // namespace

std::vector<StatRow> summarizeWindow(const TimelineScene &scene, const std::vector<int> &entries, TimeWindow window,
                                     StatsKind kind, const std::atomic<bool> *cancel)
{
    std::unordered_map<std::string, std::vector<int64_t>> byName;
    for (int ei : entries) {
        if (ei < 0 || size_t(ei) >= scene.entries.size())
            continue;
        if (cancel && cancel->load(std::memory_order_relaxed))
            return {};
        const TimelineEntry &e = scene.entries[size_t(ei)];
        const EventStore &store = e.report->store();
        // Durations per name id first (ids are per report), strings once per id at the end.
        std::unordered_map<NameId, std::vector<int64_t>> byId;
        const int64_t t0 = window.start - e.offset, t1 = window.end - e.offset;
        for (const Track &t : store.tracks()) {
            if (!counts(kind, t.kind()))
                continue;
            const auto &starts = t.columns().start;
            const size_t a = size_t(std::lower_bound(starts.begin(), starts.end(), t0) - starts.begin());
            const size_t b = size_t(std::lower_bound(starts.begin(), starts.end(), t1) - starts.begin());
            for (size_t i = a; i < b; ++i)
                byId[t.name(i)].push_back(t.duration(i));
        }
        for (auto &[id, d] : byId) {
            auto &dst = byName[std::string(store.name(id))];
            dst.insert(dst.end(), d.begin(), d.end());
        }
    }
    std::vector<StatRow> rows;
    rows.reserve(byName.size());
    for (auto &[name, d] : byName)
        rows.push_back(finish(name, d));
    std::sort(rows.begin(), rows.end(), [](const StatRow &a, const StatRow &b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
    return rows;
}

} // namespace ps::views
