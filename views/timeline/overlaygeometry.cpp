#include "views/timeline/overlaygeometry.h"

#include "views/scene/preparedreport.h"
#include "views/timeline/rowlayout.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace ps::views {

using namespace ps::core::trace;

int eventLevel(const PreparedReport &report, EventRef event)
{
    const EventStore &s = report.store();
    if (report.isOutline() || event.track >= s.tracks().size() || event.index >= s.track(event.track).size())
        return 0;
    return s.track(event.track).level(event.index);
}

std::optional<LaneSpan> laneOnScreen(const RowLayout &layout, const RowViewport &viewport, int entry,
                                     const PreparedReport &report, EventRef event)
{
    if (const int row = layout.rowOf(entry, event.track); row >= 0) {
        const Row &r = layout.rows()[size_t(row)];
        const int level = std::min(eventLevel(report, event), std::max(0, r.levels - 1));
        return LaneSpan{viewport.screenY(r) + level * RowLayout::kLaneHeight, RowLayout::kLaneHeight};
    }
    if (const int row = layout.reportRowOf(entry); row >= 0) {
        const Row &r = layout.rows()[size_t(row)];
        return LaneSpan{viewport.screenY(r), r.height};
    }
    return std::nullopt;
}

void drawArrow(QPainter &p, const QLineF &line, double head)
{
    p.drawLine(line);
    if (line.length() < 2 * head)
        return;
    const double angle = std::atan2(line.dy(), line.dx());
    const QPointF tip = line.p2();
    QPainterPath path(tip);
    path.lineTo(tip - QPointF(std::cos(angle - 0.45), std::sin(angle - 0.45)) * head);
    path.lineTo(tip - QPointF(std::cos(angle + 0.45), std::sin(angle + 0.45)) * head);
    path.closeSubpath();
    p.fillPath(path, p.pen().color());
}

} // namespace ps::views
