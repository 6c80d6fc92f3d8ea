#include "views/timeline/rowlayout.h"

#include "core/trace/persist/tracecache.h"
#include "views/scene/vendorwords.h"

#include <algorithm>

namespace ps::views {

using namespace ps::core::trace;

namespace {
QString kindText(TrackKind k, TraceFormat f)
{
    const FormatWords &w = formatWords(f);
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
    return QString::fromUtf8(formatWords(format).device);
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
    if (format == TraceFormat::AscendDb && track.trackClass() == TrackClass::CollectiveLane)
        return QStringLiteral("HCCL · group %1").arg(thread);
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

QString RowLayout::runOf(const TimelineEntry &entry)
{
    return QString::fromStdString(entry.report->report().identity.run);
}

QString RowLayout::kindKey(const TimelineEntry &entry, const QString &kind)
{
    return QStringLiteral("run:") + runOf(entry) + QLatin1Char('|') + kind;
}

std::pair<QString, std::optional<QString>> RowLayout::splitKindKey(const QString &key)
{
    const QString prefix = QStringLiteral("run:");
    const qsizetype bar = key.lastIndexOf(QLatin1Char('|')); // kind words have none; run names may
    if (!key.startsWith(prefix) || bar < 0)
        return {key, std::nullopt};
    return {key.mid(bar + 1), key.mid(prefix.size(), bar - prefix.size())};
}

bool TrackView::hidesKind(const TimelineEntry &entry, const QString &kind) const
{
    return hiddenKinds.contains(kind) || hiddenKinds.contains(RowLayout::kindKey(entry, kind));
}

namespace {
// Whether a track key ("report:<path>|<label>") belongs to one of `reports` (report keys).
bool ofReports(const QString &trackKey, const QSet<QString> &reports)
{
    for (qsizetype bar = trackKey.indexOf(QLatin1Char('|')); bar >= 0;
         bar = trackKey.indexOf(QLatin1Char('|'), bar + 1))
        if (reports.contains(trackKey.left(bar)))
            return true;
    return false;
}

template <typename Keys, typename Keep> Keys filtered(const Keys &keys, Keep keep)
{
    Keys out;
    for (const QString &k : keys)
        if (keep(k))
            out.insert(out.end(), k);
    return out;
}
} // namespace

TrackView TrackView::keptFor(const TimelineScene *scene) const
{
    QSet<QString> reports, runs;
    if (scene)
        for (const TimelineEntry &e : scene->entries) {
            reports.insert(RowLayout::reportKey(e));
            runs.insert(RowLayout::runOf(e));
        }
    const auto ofOpen = [&](const QString &k) { return ofReports(k, reports); };
    TrackView v;
    v.collapsed = collapsed; // a report opened again folds as it was
    v.hiddenKinds = filtered(hiddenKinds, [&](const QString &k) {
        const auto run = RowLayout::splitKindKey(k).second;
        return run ? runs.contains(*run) : !reports.isEmpty(); // an old session's bare word: while any is open
    });
    v.hiddenTracks = filtered(hiddenTracks, ofOpen);
    v.pinned = filtered(pinned, ofOpen);
    v.fullDepth = filtered(fullDepth, ofOpen);
    v.foldedReportHeight = foldedReportHeight;
    for (auto it = order.begin(); it != order.end(); ++it)
        if (reports.contains(it.key()))
            v.order.insert(it.key(), it.value());
    return v;
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
    m_scene = &scene;
    m_pinned.assign(size_t(view.pinned.size()), Row{});
    const QSet<QString> &collapsed = view.collapsed;
    int y = 0;
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
        bool shown = false;
        if (hiddenBelow < 0) {
            Row h;
            h.kind = RowKind::Report;
            h.depth = int(e.groupPath.size());
            h.y = y;
            h.label = e.label;
            h.key = reportKey(e);
            h.collapsed = collapsed.contains(h.key);
            h.height = h.collapsed && view.foldedReportHeight > 0 ? view.foldedReportHeight : kHeaderHeight;
            h.entry = int(ei);
            y += h.height;
            m_rows.push_back(h);
            shown = !h.collapsed;
        }
        // A folded report still gives its pinned lanes.
        if (!shown && !hasPinsIn(e))
            continue;
        m_placing = shown;
        const size_t firstLane = m_rows.size();
        addCounterRows(e, int(ei), int(e.groupPath.size()) + 1, y);
        addTrackRows(e, int(ei), int(e.groupPath.size()) + 1, y);
        applyOrder(firstLane, e);
    }
    m_height = y;
    prependPinnedRows();
    m_view = nullptr;
    m_scene = nullptr;
    m_pinned.clear();
}

bool RowLayout::hasPinsIn(const TimelineEntry &e) const
{
    const QString prefix = trackKey(e, QString());
    for (const QString &key : m_view->pinned)
        if (key.startsWith(prefix))
            return true;
    return false;
}

// A pinned row goes to the Pinned section (named with its report); a hidden one nowhere; the
// rest are laid out at y when their report is shown.
void RowLayout::place(Row r, int &y)
{
    if (const qsizetype pin = m_view->pinned.indexOf(r.key); pin >= 0) {
        r.depth = 1;
        r.label = m_scene->entries[size_t(r.entry)].label + QStringLiteral(" · ") + r.label;
        m_pinned[size_t(pin)] = std::move(r);
        return;
    }
    if (!m_placing || m_view->hiddenTracks.contains(r.key) ||
        m_view->hidesKind(m_scene->entries[size_t(r.entry)], kindOf(r.label)))
        return;
    r.y = y;
    y += r.height;
    m_rows.push_back(std::move(r));
}

// The lanes of a report laid out from `firstRow` on, in the order the user dragged them to.
void RowLayout::applyOrder(size_t firstRow, const TimelineEntry &e)
{
    const auto it = m_view->order.constFind(reportKey(e));
    if (it == m_view->order.constEnd() || m_rows.size() - firstRow < 2)
        return;
    QHash<QString, int> position;
    for (int i = 0; i < it->size(); ++i)
        position.insert(it->at(i), i);
    const int y0 = m_rows[firstRow].y;
    std::stable_sort(m_rows.begin() + std::ptrdiff_t(firstRow), m_rows.end(), [&](const Row &a, const Row &b) {
        return position.value(a.key, int(position.size())) < position.value(b.key, int(position.size()));
    });
    int y = y0;
    for (size_t i = firstRow; i < m_rows.size(); ++i) {
        m_rows[i].y = y;
        y += m_rows[i].height;
    }
}

// The Pinned section above everything, in pin order: pinning is how one watches a lane across
// ranks, so pinned lanes stay when their report is collapsed. The other rows move down under it.
// No pinned lane open (their reports closed): no section, not an empty header.
void RowLayout::prependPinnedRows()
{
    if (std::none_of(m_pinned.begin(), m_pinned.end(), [](const Row &p) { return p.height > 0; }))
        return;
    std::vector<Row> top;
    Row header;
    header.kind = RowKind::Group;
    header.height = kHeaderHeight;
    header.label = QStringLiteral("Pinned");
    header.key = QStringLiteral("pinned:");
    header.collapsed = m_view->collapsed.contains(header.key);
    top.push_back(header);
    int y = kHeaderHeight;
    for (Row &p : m_pinned) {
        if (header.collapsed || p.height == 0) // folded, or its report is not open
            continue;
        p.y = y;
        y += p.height;
        top.push_back(std::move(p));
    }
    for (Row &r : m_rows)
        r.y += y;
    m_pinnedRows = int(top.size());
    m_pinnedHeight = y;
    m_rows.insert(m_rows.begin(), std::make_move_iterator(top.begin()), std::make_move_iterator(top.end()));
    m_height += y;
}

QSet<QString> reportsToFoldForNewRun(const TimelineScene &scene, const TrackView &view, int height,
                                     const QSet<QString> &seen)
{
    QSet<QString> runs, shownRuns, reports;
    std::vector<int> firstOfRun;
    for (size_t i = 0; i < scene.entries.size(); ++i) {
        const TimelineEntry &e = scene.entries[i];
        const QString run = RowLayout::runOf(e);
        if (!runs.contains(run))
            firstOfRun.push_back(int(i));
        runs.insert(run);
        reports.insert(RowLayout::reportKey(e));
        if (seen.contains(RowLayout::reportKey(e)))
            shownRuns.insert(run);
    }
    if (runs.size() < 2 || shownRuns.size() == runs.size())
        return {};
    const RowLayout layout(scene, view);
    for (int entry : firstOfRun)
        if (const int row = layout.reportRowOf(entry);
            row >= 0 && layout.rows()[size_t(row)].y + RowLayout::kHeaderHeight > height)
            return reports;
    return {};
}

QSet<QString> newReportsOfFoldedRuns(const TimelineScene &scene, const TrackView &view, const QSet<QString> &seen)
{
    QSet<QString> shownRuns, expandedRuns;
    for (const TimelineEntry &e : scene.entries) {
        const QString key = RowLayout::reportKey(e);
        if (!seen.contains(key))
            continue;
        shownRuns.insert(RowLayout::runOf(e));
        if (!view.collapsed.contains(key))
            expandedRuns.insert(RowLayout::runOf(e));
    }
    QSet<QString> out;
    for (const TimelineEntry &e : scene.entries) {
        const QString run = RowLayout::runOf(e);
        const QString key = RowLayout::reportKey(e);
        if (!seen.contains(key) && shownRuns.contains(run) && !expandedRuns.contains(run))
            out.insert(key);
    }
    return out;
}

RowViewport::RowViewport(const RowLayout &layout, int scroll, int height) : scroll(scroll), height(height)
{
    if (layout.pinnedHeight() > 0 && layout.pinnedHeight() <= height / 2) {
        sticky = layout.pinnedHeight();
        stickyRows = layout.pinnedRows();
    }
    scrolled = layout.rowsIn(scroll + sticky, scroll + height);
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

std::vector<QString> RowLayout::trackLabels(const TimelineEntry &e)
{
    const EventStore &store = e.report->store();
    std::vector<QString> labels(store.tracks().size());
    QSet<QString> used;
    for (uint32_t ti = 0; ti < store.tracks().size(); ++ti)
        if (e.report->trackEvents(ti) > 0)
            labels[ti] =
                uniqueLabel(trackLabel(store, store.track(ti), e.report->report().meta.format), store.track(ti), used);
    return labels;
}

void RowLayout::addTrackRows(const TimelineEntry &e, int entry, int depth, int &y)
{
    const EventStore &store = e.report->store();
    const std::vector<QString> labels = trackLabels(e);
    for (uint32_t ti = 0; ti < store.tracks().size(); ++ti) {
        const Track &t = store.track(ti);
        if (e.report->trackEvents(ti) == 0)
            continue;
        Row r;
        r.kind = RowKind::Track;
        r.depth = depth;
        r.label = labels[ti];
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
    const auto &busy = e.report->busyDevices();
    for (size_t i = 0; i < busy.size(); ++i)
        add(RowKind::Utilization, int(i), kUtilizationHeight,
            QStringLiteral("%1 util · %1 %2").arg(device).arg(busy[i]), {});
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
