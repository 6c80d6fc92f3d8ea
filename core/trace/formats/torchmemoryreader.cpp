#include "core/trace/formats/torchmemoryreader.h"

#include "core/trace/formats/formatutil.h"
#include "core/trace/formats/torchmemoryfiles.h"
#include "core/trace/memory/torchmemoryhistory.h"
#include "core/trace/persist/tracecache.h"

#include <algorithm>
#include <cctype>

namespace ps::core::trace {

namespace {

// What every memory report carries: format, who wrote it, and one scope for its ranges and marks.
struct MemoryReportWriter
{
    StoreBuilder &b;
    ReportMeta &meta;
    uint32_t pid = 0;
    uint16_t scope = 0;

    MemoryReportWriter(StoreBuilder &builder, ReportMeta &m, const MemoryFileIdentity &id, const char *what)
        : b(builder), meta(m), pid(id.pid.value_or(0))
    {
        meta.format = kTorchMemoryFormat;
        meta.rank = id.rank;
        if (id.pid)
            meta.pids = {*id.pid};
        b.setProcessName(pid, b.intern(what));
        scope = b.nvtxScope({pid, 0, kNoName, 1, b.intern("torch_memory")});
    }
    // The device's thread: marks where the recorded history begins and ends (what the report
    // spans), at the peak and at the OOMs. Marks, not a range: a range would count as an
    // annotation range in range totals and run comparisons.
    void history(uint32_t device, int64_t first, int64_t last, const std::string &what)
    {
        b.setThreadName(pid, device, b.intern("torch memory device " + std::to_string(device)));
        mark(device, first, "memory history begins (" + what + ")");
        if (last > first)
            mark(device, last, "memory history ends");
    }
    void mark(uint32_t device, int64_t t, const std::string &name)
    {
        b.add(b.track({TrackKind::NvtxMark, pid, device, 0}), t, t, b.intern(name), 0, scope);
        meta.fileCounts[size_t(TrackKind::NvtxMark)] += 1;
    }
    // A UTC origin when the times are on the wall clock; else the reason they cannot be tied.
    void clock(bool wallClock, const std::string &why)
    {
        if (wallClock)
            meta.utcStartNs = 0; // epoch times
        else
            meta.warnings.push_back(why + ": its clock cannot be tied to the traces' clock, so it opens aligned "
                                          "by start");
    }
};

std::string bytesText(int64_t bytes)
{
    return formatByteSize(uint64_t(std::max<int64_t>(0, bytes)));
}

MemorySeries seriesOf(uint32_t device, std::string source, int64_t startNs, int64_t startBytes,
                      const std::vector<int64_t> &timeNs, const std::vector<int64_t> &bytes)
{
    MemorySeriesBuilder b(device, std::move(source));
    b.add(startNs, startBytes);
    for (size_t i = 0; i < timeNs.size(); ++i)
        b.add(timeNs[i], bytes[i]);
    return std::move(b).build();
}

void addSnapshotDevice(const MemorySnapshot &s, int64_t device, MemoryReportWriter &w)
{
    const std::vector<MemTraceEntry> &trace = memoryTrace(s, device);
    const uint32_t dev = uint32_t(device);
    const std::vector<MemElement> elements = memoryElements(s, device);
    const MemoryCurve c = memoryCurve(s, device, elements);
    w.meta.memoryPeaks.push_back(memoryDevicePeak(s, device, elements, c));
    int64_t first = 0, last = 0;
    for (size_t i = 0; i < trace.size(); ++i) {
        const int64_t t = memoryEntryTimeNs(s, trace, i);
        first = i ? std::min(first, t) : t;
        last = i ? std::max(last, t) : t;
    }
    w.meta.memory.push_back(
        seriesOf(dev, std::string(kSnapshotAllocatedSource), first, c.baselineBytes, c.timeNs, c.allocated));
    w.meta.memory.push_back(
        seriesOf(dev, std::string(kSnapshotReservedSource), first, c.reservedStartBytes, c.reservedTimeNs, c.reserved));
    w.history(dev, first, last, std::to_string(trace.size()) + " allocator events");
    if (c.peakEvent)
        w.mark(dev, memoryEntryTimeNs(s, trace, *c.peakEvent), "memory peak: " + bytesText(c.peakBytes) + " allocated");
    for (size_t i = 0; i < trace.size(); ++i)
        if (trace[i].action == MemAction::Oom)
            w.mark(dev, memoryEntryTimeNs(s, trace, i),
                   "OOM: requested " + bytesText(trace[i].size) + ", device free " + bytesText(int64_t(trace[i].addr)));
}

std::string readSnapshotReport(const std::string &path, StoreBuilder &b, ReportMeta &meta)
{
    MemorySnapshot s;
    if (std::string e = readMemorySnapshot(path, s); !e.empty())
        return e;
    MemoryReportWriter w(b, meta, s.identity, "torch memory snapshot");
    meta.warnings.insert(meta.warnings.end(), s.warnings.begin(), s.warnings.end());
    if (memoryFirstTimeNs(s))
        w.clock(memoryOnWallClock(s),
                s.hasTimes ? "the snapshot's time_us is not on the wall clock"
                           : "the snapshot has no time_us (older PyTorch): allocator events stand 1 µs apart in "
                             "file order");
    for (const int64_t device : memoryDevices(s))
        addSnapshotDevice(s, device, w);
    return {};
}

std::string readTimelineReport(const std::string &path, StoreBuilder &b, ReportMeta &meta)
{
    MemoryTimeline t;
    if (std::string e = readMemoryTimeline(path, t); !e.empty())
        return e;
    MemoryReportWriter w(b, meta, t.identity, "torch memory timeline");
    if (t.timeNs.empty())
        return {};
    // export_memory_timeline names no device in the file; one device, 0.
    std::vector<int64_t> total(t.timeNs.size(), 0);
    for (size_t i = 0; i < t.timeNs.size(); ++i)
        for (int64_t v : t.bytes[i])
            total[i] = addWrapping(total[i], v);
    meta.memory.push_back(
        seriesOf(0, std::string(kTimelineTotalSource), t.timeNs.front(), total.front(), t.timeNs, total));
    for (size_t c = 0; c < kMemoryCategories.size(); ++c) {
        std::vector<int64_t> bytes(t.timeNs.size());
        bool used = false;
        for (size_t i = 0; i < t.timeNs.size(); ++i)
            used = (bytes[i] = t.bytes[i][c]) != 0 || used;
        if (used)
            meta.memory.push_back(
                seriesOf(0, timelineCategorySource(c), t.timeNs.front(), bytes.front(), t.timeNs, bytes));
    }
    const auto [lo, hi] = std::minmax_element(t.timeNs.begin(), t.timeNs.end());
    w.clock(*lo >= kMemoryEpochFloorNs, "the memory timeline's times are not on the wall clock");
    w.history(0, *lo, *hi, std::to_string(t.timeNs.size()) + " samples");
    const size_t peak = size_t(std::max_element(total.begin(), total.end()) - total.begin());
    w.mark(0, t.timeNs[peak], "memory peak: " + bytesText(total[peak]));
    return {};
}

} // namespace

std::vector<NamePattern> TorchMemoryReader::namePatterns() const
{
    std::vector<NamePattern> out;
    for (const char *ext : {".pickle", ".pkl", ".pickle.gz", ".pkl.gz"}) {
        out.push_back({std::string("*") + ext, false});
        for (const char *word : {"*memory*", "*snapshot*"})
            out.push_back({word + std::string(ext), true});
    }
    for (const char *ext : {".json", ".json.gz", ".raw.gz", ".html"})
        out.push_back({std::string("*memory*") + ext, true});
    return out;
}

bool TorchMemoryReader::probe(std::string_view path, std::string_view head) const
{
    switch (memoryFileKind(path)) {
    case MemoryFileKind::Snapshot: // protocol 2 and later open with PROTO; gzip with 1f 8b
        return !head.empty() &&
               (uint8_t(head[0]) == 0x80 || (head.size() >= 2 && uint8_t(head[0]) == 0x1f && uint8_t(head[1]) == 0x8b &&
                                             formats::lowerFileName(path).ends_with(".gz")));
    case MemoryFileKind::Timeline:
    case MemoryFileKind::TimelineHtml:
        return true;
    case MemoryFileKind::NotMemory:
        break;
    }
    return false;
}

std::string TorchMemoryReader::read(const std::string &path, StoreBuilder &builder, ReportMeta &meta,
                                    const ReadContext &ctx) const
{
    const bool snapshot = memoryFileKind(path) == MemoryFileKind::Snapshot;
    std::string error = snapshot ? readSnapshotReport(path, builder, meta) : readTimelineReport(path, builder, meta);
    if (error.empty() && ctx.cancel && ctx.cancel->cancelled())
        return "cancelled";
    if (error.empty() && ctx.progress)
        ctx.progress(1.0);
    return error;
}

} // namespace ps::core::trace
