#pragma once
// Reordering lanes by dragging their label, as in Perfetto and Nsight Systems: press on a lane's
// label, drag it up or down, and drop it between two lanes of its own report, or of the Pinned
// section. A line shows where it lands. The order is kept in the track view (TrackView::order per
// report, the pin order for pinned lanes), so relayouts and sessions keep it. A press that does not
// move is left to the canvas as a click (folding deep levels).

#include "views/timeline/rowlayout.h"

#include <QPoint>

#include <optional>
#include <utility>

class QPainter;

namespace ps::views {

class TimelineCanvas;

// The rows a lane may move among, [first, last): its report's lanes, or the pinned lanes. Empty
// for a header.
std::pair<int, int> movableBlock(const RowLayout &layout, int row);
// Where a lane of `row`'s block dropped at layout y lands: the index of the row it goes before,
// in [first, last] of its block (last: after every lane).
int dropSlot(const RowLayout &layout, int row, int layoutY);
// `view` with the lane of `row` moved before `slot` (dropSlot); the same view when that is where
// it already is.
TrackView movedTrack(const TrackView &view, const RowLayout &layout, const TimelineScene &scene, int row, int slot);

// The drag on a canvas. The canvas's mouse handlers call press, move and release first; move and
// release return true when they took the event.
class TrackDrag
{
public:
    explicit TrackDrag(TimelineCanvas *canvas) : m_canvas(canvas) {}

    // A left press at a widget position: remembered when it is on a movable lane's label.
    void press(QPoint pos);
    // The mouse moved with the button down: true while the press is on a lane's label (the canvas
    // does not pan then); the drag starts past a few pixels.
    bool move(QPoint pos);
    // The button was released: true when a drag ended (the lane moved where it was dropped);
    // false for a press that did not move, which the canvas takes as a click.
    bool release(QPoint pos);
    bool isDragging() const { return m_dragging; }
    // While dragging: the dragged label shaded and a line where it would land.
    void paint(QPainter &p) const;

private:
    int slotAt(QPoint pos) const;

    TimelineCanvas *m_canvas;
    std::optional<int> m_row; // the pressed lane's row
    QPoint m_pressPos;
    bool m_dragging = false;
    int m_slot = -1;
};

} // namespace ps::views
