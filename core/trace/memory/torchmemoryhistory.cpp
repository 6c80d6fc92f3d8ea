#include "core/trace/memory/torchmemoryhistory.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ps::core::trace {

namespace {

constexpr int64_t kMaxDevices = 4096;

void allocatedCurve(const MemorySnapshot &s, const std::vector<MemTraceEntry> &trace,
                    const std::vector<MemElement> &elements, MemoryCurve &out)
{
    std::vector<int64_t> delta(trace.size(), 0);
    for (const MemElement &e : elements) {
        if (e.start == kMemBefore)
            out.baselineBytes = addWrapping(out.baselineBytes, e.size);
        else
            delta[e.start] = addWrapping(delta[e.start], e.size);
        if (e.end != kMemNever)
            delta[e.end] = subWrapping(delta[e.end], e.size);
    }
    int64_t running = out.baselineBytes;
    out.peakBytes = running;
    for (size_t i = 0; i < trace.size(); ++i) {
        if (trace[i].action != MemAction::Alloc && trace[i].action != MemAction::FreeCompleted)
            continue;
        running = addWrapping(running, delta[i]);
        out.timeNs.push_back(memoryEntryTimeNs(s, trace, i));
        out.allocated.push_back(running);
        out.event.push_back(i);
        if (running > out.peakBytes) {
            out.peakBytes = running;
            out.peakEvent = i;
        }
    }
}

void reservedCurve(const MemorySnapshot &s, int64_t device, const std::vector<MemTraceEntry> &trace, MemoryCurve &out)
{
    int64_t final = 0, sum = 0, lowest = 0;
    for (const MemSegment &seg : s.segments)
        if (seg.device == device)
            final = addWrapping(final, seg.totalSize);
    std::vector<std::pair<size_t, int64_t>> deltas;
    for (size_t i = 0; i < trace.size(); ++i) {
        const MemAction a = trace[i].action;
        if (a < MemAction::SegmentAlloc || a > MemAction::SegmentUnmap)
            continue;
        const bool grows = a == MemAction::SegmentAlloc || a == MemAction::SegmentMap;
        const int64_t d = grows ? trace[i].size : -trace[i].size;
        deltas.emplace_back(i, d);
        sum = addWrapping(sum, d);
        lowest = std::min(lowest, sum);
    }
    // Anchored at the dump-time segments; a file without them starts where nothing goes below 0.
    int64_t running = s.segments.empty() ? subWrapping(0, lowest) : subWrapping(final, sum);
    out.reservedStartBytes = running;
    out.peakReservedBytes = running;
    for (const auto &[i, d] : deltas) {
        running = addWrapping(running, d);
        out.reservedTimeNs.push_back(memoryEntryTimeNs(s, trace, i));
        out.reserved.push_back(running);
        out.peakReservedBytes = std::max(out.peakReservedBytes, running);
    }
}

} // namespace

std::vector<int64_t> memoryDevices(const MemorySnapshot &s)
{
    std::vector<int64_t> out;
    for (size_t d = 0; d < s.traces.size() && int64_t(d) < kMaxDevices; ++d)
        if (!s.traces[d].empty())
            out.push_back(int64_t(d));
    for (const MemSegment &seg : s.segments)
        if (seg.device >= 0 && seg.device < kMaxDevices && std::find(out.begin(), out.end(), seg.device) == out.end())
            out.push_back(seg.device);
    std::sort(out.begin(), out.end());
    return out;
}

const std::vector<MemTraceEntry> &memoryTrace(const MemorySnapshot &s, int64_t device)
{
    static const std::vector<MemTraceEntry> none;
    return device >= 0 && size_t(device) < s.traces.size() ? s.traces[size_t(device)] : none;
}

