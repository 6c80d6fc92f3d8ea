#include "core/analysis/memorypeak.h"

#include "core/common/jsonwriter.h"
#include "core/trace/formats/torchmemoryhistory.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace ps::core::analysis {

using trace::MemAction;
using trace::MemorySnapshot;
using trace::MemTraceEntry;

namespace {

void groupLive(const MemorySnapshot &s, const std::vector<trace::MemElement> &elements, DeviceMemory &out)
{
    std::unordered_map<std::string, size_t> groupOf;
    for (const trace::MemElement &e : elements) {
        if (!e.liveAfter(out.peakEvent)) // no peak event: the peak is before the history
            continue;
        LiveGroup g;
        g.stack = e.stack;
        const auto [frames, n] = s.stack(e.stack);
        for (size_t i = 0; i < n; ++i) {
            if (isTorchInternalFrame(s.frames[frames[i]]))
                ++g.foldedFrames;
            else
                g.frames.push_back(frames[i]);
        }
        std::string key = g.frames.empty() ? "s" + std::to_string(e.stack)
                                           : std::string(reinterpret_cast<const char *>(g.frames.data()),
                                                         g.frames.size() * sizeof(uint32_t));
        auto [it, added] = groupOf.emplace(std::move(key), out.liveAtPeak.size());
        if (added)
            out.liveAtPeak.push_back(std::move(g));
        out.liveAtPeak[it->second].bytes = trace::addWrapping(out.liveAtPeak[it->second].bytes, e.size);
        out.liveAtPeak[it->second].blocks += 1;
    }
    std::stable_sort(out.liveAtPeak.begin(), out.liveAtPeak.end(),
                     [](const LiveGroup &a, const LiveGroup &b) { return a.bytes > b.bytes; });
}

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
    groupLive(s, elements, out);
    for (const MemTraceEntry &e : trace)
        if (e.action == MemAction::Oom)
            out.ooms.push_back({e.timeUs * 1000, e.size, int64_t(e.addr)});
    if (s.hasTimes && out.peakEvent)
        out.peakTimeNs = trace[*out.peakEvent].timeUs * 1000;
    if (!s.hasTimes)
        for (MemoryOom &o : out.ooms)
            o.timeNs.reset();
    return out;
}

} // namespace

bool isTorchInternalFrame(const trace::MemFrame &f)
{
    const std::string_view file = f.file;
    if (file.empty() || file == "??")
        return true;
    for (std::string_view ext : {".c", ".cc", ".cpp", ".cu", ".cuh", ".h", ".hpp"})
        if (file.ends_with(ext))
            return true;
    return file.find("/torch/") != std::string_view::npos || file.rfind("torch/", 0) == 0;
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

void writeOomJson(JsonWriter &w, const MemoryOom &oom)
{
    w.beginObject().key("time_ns").value(oom.timeNs).key("bytes").value(oom.bytes);
    w.key("device_free").value(oom.deviceFree).endObject();
}

} // namespace ps::core::analysis
