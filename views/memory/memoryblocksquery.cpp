#include "views/memory/memoryblocksquery.h"

#include "core/trace/formats/torchmemoryfiles.h"
#include "core/trace/formats/torchmemoryreader.h"
#include "core/trace/memory/torchmemoryhistory.h"
#include "core/trace/persist/mappedfile.h"
#include "views/memory/memorycategories.h"

#include <algorithm>

namespace ps::views {

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
    const std::vector<tr::LiveBlock> live = tr::liveBlocksAt(s, device, point.timeNs, &out.bytes);
    out.blockCount = live.size();
    for (size_t i = 0; i < live.size() && i < kMemoryBlocksShown; ++i)
        out.blocks.push_back(rowOf(s, live[i], point.timeNs));
    out.ooms = tr::memoryOoms(s, device);
    out.heading =
        QStringLiteral("%1: %2 in %3 live blocks").arg(point.where, memoryBytesText(out.bytes)).arg(live.size());
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
    if (point.series >= report.meta.memory.size())
        return {QStringLiteral("No memory lane here"), false, {}, 0, 0, {}, {}, nullptr};
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