std::vector<MemElement> memoryElements(const MemorySnapshot &s, int64_t device)
{
    const std::vector<MemTraceEntry> &trace = memoryTrace(s, device);
    std::vector<MemElement> elements;
    std::unordered_map<uint64_t, size_t> open;
    for (size_t i = 0; i < trace.size(); ++i) {
        const MemTraceEntry &e = trace[i];
        if (e.action == MemAction::Alloc) {
            open[e.addr] = elements.size();
            elements.push_back({e.addr, e.size, e.stack, i, kMemNever});
        } else if (e.action == MemAction::FreeCompleted) {
            if (auto it = open.find(e.addr); it != open.end()) {
                elements[it->second].end = i;
                open.erase(it);
            } else { // allocated before the history began, or its alloc left the ring buffer
                elements.push_back({e.addr, e.size, e.stack, kMemBefore, i});
            }
        }
    }
    for (const MemSegment &seg : s.segments) {
        if (seg.device != device)
            continue;
        for (uint32_t b = seg.firstBlock; b < seg.firstBlock + seg.blockCount; ++b) {
            const MemBlock &blk = s.blocks[b];
            if (blk.state == MemBlockState::ActiveAllocated && !open.count(blk.addr))
                elements.push_back({blk.addr, blk.requestedSize, blk.stack, kMemBefore, kMemNever});
        }
    }
    return elements;
}

int64_t memoryEntryTimeNs(const MemorySnapshot &s, const std::vector<MemTraceEntry> &trace, size_t index)
{
    if (!s.hasTimes)
        return int64_t(index) * 1000;
    int64_t within = 0; // entries of the same µs before this one, up to 999 (never the next µs)
    while (within < 999 && size_t(within) < index && trace[index - size_t(within) - 1].timeUs == trace[index].timeUs)
        ++within;
    return trace[index].timeUs * 1000 + within;
}

std::optional<int64_t> memoryFirstTimeNs(const MemorySnapshot &s)
{
    std::optional<int64_t> first;
    for (const auto &trace : s.traces)
        for (size_t i = 0; i < trace.size(); ++i)
            first = std::min(first.value_or(INT64_MAX), memoryEntryTimeNs(s, trace, i));
    return first;
}

bool memoryOnWallClock(const MemorySnapshot &s)
{
    const std::optional<int64_t> first = memoryFirstTimeNs(s);
    return s.hasTimes && first && *first >= kMemoryEpochFloorNs;
}

MemoryCurve memoryCurve(const MemorySnapshot &s, int64_t device, const std::vector<MemElement> &elements)
{
    MemoryCurve out;
    const std::vector<MemTraceEntry> &trace = memoryTrace(s, device);
    allocatedCurve(s, trace, elements, out);
    reservedCurve(s, device, trace, out);
    return out;
}

std::optional<size_t> memoryEventAt(const MemorySnapshot &s, const std::vector<MemTraceEntry> &trace, int64_t timeNs)
{
    std::optional<size_t> event;
    for (size_t i = 0; i < trace.size(); ++i)
        if (memoryEntryTimeNs(s, trace, i) <= timeNs)
            event = i;
    return event;
}

std::vector<LiveBlock> liveBlocksAt(const MemorySnapshot &s, int64_t device, int64_t timeNs, int64_t *total)
{
    return liveBlocksAfter(s, device, memoryElements(s, device), memoryEventAt(s, memoryTrace(s, device), timeNs),
                           total);
}

std::vector<LiveBlock> liveBlocksAfter(const MemorySnapshot &s, int64_t device, const std::vector<MemElement> &elements,
                                       std::optional<size_t> event, int64_t *total)
{
    const std::vector<MemTraceEntry> &trace = memoryTrace(s, device);
    std::vector<LiveBlock> out;
    int64_t sum = 0;
    for (const MemElement &e : elements) {
        if (!e.liveAfter(event))
            continue;
        std::optional<int64_t> at;
        if (e.start != kMemBefore)
            at = memoryEntryTimeNs(s, trace, e.start);
        out.push_back({e.addr, e.size, e.stack, at});
        sum = addWrapping(sum, e.size);
    }
    std::stable_sort(out.begin(), out.end(), [](const LiveBlock &a, const LiveBlock &b) { return a.size > b.size; });
    if (total)
        *total = sum;
    return out;
}

