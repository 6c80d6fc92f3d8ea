#include "core/analysis/breakdown/projection.h"

#include "core/trace/tracestats.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ps::core::analysis {

using trace::EventStore;
using trace::Track;
using trace::TrackKind;

namespace {

// The GPU operations of one API call, reduced to what a projection needs.
struct CallWork
{
    int64_t callStart = 0, callEnd = 0;
    int64_t opStart = 0, opEnd = 0;
};

bool isProjectedOp(TrackKind k)
{
    return k == TrackKind::Kernel || k == TrackKind::Memcpy || k == TrackKind::Memset;
}

// API calls of one thread that launched GPU operations, in call start order.
std::vector<CallWork> launchingCalls(const EventStore &store, uint32_t apiTrack)
{
    std::vector<CallWork> calls;
    const Track &t = store.track(apiTrack);
    for (uint32_t i = 0; i < t.size(); ++i) {
        CallWork c{t.start(i), t.end(i), INT64_MAX, INT64_MIN};
        for (const trace::EventRef &op : store.gpuWorkFor({apiTrack, i})) {
            const Track &gt = store.track(op.track);
            if (!isProjectedOp(gt.kind()))
                continue;
            c.opStart = std::min(c.opStart, gt.start(op.index));
            c.opEnd = std::max(c.opEnd, gt.end(op.index));
        }
        if (c.opStart != INT64_MAX)
            calls.push_back(c);
    }
    return calls;
}

struct Instances
{
    std::vector<int64_t> proj;
    int64_t rangeNs = 0;
    uint64_t ops = 0;
};

// Projects every range of one range track onto the calls of its thread.
void projectTrack(const EventStore &store, const Track &ranges, const std::vector<CallWork> &calls,
                  std::map<std::pair<std::string, std::string>, Instances> &out)
{
    const std::string style(trace::nvtxStyleName(ranges.kind()));
    for (size_t r = 0; r < ranges.size(); ++r) {
        if (ranges.crossThreadEndTid(r))
            continue;
        const int64_t rs = ranges.start(r), re = ranges.end(r);
        auto it = std::lower_bound(calls.begin(), calls.end(), rs,
                                   [](const CallWork &c, int64_t t) { return c.callStart < t; });
        int64_t first = INT64_MAX, last = INT64_MIN;
        uint64_t ops = 0;
        for (; it != calls.end() && it->callStart <= re; ++it) {
            if (it->callEnd > re)
                continue;
            first = std::min(first, it->opStart);
            last = std::max(last, it->opEnd);
            ++ops;
        }
        if (ops == 0)
            continue;
        Instances &in = out[{trace::nvtxRangeName(store, ranges.name(r), ranges.attr(r)), style}];
        in.proj.push_back(last - first);
        in.rangeNs += re - rs;
        in.ops += ops;
    }
}

ProjectionRow summarize(const std::string &range, const std::string &style, Instances &in)
{
    ProjectionRow row{range, style, in.proj.size(), 0, in.rangeNs};
    std::sort(in.proj.begin(), in.proj.end());
    for (int64_t p : in.proj)
        row.totalProjNs += p;
    const size_t n = in.proj.size();
    row.avgProjNs = double(row.totalProjNs) / double(n);
    row.medProjNs = n % 2 ? double(in.proj[n / 2]) : (double(in.proj[n / 2 - 1]) + double(in.proj[n / 2])) / 2;
    row.minProjNs = in.proj.front();
    row.maxProjNs = in.proj.back();
    double squares = 0;
    for (int64_t p : in.proj)
        squares += (double(p) - row.avgProjNs) * (double(p) - row.avgProjNs);
    row.stddevProjNs = n > 1 ? std::sqrt(squares / double(n - 1)) : 0;
    row.gpuOps = in.ops;
    return row;
}

} // namespace

ProjectionResult nvtxGpuProjection(const EventStore &store, const core::CancelToken *cancel)
{
    ProjectionResult result;
    // API track of each thread.
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> apiTracks;
    for (uint32_t k : store.tracksOfKind(TrackKind::CudaApi))
        apiTracks[{store.track(k).pid(), store.track(k).tid()}] = k;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<CallWork>> callsByThread;
    std::map<std::pair<std::string, std::string>, Instances> instances;
    for (const Track &t : store.tracks()) {
        if (!trace::isRangeKind(t.kind()))
            continue;
        if (cancel && cancel->cancelled()) {
            result.cancelled = true;
            return result;
        }
        auto api = apiTracks.find({t.pid(), t.tid()});
        if (api == apiTracks.end())
            continue;
        auto calls = callsByThread.find(api->first);
        if (calls == callsByThread.end())
            calls = callsByThread.emplace(api->first, launchingCalls(store, api->second)).first;
        projectTrack(store, t, calls->second, instances);
    }
    for (auto &[key, in] : instances)
        result.rows.push_back(summarize(key.first, key.second, in));
    std::stable_sort(result.rows.begin(), result.rows.end(),
                     [](const ProjectionRow &a, const ProjectionRow &b) { return a.totalProjNs > b.totalProjNs; });
    return result;
}

} // namespace ps::core::analysis
