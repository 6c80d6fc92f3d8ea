#include "core/analysis/memory/memorypeak.h"

#include "core/trace/memory/torchmemoryhistory.h"

#include <algorithm>

namespace ps::core::analysis {

using trace::MemorySnapshot;
using trace::MemTraceEntry;

namespace {

DeviceMemory analyzeDevice(const MemorySnapshot &s, int64_t device)
{
    DeviceMemory out;
    out.device = device;
    const std::vector<trace::MemElement> elements = trace::memoryElements(s, device);
    trace::MemoryCurve c = trace::memoryCurve(s, device, elements);
    out.baselineBytes = c.baselineBytes;
    out.timeNs = std::move(c.timeNs);
    out.allocated = std::move(c.allocated);
    out.reservedTimeNs = std::move(c.reservedTimeNs);
    out.reserved = std::move(c.reserved);
    out.peakBytes = c.peakBytes;
    out.peakEvent = c.peakEvent;
    out.peakReservedBytes = c.peakReservedBytes;
    const std::vector<MemTraceEntry> &trace = trace::memoryTrace(s, device);
    out.liveAtPeak = trace::liveGroups(s, elements, out.peakEvent);
    out.ooms = trace::memoryOoms(s, device);
    if (s.hasTimes && out.peakEvent)
        out.peakTimeNs = trace[*out.peakEvent].timeUs * 1000;
    return out;
}

} // namespace

MemoryAt memoryAt(const MemorySnapshot &s, int64_t device, int64_t timeNs)
{
    return memoryAfter(s, device, trace::memoryElements(s, device),
                       trace::memoryEventAt(s, trace::memoryTrace(s, device), timeNs));
}

MemoryAt memoryAfter(const MemorySnapshot &s, int64_t device, const std::vector<trace::MemElement> &elements,
                     std::optional<size_t> event)
{
    MemoryAt out;
    out.device = device;
    out.event = event;
    out.sites = trace::liveGroups(s, elements, event);
    for (const LiveGroup &g : out.sites) {
        out.bytes = trace::addWrapping(out.bytes, g.bytes);
        out.blocks += g.blocks;
    }
    return out;
}

SnapshotMemory analyzeSnapshot(const MemorySnapshot &s)
{
    SnapshotMemory out;
    for (const int64_t d : trace::memoryDevices(s))
        out.devices.push_back(analyzeDevice(s, d));
    return out;
}

TimelineMemory analyzeTimeline(const trace::MemoryTimeline &t)
{
    TimelineMemory out;
    bool any = false;
    for (size_t i = 0; i < t.bytes.size(); ++i) {
        int64_t total = 0;
        for (int64_t v : t.bytes[i])
            total = trace::addWrapping(total, v);
        if (!any || total > out.peakBytes) {
            any = true;
            out.peakBytes = total;
            out.peakTimeNs = t.timeNs[i];
            out.categoriesAtPeak = t.bytes[i];
        }
    }
    return out;
}

std::optional<CrossRankPeak> crossRankPeak(const std::vector<RankPeak> &peaks)
{
    if (peaks.size() < 2)
        return std::nullopt;
    CrossRankPeak out;
    std::vector<int64_t> v;
    for (size_t i = 0; i < peaks.size(); ++i) {
        v.push_back(peaks[i].peakBytes);
        if (peaks[i].peakBytes > peaks[out.highest].peakBytes)
            out.highest = i;
    }
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    out.medianBytes = n % 2 ? v[n / 2] : int64_t((__int128(v[n / 2 - 1]) + v[n / 2]) / 2);
    out.overMedianBytes = trace::subWrapping(peaks[out.highest].peakBytes, out.medianBytes);
    out.overMedianRatio = out.medianBytes > 0 ? double(peaks[out.highest].peakBytes) / double(out.medianBytes) : 0;
    return out;
}

} // namespace ps::core::analysis
