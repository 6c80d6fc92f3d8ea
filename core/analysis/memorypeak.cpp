#include "core/analysis/memorypeak.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace ps::core::analysis {

using trace::MemAction;
using trace::MemorySnapshot;
using trace::MemTraceEntry;

namespace {

constexpr size_t kNever = SIZE_MAX;
constexpr int64_t kMaxDevices = 4096;
constexpr size_t kBefore = SIZE_MAX - 1; // allocated before the recorded history

// One allocation as memory_viz draws it: from its alloc (or the start) to its free_completed.
struct Element
{
    int64_t size = 0;
    uint32_t stack = 0;
    size_t start = kBefore;
    size_t end = kNever;
};

std::vector<Element> elementsOf(const MemorySnapshot &s, int64_t device, const std::vector<MemTraceEntry> &trace)
{
    std::vector<Element> elements;
    std::unordered_map<uint64_t, size_t> open;
    for (size_t i = 0; i < trace.size(); ++i) {
        const MemTraceEntry &e = trace[i];
        if (e.action == MemAction::Alloc) {
            open[e.addr] = elements.size();
            elements.push_back({e.size, e.stack, i, kNever});
        } else if (e.action == MemAction::FreeCompleted) {
            if (auto it = open.find(e.addr); it != open.end()) {
                elements[it->second].end = i;
                open.erase(it);
            } else { // allocated before the history began, or its alloc left the ring buffer
                elements.push_back({e.size, e.stack, kBefore, i});
            }
        }
    }
    for (const trace::MemSegment &seg : s.segments) {
        if (seg.device != device)
            continue;
        for (uint32_t b = seg.firstBlock; b < seg.firstBlock + seg.blockCount; ++b) {
            const trace::MemBlock &blk = s.blocks[b];
            if (blk.state == trace::MemBlockState::ActiveAllocated && !open.count(blk.addr))
                elements.push_back({blk.requestedSize, blk.stack, kBefore, kNever});
        }
    }
    return elements;
}

void allocatedSeries(const std::vector<MemTraceEntry> &trace, const std::vector<Element> &elements, DeviceMemory &out)
{
    std::vector<int64_t> delta(trace.size(), 0);
    for (const Element &e : elements) {
        if (e.start == kBefore)
            out.baselineBytes = trace::addWrapping(out.baselineBytes, e.size);
        else
            delta[e.start] = trace::addWrapping(delta[e.start], e.size);
        if (e.end != kNever)
            delta[e.end] = trace::subWrapping(delta[e.end], e.size);
    }
    int64_t running = out.baselineBytes;
    out.peakBytes = running;
    for (size_t i = 0; i < trace.size(); ++i) {
        if (trace[i].action != MemAction::Alloc && trace[i].action != MemAction::FreeCompleted)
            continue;
        running = trace::addWrapping(running, delta[i]);
        out.timeNs.push_back(trace[i].timeUs * 1000);
        out.allocated.push_back(running);
        if (running > out.peakBytes) {
            out.peakBytes = running;
            out.peakTimeNs = trace[i].timeUs * 1000;
            out.peakEvent = i;
        }
    }
}

void reservedSeries(const MemorySnapshot &s, int64_t device, const std::vector<MemTraceEntry> &trace, DeviceMemory &out)
{
    int64_t final = 0, sum = 0, lowest = 0;
    for (const trace::MemSegment &seg : s.segments)
        if (seg.device == device)
            final = trace::addWrapping(final, seg.totalSize);
    std::vector<std::pair<size_t, int64_t>> deltas;
    for (size_t i = 0; i < trace.size(); ++i) {
        const MemAction a = trace[i].action;
        const int64_t d = (a == MemAction::SegmentAlloc || a == MemAction::SegmentMap)    ? trace[i].size
                          : (a == MemAction::SegmentFree || a == MemAction::SegmentUnmap) ? -trace[i].size
                                                                                          : 0;
        if (a >= MemAction::SegmentAlloc && a <= MemAction::SegmentUnmap) {
            deltas.emplace_back(i, d);
            sum = trace::addWrapping(sum, d);
            lowest = std::min(lowest, sum);
        }
    }
    // Anchored at the dump-time segments; a file without them starts where nothing goes below 0.
    int64_t running = s.segments.empty() ? trace::subWrapping(0, lowest) : trace::subWrapping(final, sum);
    out.peakReservedBytes = running;
    for (const auto &[i, d] : deltas) {
        running = trace::addWrapping(running, d);
        out.reservedTimeNs.push_back(trace[i].timeUs * 1000);
        out.reserved.push_back(running);
        out.peakReservedBytes = std::max(out.peakReservedBytes, running);
    }
}

void groupLive(const MemorySnapshot &s, const std::vector<Element> &elements, DeviceMemory &out)
{
    const std::optional<size_t> peak = out.peakEvent; // none: the peak is before the history
    std::unordered_map<std::string, size_t> groupOf;
    for (const Element &e : elements) {
        const bool started = e.start == kBefore || (peak && e.start <= *peak);
        const bool ended = e.end != kNever && peak && e.end <= *peak;
        if (!started || ended)
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

DeviceMemory analyzeDevice(const MemorySnapshot &s, int64_t device, const std::vector<MemTraceEntry> &trace)
{
    DeviceMemory out;
    out.device = device;
    const std::vector<Element> elements = elementsOf(s, device, trace);
    allocatedSeries(trace, elements, out);
    reservedSeries(s, device, trace, out);
    groupLive(s, elements, out);
    for (const MemTraceEntry &e : trace)
        if (e.action == MemAction::Oom)
            out.ooms.push_back({e.timeUs * 1000, e.size, int64_t(e.addr)});
    if (!s.hasTimes) {
        out.peakTimeNs.reset();
        for (MemoryOom &o : out.ooms)
            o.timeNs.reset();
    }
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
    int64_t devices = int64_t(s.traces.size());
    for (const trace::MemSegment &seg : s.segments)
        if (seg.device >= 0 && seg.device < kMaxDevices)
            devices = std::max(devices, seg.device + 1);
    static const std::vector<MemTraceEntry> none;
    for (int64_t d = 0; d < devices && d < kMaxDevices; ++d) {
        const auto &trace = size_t(d) < s.traces.size() ? s.traces[size_t(d)] : none;
        const bool hasSegments =
            std::any_of(s.segments.begin(), s.segments.end(), [&](const auto &seg) { return seg.device == d; });
        if (!trace.empty() || hasSegments)
            out.devices.push_back(analyzeDevice(s, d, trace));
    }
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
