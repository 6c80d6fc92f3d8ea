#pragma once
// What lies under a point of the timeline canvas as it was last drawn: the event, the folded mark
// (several events too small to tell apart, or a digest's pyramid) and the tooltip that says so.
// Built on demand from the canvas's scene, layout, painter and view state (TimelineCanvas::hitTest).

#include "views/scene/timelinescene.h"
#include "views/scene/timemapping.h"
#include "views/timeline/lodfolder.h"
#include "views/timeline/rowlayout.h"
#include "views/timeline/timelineviewstate.h"

#include <QPoint>
#include <QString>

#include <optional>
#include <span>

namespace ps::views {

class TimelinePainter;

// Does `s` name an event of `scene`?
bool isValidSelection(const TimelineScene *scene, const TimelineSelection &s);
// The events' extent on the shared axis (each entry's offset applied); none for no valid event.
std::optional<core::TimeWindow> sharedWindowOf(const TimelineScene &scene, std::span<const TimelineSelection> events);

class TimelineHitTest
{
public:
    // Widget positions: x from the canvas's left edge (labels first), y as on screen.
    TimelineHitTest(const TimelineScene *scene, const RowLayout &layout, const TimelinePainter &painter,
                    const TimelineViewState &state, int labelWidth, int height)
        : m_scene(scene), m_layout(layout), m_painter(painter), m_state(state), m_labelWidth(labelWidth),
          m_height(height)
    {
    }

    // The event under a widget position.
    std::optional<TimelineSelection> eventAt(QPoint pos) const;
    // The folded mark under a widget position as last drawn, if one holds several events.
    std::optional<LodMark> foldedMarkAt(QPoint pos) const;
    // Tooltip text ("" where nothing is).
    QString toolTipAt(QPoint pos) const;

private:
    // The pinned band stays put while the rest scrolls (RowViewport).
    int layoutY(QPoint pos) const { return RowViewport(m_layout, m_state.scrollY(), m_height).layoutY(pos.y()); }
    double laneX(QPoint pos) const { return pos.x() - m_labelWidth; }
    QString labelToolTip(const Row &row) const;

    const TimelineScene *m_scene;
    const RowLayout &m_layout;
    const TimelinePainter &m_painter;
    const TimelineViewState &m_state;
    int m_labelWidth;
    int m_height; // the canvas's
};

} // namespace ps::views
