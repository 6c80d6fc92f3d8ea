// TimelineCanvas: the user's choices of what to show (the document's TrackView: collapsed headers,
// hidden and pinned tracks), and revealing an event (which expands what hides it), kept apart from
// input and painting.
#include "views/timeline/timelinecanvas.h"

namespace ps::views {

using namespace ps::core::trace;

const TrackView &TimelineCanvas::trackView() const
{
    return m_doc->trackView();
}

void TimelineCanvas::setCollapsed(const QSet<QString> &keys)
{
    changeTrackView([&](TrackView &v) { v.collapsed = keys; });
}

void TimelineCanvas::toggleCollapsed(const QString &key)
{
    changeTrackView([&](TrackView &v) {
        if (!v.collapsed.remove(key))
            v.collapsed.insert(key);
    });
}

void TimelineCanvas::setTrackView(const TrackView &view)
{
    m_doc->setTrackView(view); // trackViewChanged lays the rows out again
}

void TimelineCanvas::changeTrackView(const std::function<void(TrackView &)> &edit)
{
    m_doc->changeTrackView(edit);
}

void TimelineCanvas::hideTrack(const QString &trackKey)
{
    changeTrackView([&](TrackView &v) {
        v.hiddenTracks.insert(trackKey);
        v.pinned.removeAll(trackKey);
    });
}

void TimelineCanvas::hideKind(const QString &kind)
{
    changeTrackView([&](TrackView &v) { v.hiddenKinds.insert(kind); });
}

void TimelineCanvas::togglePinned(const QString &trackKey)
{
    changeTrackView([&](TrackView &v) {
        if (!v.pinned.removeAll(trackKey))
            v.pinned.append(trackKey);
    });
}

void TimelineCanvas::showAllTracks()
{
    changeTrackView([](TrackView &v) {
        v.hiddenKinds.clear();
        v.hiddenTracks.clear();
    });
}

void TimelineCanvas::reveal(const TimelineSelection &s)
{
    if (!isValidSelection(m_scene.get(), s))
        return;
    select(s);
    // Expand what hides the row, then scroll it into the middle of the view.
    int row = m_layout.rowOf(s.entry, s.ref.track);
    if (row < 0) {
        const TimelineEntry &e = m_scene->entries[size_t(s.entry)];
        const QString label = RowLayout::trackLabels(e)[s.ref.track];
        TrackView v = trackView();
        for (const QString &k : RowLayout::keysHiding(e))
            v.collapsed.remove(k);
        v.hiddenTracks.remove(RowLayout::trackKey(e, label));
        v.hiddenKinds.remove(RowLayout::kindOf(label));
        v.hiddenKinds.remove(RowLayout::kindKey(e, RowLayout::kindOf(label)));
        setTrackView(v);
        row = m_layout.rowOf(s.entry, s.ref.track);
    }
    if (row >= 0 && m_scene->entries[size_t(s.entry)].report->store().track(s.ref.track).level(s.ref.index) >=
                        m_layout.rows()[size_t(row)].levels) {
        const QString key = m_layout.rows()[size_t(row)].key; // the event is on a folded level
        changeTrackView([&](TrackView &v) { v.fullDepth.insert(key); });
    }
    if (row >= 0) {
        const Row &r = m_layout.rows()[size_t(row)];
        const Track &t = m_scene->entries[size_t(s.entry)].report->store().track(s.ref.track);
        const int laneY = r.y + t.level(s.ref.index) * RowLayout::kLaneHeight;
        const RowViewport vp(m_layout, scrollY(), height());
        if (!vp.isSticky(r) && (laneY < scrollY() + vp.sticky || laneY + RowLayout::kLaneHeight > scrollY() + height()))
            setScrollY(laneY - height() / 2);
    }
    const auto [b, e] = *sharedWindowOf(*m_scene, {&s, 1}); // s is valid
    const int64_t d = window().duration();
    if (e - b > d * 9 / 10) {
        zoomToEvent(s);
        return;
    }
    const int64_t mid = b + (e - b) / 2;
    setWindow({mid - d / 2, mid - d / 2 + d});
}

void TimelineCanvas::zoomToEvent(const TimelineSelection &s)
{
    if (!isValidSelection(m_scene.get(), s))
        return;
    const auto [b, e] = *sharedWindowOf(*m_scene, {&s, 1}); // s is valid
    const int64_t pad = std::max<int64_t>((e - b) / 20, 1);
    setWindow({b - pad, e + pad});
}

} // namespace ps::views
