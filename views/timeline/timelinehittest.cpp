#include "views/timeline/timelinehittest.h"

#include "core/trace/read/reportsource.h"
#include "views/scene/timeformat.h"
#include "views/timeline/eventinfo.h"
#include "views/timeline/timelinepainter.h"

namespace ps::views {

using namespace ps::core::trace;

bool isValidSelection(const TimelineScene *scene, const TimelineSelection &s)
{
    if (!scene || s.entry < 0 || size_t(s.entry) >= scene->entries.size())
        return false;
    const EventStore &st = scene->entries[size_t(s.entry)].report->store();
    return s.ref.track < st.tracks().size() && s.ref.index < st.track(s.ref.track).size();
}

std::optional<core::TimeWindow> sharedWindowOf(const TimelineScene &scene, std::span<const TimelineSelection> events)
{
    std::optional<core::TimeWindow> extent;
    for (const TimelineSelection &s : events) {
        if (!isValidSelection(&scene, s))
            continue;
        const TimelineEntry &e = scene.entries[size_t(s.entry)];
        const Track &t = e.report->store().track(s.ref.track);
        const core::TimeWindow w{t.start(s.ref.index) + e.offset, t.end(s.ref.index) + e.offset};
        extent = extent ? core::TimeWindow{std::min(extent->start, w.start), std::max(extent->end, w.end)} : w;
    }
    return extent;
}

std::optional<LodMark> TimelineHitTest::foldedMarkAt(QPoint pos) const
{
    const int ri = m_layout.rowAt(layoutY(pos));
    const RowMarks *rm = ri < 0 ? nullptr : m_painter.cachedMarks(ri);
    if (!rm)
        return std::nullopt;
    const int level = RowLayout::laneAt(m_layout.rows()[size_t(ri)], layoutY(pos));
    if (size_t(level) >= rm->lanes.size())
        return std::nullopt;
    const auto &marks = rm->lanes[size_t(level)];
    const int mi = markAt(marks, laneX(pos));
    if (mi < 0 || (marks[size_t(mi)].count <= 1 && !rm->fromPyramid)) // a pyramid's marks name no event
        return std::nullopt;
    return marks[size_t(mi)];
}

std::optional<TimelineSelection> TimelineHitTest::eventAt(QPoint pos) const
{
    if (!m_scene || pos.x() < m_labelWidth)
        return std::nullopt;
    const int ri = m_layout.rowAt(layoutY(pos));
    if (ri < 0)
        return std::nullopt;
    const Row &r = m_layout.rows()[size_t(ri)];
    if (r.kind != RowKind::Track)
        return std::nullopt;
    const TimelineEntry &e = m_scene->entries[size_t(r.entry)];
    const Track &t = e.report->store().track(r.track);
    const int level = RowLayout::laneAt(r, layoutY(pos));
    LaneView lane{&t, e.report->levelIndices(r.track, uint16_t(level))};
    if (r.levels > 1 && lane.indices.empty())
        return std::nullopt;
    const int64_t hit = hitTestLane(lane, m_state.mapping(), e.offset, laneX(pos));
    if (hit < 0)
        return std::nullopt;
    return TimelineSelection{r.entry, {r.track, uint32_t(hit)}};
}

QString TimelineHitTest::labelToolTip(const Row &r) const
{
    if (r.kind == RowKind::Report && m_scene) {
        const TimelineEntry &e = m_scene->entries[size_t(r.entry)];
        QString s = QString::fromStdString(e.report->report().path);
        if (e.offset != 0)
            s += QStringLiteral("\noffset %1").arg(formatDuration(e.offset));
        return s;
    }
    return r.label;
}

QString TimelineHitTest::toolTipAt(QPoint pos) const
{
    const int ri = m_layout.rowAt(layoutY(pos));
    if (ri < 0 || !m_scene)
        return {};
    const Row &r = m_layout.rows()[size_t(ri)];
    if (pos.x() < m_labelWidth)
        return labelToolTip(r);
    if (r.kind != RowKind::Track)
        return {};
    // What is drawn under the cursor: a folded mark says how many events it holds.
    const PreparedReport &report = *m_scene->entries[size_t(r.entry)].report;
    const TimeMapping &mapping = m_state.mapping();
    if (const auto mk = foldedMarkAt(pos); mk && report.isOutline()) {
        const std::string_view name = report.store().name(mk->name);
        const QString more = digestHasEvents(report.report())
                                 ? QStringLiteral("Zoom in (double-click) to load the events")
                                 : QStringLiteral("A summary-only digest: its events are not in it");
        return QStringLiteral("%1\n%2 event(s) over %3, drawn from the digest's pyramid\n%4")
            .arg(QString::fromUtf8(name.data(), qsizetype(name.size())))
            .arg(mk->count)
            .arg(formatDuration(mapping.span(mk->x1 - mk->x0)), more);
    }
    if (const auto mk = foldedMarkAt(pos))
        return QStringLiteral("%1 events too small to show (%2)\nDouble-click to zoom in")
            .arg(mk->count)
            .arg(formatDuration(mapping.span(mk->x1 - mk->x0)));
    const auto sel = eventAt(pos);
    if (!sel)
        return {};
    return describeEvent(m_scene->entries[size_t(sel->entry)], sel->ref, m_state.wallClockOrigin()).toolTip();
}

} // namespace ps::views
