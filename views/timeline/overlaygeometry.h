#pragma once
// What the timeline's overlays (collective arrows, launch flows) share: where an event's lane is
// on screen, and an arrow with a filled head.

#include "core/trace/store/tracetypes.h"

#include <QLineF>

#include <optional>

class QPainter;

namespace ps::views {

class PreparedReport;
class RowLayout;
struct RowViewport;

// The vertical span of an event on screen, in widget pixels.
struct LaneSpan
{
    int y = 0;
    int height = 0;
    double middle() const { return y + height / 2.0; }
};

// The level an event is drawn on; 0 for a report without events (an outline).
int eventLevel(const PreparedReport &report, core::trace::EventRef event);

// The lane an event is drawn on: its level of its track's row (the last shown level when its
// level is folded), or the report's header row when the report is collapsed; nullopt when
// neither is laid out (under a collapsed group).
std::optional<LaneSpan> laneOnScreen(const RowLayout &layout, const RowViewport &viewport, int entry,
                                     const PreparedReport &report, core::trace::EventRef event);

// A line ending in a filled head at p2 (no head on lines too short to carry one).
void drawArrow(QPainter &p, const QLineF &line, double head = 7.0);

} // namespace ps::views
