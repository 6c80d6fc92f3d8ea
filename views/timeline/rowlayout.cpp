#include "views/timeline/rowlayout.h"

#include "core/trace/formats/ascendreader.h"
#include "core/trace/tracecache.h"

#include <algorithm>

namespace ps::views {

using namespace ps::core::trace;

namespace {
// The format's own words for its annotation ranges, their marks, runtime calls, GPU work and
// accelerator: NVTX / roctx / mstx, CUDA / HIP / CANN (ACL), kernels or NPU tasks.
struct FormatWords
{
    const char *ranges, *marks, *api, *kernels, *device;
};

const FormatWords &wordsOf(TraceFormat f)
{
    static const FormatWords nsys{"NVTX", "NVTX marks", "CUDA API", "Kernels", "GPU"};
    static const FormatWords rocpd{"roctx", "roctx marks", "HIP API", "Kernels", "GPU"};
    static const FormatWords ascend{"torch ops / mstx", "torch ops / mstx marks", "CANN (ACL) API", "Tasks", "NPU"};
    static const FormatWords kineto{"torch ops", "Instant events", "Runtime API", "Kernels", "GPU"};
    static const FormatWords rlinf{"torch ops", "torch ops marks", "Runtime API", "Kernels", "GPU"};
    switch (f) {
    case TraceFormat::Rocpd:
        return rocpd;
    case TraceFormat::AscendDb:
        return ascend;
    case TraceFormat::KinetoJson:
        return kineto;
    case TraceFormat::RlinfTracer:
        return rlinf;
    case TraceFormat::NsysSqlite:
        break;
    }
    return nsys;
}

QString kindText(TrackKind k, TraceFormat f)
{
    const FormatWords &w = wordsOf(f);
    switch (k) {
    case TrackKind::NvtxPushPop:
    case TrackKind::NvtxStartEnd:
        return QString::fromUtf8(w.ranges);
    case TrackKind::NvtxMark:
        return QString::fromUtf8(w.marks);
    case TrackKind::CudaApi:
        return QString::fromUtf8(w.api);
    case TrackKind::OsRuntime:
        return QStringLiteral("OS runtime");
    case TrackKind::Kernel:
        return QString::fromUtf8(w.kernels);
    case TrackKind::Memcpy:
        return QStringLiteral("Memcpy");
    case TrackKind::Memset:
        return QStringLiteral("Memset");
    case TrackKind::Sync:
        return QStringLiteral("Sync");
    }
    return {};
}

QString deviceWord(TraceFormat format)
{
    return QString::fromUtf8(wordsOf(format).device);
}

QString labelText(const EventStore &store, const Track &track)
{
    const std::string_view s = store.name(track.label());
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}
} // namespace

QString RowLayout::trackLabel(const EventStore &store, const Track &track, TraceFormat format)
{
    if (isGpuKind(track.kind())) // the label names the queue: "stream 7", "no stream", ...
        return QStringLiteral("%1 · %2 %3 · %4")
            .arg(kindText(track.kind(), format), deviceWord(format))
            .arg(track.deviceId())
            .arg(labelText(store, track));
    NameId n = track.label() != kNoName ? track.label() : store.threadName(track.pid(), track.tid());
    const QString thread = n != kNoName ? QString::fromUtf8(store.name(n).data(), qsizetype(store.name(n).size()))
                                        : QStringLiteral("thread");
    // Ascend's HCCL communication groups: the reader's lane, named by the group's root ip:port.
    const QString hccl = QString::fromUtf8(kHcclLanePrefix.data(), qsizetype(kHcclLanePrefix.size()));
    if (format == TraceFormat::AscendDb && track.kind() == TrackKind::NvtxStartEnd && thread.startsWith(hccl))
        return QStringLiteral("HCCL · group %1").arg(thread.mid(hccl.size()));
    return QStringLiteral("%1 · %2 [%3]").arg(kindText(track.kind(), format), thread).arg(track.tid());
}

QString RowLayout::groupKey(const QStringList &groupPath)
{
    return QStringLiteral("group:") + groupPath.join(QLatin1Char('/'));
}

QString RowLayout::reportKey(const TimelineEntry &entry)
{
    return QStringLiteral("report:") + entry.key;
}

QStringList RowLayout::keysHiding(const TimelineEntry &entry)
{
    QStringList keys{reportKey(entry)};
    for (int d = 1; d <= entry.groupPath.size(); ++d)
        keys << groupKey(entry.groupPath.mid(0, d));
    return keys;
}

QString RowLayout::trackKey(const TimelineEntry &entry, const QString &label)
{
    return reportKey(entry) + QLatin1Char('|') + label;
}

QString RowLayout::kindOf(const QString &label)
{
    return label.section(QStringLiteral(" · "), 0, 0);
}

RowLayout::RowLayout(const TimelineScene &scene, const QSet<QString> &collapsed)
    : RowLayout(scene, [&] {
          TrackView v;
          v.collapsed = collapsed;
          return v;
      }())
{
}

RowLayout::RowLayout(const TimelineScene &scene, const TrackView &view)
{
    m_view = &view;
    const QSet<QString> &collapsed = view.collapsed;
    int y = 0;
    addPinnedRows(scene, y);
    QStringList open;     // header path currently emitted
    int hiddenBelow = -1; // depth of a collapsed header whose content is skipped, -1 = none
    for (size_t ei = 0; ei < scene.entries.size(); ++ei) {
        const TimelineEntry &e = scene.entries[ei];
        // Shared prefix with the headers already emitted.
        int common = 0;
        while (common < open.size() && common < e.groupPath.size() && open[common] == e.groupPath[common])
            ++common;
        open = open.mid(0, common);
        if (hiddenBelow >= common)
            hiddenBelow = -1;
        for (int d = common; d < e.groupPath.size(); ++d) {
            open << e.groupPath[d];
            if (hiddenBelow >= 0)
                continue;
            Row r;
            r.kind = RowKind::Group;
            r.depth = d;
            r.y = y;
            r.height = kHeaderHeight;
            r.label = e.groupPath[d];
            r.key = groupKey(open);
            r.collapsed = collapsed.contains(r.key);
            y += r.height;
            m_rows.push_back(r);
            if (r.collapsed)
                hiddenBelow = d;
        }
        if (hiddenBelow >= 0)
            continue;
        Row h;
        h.kind = RowKind::Report;
        h.depth = int(e.groupPath.size());
        h.y = y;
        h.height = kHeaderHeight;
        h.label = e.label;
        h.key = reportKey(e);
        h.collapsed = collapsed.contains(h.key);
        h.entry = int(ei);
        y += h.height;
        m_rows.push_back(h);
        if (h.collapsed)
            continue;
        addCounterRows(e, int(ei), h.depth + 1, y);
        addTrackRows(e, int(ei), h.depth + 1, y);
    }
    m_height = y;
    m_view = nullptr;
}

bool RowLayout::place(Row r, int &y)
{
    if (m_view->hiddenTracks.contains(r.key) || m_view->hiddenKinds.contains(kindOf(r.label)) ||
        m_view->pinned.contains(r.key))
        return false;
    r.y = y;
    y += r.height;
    m_rows.push_back(std::move(r));
    return true;
}

// Two tracks of a report can read alike (a thread's push/pop and start/end ranges, one thread id
// in two processes): the second gets its range style or process id, so that every label, and the
// track key made from it, names one track.
QString RowLayout::uniqueLabel(const QString &label, const Track &track, QSet<QString> &used)
{
    QString unique = label;
    if (used.contains(unique) && isRangeKind(track.kind())) // a thread's push/pop and start/end ranges
        unique = label + (track.kind() == TrackKind::NvtxStartEnd ? QStringLiteral(" · start/end")
                                                                  : QStringLiteral(" · push/pop"));
    if (used.contains(unique))
        unique = QStringLiteral("%1 · pid %2").arg(label).arg(track.pid());
    for (int k = 2; used.contains(unique); ++k)
        unique = QStringLiteral("%1 · #%2").arg(label).arg(k);
    used.insert(unique);
    return unique;
}

void RowLayout::addTrackRows(const TimelineEntry &e, int entry, int depth, int &y)
{
    const EventStore &store = e.report->store();
    QSet<QString> used;
    for (uint32_t ti = 0; ti < store.tracks().size(); ++ti) {
        const Track &t = store.track(ti);
        if (t.empty())
            continue;
        Row r;
        r.kind = RowKind::Track;
        r.depth = depth;
        r.label = uniqueLabel(trackLabel(store, t, e.report->report().meta.format), t, used);
        r.key = trackKey(e, r.label);
        const int levels = std::max<int>(1, t.levelCount());
        r.levels = m_view->fullDepth.contains(r.key) ? levels : std::min(levels, kMaxLanes);
        r.hiddenLevels = levels - r.levels;
        r.height = r.levels * kLaneHeight;
        if (r.hiddenLevels > 0)
            r.detail = QStringLiteral("+%1 deeper levels (click)").arg(r.hiddenLevels);
        else if (levels > kMaxLanes)
            r.detail = QStringLiteral("all %1 levels (click to fold)").arg(levels);
        r.entry = entry;
        r.track = ti;
        place(std::move(r), y);
    }
}

// Pinned tracks first, in pin order, under a "Pinned" header, named with their report. They
// stay pinned when their report is collapsed: pinning is how one watches a lane across ranks.
void RowLayout::addPinnedRows(const TimelineScene &scene, int &y)
{
    if (m_view->pinned.isEmpty())
        return;
    std::vector<Row> pinned(size_t(m_view->pinned.size()));
    RowLayout all(scene, TrackView{}); // every row, unpinned, with its key
    for (const Row &r : all.rows()) {
        const int at = r.isHeader() ? -1 : int(m_view->pinned.indexOf(r.key));
        if (at < 0)
            continue;
        Row p = r;
        p.depth = 1;
        p.label = scene.entries[size_t(r.entry)].label + QStringLiteral(" · ") + r.label;
        pinned[size_t(at)] = std::move(p);
    }
    Row header;
    header.kind = RowKind::Group;
    header.height = kHeaderHeight;
    header.label = QStringLiteral("Pinned");
    header.key = QStringLiteral("pinned:");
    header.collapsed = m_view->collapsed.contains(header.key);
    header.y = y;
    y += header.height;
    m_rows.push_back(header);
    if (header.collapsed)
        return;
    for (Row &p : pinned) {
        if (p.height == 0)
            continue; // its report is not open
        p.y = y;
        y += p.height;
        m_rows.push_back(std::move(p));
    }
}

// "GPU util · GPU 0" per device with GPU work, then "Memory · GPU 0 · <source>" per series.
void RowLayout::addCounterRows(const TimelineEntry &e, int entry, int depth, int &y)
{
    const auto add = [&](RowKind kind, int counter, int height, const QString &label, const QString &detail) {
        Row r;
        r.detail = detail;
        r.kind = kind;
        r.depth = depth;
        r.height = height;
        r.label = label;
        r.key = trackKey(e, label);
        r.entry = entry;
        r.counter = counter;
        place(std::move(r), y);
    };
    const QString device = deviceWord(e.report->report().meta.format);
    const auto &busy = e.report->deviceBusy();
    for (size_t i = 0; i < busy.size(); ++i)
        add(RowKind::Utilization, int(i), kUtilizationHeight,
            QStringLiteral("%1 util · %1 %2").arg(device).arg(busy[i].device()), {});
    const auto &memory = e.report->report().meta.memory;
    for (size_t i = 0; i < memory.size(); ++i)
        add(RowKind::Memory, int(i), kMemoryHeight,
            QStringLiteral("Memory · %1 %2 · %3")
                .arg(device)
                .arg(memory[i].device)
                .arg(QString::fromStdString(memory[i].source)),
            QStringLiteral("peak %1").arg(QString::fromStdString(formatByteSize(uint64_t(memory[i].peakBytes())))));
}

int RowLayout::rowAt(int y) const
{
    auto it = std::upper_bound(m_rows.begin(), m_rows.end(), y, [](int v, const Row &r) { return v < r.y; });
    if (it == m_rows.begin())
        return -1;
    --it;
    return y < it->bottom() ? int(it - m_rows.begin()) : -1;
}

std::pair<int, int> RowLayout::rowsIn(int y0, int y1) const
{
    auto first = std::partition_point(m_rows.begin(), m_rows.end(), [y0](const Row &r) { return r.bottom() <= y0; });
    auto last = std::partition_point(first, m_rows.end(), [y1](const Row &r) { return r.y < y1; });
    return {int(first - m_rows.begin()), int(last - m_rows.begin())};
}

int RowLayout::rowOf(int entry, uint32_t track) const
{
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].kind == RowKind::Track && m_rows[i].entry == entry && m_rows[i].track == track)
            return int(i);
    return -1;
}

int RowLayout::reportRowOf(int entry) const
{
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].kind == RowKind::Report && m_rows[i].entry == entry)
            return int(i);
    return -1;
}

} // namespace ps::views
