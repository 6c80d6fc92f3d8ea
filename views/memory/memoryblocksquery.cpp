#include "views/memory/memoryblocksquery.h"

#include "core/analysis/memory/memorypeak.h"
#include "core/trace/formats/torchmemoryfiles.h"
#include "core/trace/formats/torchmemoryreader.h"
#include "core/trace/memory/torchmemoryhistory.h"
#include "core/trace/persist/mappedfile.h"
#include "views/memory/memorycategories.h"

#include <algorithm>
#include <unordered_map>

namespace ps::views {

namespace an = ps::core::analysis;
namespace tr = ps::core::trace;

namespace {

MemoryBlockRow rowOf(const tr::MemorySnapshot &s, const tr::LiveBlock &b, int64_t timeNs)
{
    MemoryBlockRow row;
    row.bytes = b.size;
    row.addr = b.addr;
    if (b.allocTimeNs)
        row.agoNs = timeNs - *b.allocTimeNs;
    const auto [frames, n] = s.stack(b.stack);
    for (size_t i = 0; i < n; ++i) {
        const tr::MemFrame &f = s.frames[frames[i]];
        (tr::isTorchInternalFrame(f) ? row.internalFrames : row.userFrames).push_back(f);
    }
    return row;
}

// The sites of `groups` with the first `listed` of `live` (largest first) under theirs.
std::vector<MemorySiteRow> sitesOf(const tr::MemorySnapshot &s, const std::vector<tr::LiveGroup> &groups,
                                   const std::vector<tr::LiveBlock> &live, size_t listed)
{
    std::vector<MemorySiteRow> out;
    std::unordered_map<std::string, size_t> siteOf;
    for (const tr::LiveGroup &g : groups) {
        MemorySiteRow site{g.bytes, g.blocks, {}, g.foldedFrames, {}};
        for (uint32_t f : g.frames)
            site.userFrames.push_back(s.frames[f]);
        siteOf.emplace(tr::memorySiteKey(s, g.stack), out.size());
        out.push_back(std::move(site));
    }
    for (size_t i = 0; i < listed && i < live.size(); ++i)
        if (auto it = siteOf.find(tr::memorySiteKey(s, live[i].stack)); it != siteOf.end())
            out[it->second].rows.push_back(i);
    return out;
}

// The snapshot as the report was read from it: `cached` when it is that file, else read again.
std::shared_ptr<const tr::MemorySnapshot> snapshotOf(const tr::Report &report,
                                                     std::shared_ptr<const tr::MemorySnapshot> cached, QString &error)
{
    const tr::FileStamp stamp = tr::fileStamp(report.path);
    if (!stamp.exists || stamp.size != report.fileSize || stamp.mtimeNs != report.fileMtimeNs) {
        error = QStringLiteral("%1 changed or was removed since it was opened: reopen it to list its blocks")
                    .arg(QString::fromStdString(report.path));
        return nullptr;
    }
    if (cached && cached->path == report.path)
        return cached;
    auto read = std::make_shared<tr::MemorySnapshot>();
    if (const std::string e = tr::readMemorySnapshot(report.path, *read); !e.empty()) {
        error = QString::fromStdString(e);
        return nullptr;
    }
    return read;
}

MemoryBlocks snapshotBlocks(const MemoryPoint &point, std::shared_ptr<const tr::MemorySnapshot> cached,
                            const core::CancelToken &cancel)
{
    MemoryBlocks out;
    const tr::Report &report = *point.report;
    QString error;
    out.snapshot = snapshotOf(report, std::move(cached), error);
    if (!out.snapshot) {
        out.heading = error;
        out.failed = true;
        return out;
    }
    if (cancel.cancelled())
        return out;
    const tr::MemorySnapshot &s = *out.snapshot;
    const int64_t device = report.meta.memory[point.series].device;
    const std::vector<tr::MemTraceEntry> &trace = tr::memoryTrace(s, device);
    const std::vector<tr::MemElement> elements = tr::memoryElements(s, device);
    std::optional<size_t> event = tr::memoryEventAt(s, trace, point.timeNs);
    int64_t at = point.timeNs;
    if (point.atPeak) {
        event = tr::memoryCurve(s, device, elements).peakEvent;
        at = event ? tr::memoryEntryTimeNs(s, trace, *event) : 0;
        out.peakTimeNs = at;
    }
    // The sites and their sums as `trace memory --at` gives them; the blocks under them.
    const an::MemoryAt held = an::memoryAfter(s, device, elements, event);
    const std::vector<tr::LiveBlock> live = tr::liveBlocksAfter(s, device, elements, event);
    out.bytes = held.bytes;
    out.blockCount = live.size();
    for (size_t i = 0; i < live.size() && i < kMemoryBlocksShown; ++i)
        out.blocks.push_back(rowOf(s, live[i], at));
    out.sites = sitesOf(s, held.sites, live, out.blocks.size());
    out.ooms = tr::memoryOoms(s, device);
    out.heading = QStringLiteral("%1: %2 in %3 live blocks at %4 allocation sites")
                      .arg(point.title(), memoryBytesText(out.bytes))
                      .arg(live.size())
                      .arg(out.sites.size());
    if (live.size() > kMemoryBlocksShown)
        out.heading += QStringLiteral(" (the largest %1 listed)").arg(kMemoryBlocksShown);
    return out;
}

MemoryBlocks timelineCategories(const MemoryPoint &point)
{
    MemoryBlocks out;
    const std::vector<tr::MemorySeries> &memory = point.report->meta.memory;
    for (size_t i = 0; i < memory.size(); ++i)
        if (const auto category = memoryCategoryOf(memory[i]))
            if (const int64_t bytes = memoryBytesAt(memory[i], point.timeNs); bytes != 0) {
                out.categories.emplace_back(*category, bytes);
                out.bytes += bytes;
            }
    std::stable_sort(out.categories.begin(), out.categories.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    out.heading = QStringLiteral("%1: %2 by category (a memory timeline records categories, not blocks)")
                      .arg(point.where, memoryBytesText(out.bytes));
    return out;
}

} // namespace

bool isSnapshotLane(const tr::Report &report, size_t series)
{
    return report.meta.format == tr::kTorchMemoryFormat && series < report.meta.memory.size() &&
           tr::memoryFileKind(report.path) == tr::MemoryFileKind::Snapshot;
}

MemoryBlocks queryMemoryBlocks(const MemoryPoint &point, std::shared_ptr<const tr::MemorySnapshot> cached,
                               const core::CancelToken &cancel)
{
    const tr::Report &report = *point.report;
    if (point.series >= report.meta.memory.size()) {
        MemoryBlocks none;
        none.heading = QStringLiteral("No memory lane here");
        return none;
    }
    if (isSnapshotLane(report, point.series))
        return snapshotBlocks(point, std::move(cached), cancel);
    if (report.meta.format == tr::kTorchMemoryFormat)
        return timelineCategories(point);
    MemoryBlocks out;
    out.heading = QStringLiteral("%1: %2 (%3). The blocks that hold memory are listed for PyTorch CUDA memory "
                                 "snapshots (torch.cuda.memory._dump_snapshot, verl's torch_memory tool); open one "
                                 "beside this report.")
                      .arg(point.where, memoryBytesText(memoryBytesAt(report.meta.memory[point.series], point.timeNs)),
                           QString::fromStdString(report.meta.memory[point.series].source));
    return out;
}

} // namespace ps::views
