// TimelineCanvas: the user's choices of what to show (TrackView: collapsed headers, hidden and
// pinned tracks), kept apart from input and painting.
#include "views/timeline/timelinecanvas.h"

namespace ps::views {

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
    m_view = view;
    relayout();
    emit collapsedChanged();
}

void TimelineCanvas::changeTrackView(const std::function<void(TrackView &)> &edit)
{
    TrackView v = m_view;
    edit(v);
    setTrackView(v);
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

} // namespace ps::views