bool isTorchInternalFrame(const MemFrame &f)
{
    const std::string_view file = f.file;
    if (file.empty() || file == "??")
        return true;
    for (std::string_view ext : {".c", ".cc", ".cpp", ".cu", ".cuh", ".h", ".hpp"})
        if (file.ends_with(ext))
            return true;
    return file.find("/torch/") != std::string_view::npos || file.find("\\torch\\") != std::string_view::npos ||
           file.rfind("torch/", 0) == 0;
}

namespace {

std::string siteKey(const std::vector<uint32_t> &userFrames, uint32_t stack)
{
    return userFrames.empty()
               ? "s" + std::to_string(stack)
               : std::string(reinterpret_cast<const char *>(userFrames.data()), userFrames.size() * sizeof(uint32_t));
}

} // namespace

std::string memorySiteKey(const MemorySnapshot &s, uint32_t stack)
{
    std::vector<uint32_t> user;
    const auto [frames, n] = s.stack(stack);
    for (size_t i = 0; i < n; ++i)
        if (!isTorchInternalFrame(s.frames[frames[i]]))
            user.push_back(frames[i]);
    return siteKey(user, stack);
}

std::vector<LiveGroup> liveGroups(const MemorySnapshot &s, const std::vector<MemElement> &elements,
                                  std::optional<size_t> event)
{
    std::vector<LiveGroup> out;
    std::unordered_map<std::string, size_t> groupOf;
    for (const MemElement &e : elements) {
        if (!e.liveAfter(event))
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
        auto [it, added] = groupOf.emplace(siteKey(g.frames, e.stack), out.size());
        if (added)
            out.push_back(std::move(g));
        out[it->second].bytes = addWrapping(out[it->second].bytes, e.size);
        out[it->second].blocks += 1;
    }
    std::stable_sort(out.begin(), out.end(), [](const LiveGroup &a, const LiveGroup &b) { return a.bytes > b.bytes; });
    return out;
}

std::vector<MemoryOom> memoryOoms(const MemorySnapshot &s, int64_t device)
{
    std::vector<MemoryOom> out;
    for (const MemTraceEntry &e : memoryTrace(s, device))
        if (e.action == MemAction::Oom)
            out.push_back(
                {s.hasTimes ? std::optional<int64_t>(e.timeUs * 1000) : std::nullopt, e.size, int64_t(e.addr)});
    return out;
}

MemoryDevicePeak memoryDevicePeak(const MemorySnapshot &s, int64_t device, const std::vector<MemElement> &elements,
                                  const MemoryCurve &curve)
{
    MemoryDevicePeak out;
    out.device = device;
    out.peakBytes = curve.peakBytes;
    out.peakReservedBytes = curve.peakReservedBytes;
    const std::vector<MemTraceEntry> &trace = memoryTrace(s, device);
    if (s.hasTimes && curve.peakEvent)
        out.peakTimeNs = trace[*curve.peakEvent].timeUs * 1000;
    const std::vector<LiveGroup> groups = liveGroups(s, elements, curve.peakEvent);
    for (size_t i = 0; i < groups.size() && i < kMemoryPeakSites; ++i) {
        MemoryPeakSite site{groups[i].bytes, groups[i].blocks, {}, groups[i].foldedFrames};
        for (size_t f = 0; f < groups[i].frames.size() && f < kMemoryPeakFrames; ++f)
            site.frames.push_back(s.frames[groups[i].frames[f]]);
        out.liveAtPeak.push_back(std::move(site));
    }
    out.ooms = memoryOoms(s, device);
    return out;
}

} // namespace ps::core::trace
