// TimelineCanvas: moving the window: its limits, fitting, zooming and panning by wheel and keys
// (the conventions are listed in timelinecanvas.h).
#include "views/timeline/timelinecanvas.h"

#include <QKeyEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace ps::views {

namespace {
constexpr double kKeyZoom = 1.25;
constexpr double kKeyPanFraction = 0.15;
} // namespace

TimeWindow TimelineCanvas::limits() const
{
    const TimeWindow ext = m_scene ? m_scene->extent() : TimeWindow{0, 1000};
    const int64_t margin = std::max<int64_t>(ext.duration() / 2, TimeMapping::kMinDuration);
    return {ext.start - margin, ext.end + margin};
}

void TimelineCanvas::setMapping(const TimeMapping &m)
{
    m_state->setMapping(m, limits());
}

void TimelineCanvas::setWindow(TimeWindow w)
{
    setMapping(m_state->mapping().withWindow(w));
}

void TimelineCanvas::fitAll()
{
    const TimeWindow ext = m_scene ? m_scene->extent() : TimeWindow{0, 1000};
    // A little air on both sides so the first and last events are not glued to the edges.
    const int64_t pad = std::max<int64_t>(ext.duration() / 50, 1);
    setWindow({ext.start - pad, ext.end + pad});
}

void TimelineCanvas::zoomBy(double factor)
{
    setMapping(mapping().zoomed(factor, mapping().width() / 2));
}

// As Nsight Systems and Perfetto: the wheel scrolls the rows, Shift+wheel and a horizontal
// wheel (touchpads) pan, Ctrl+wheel zooms about the cursor (one notch, 120, = x1.19).
void TimelineCanvas::wheelEvent(QWheelEvent *e)
{
    const QPoint pos = e->position().toPoint();
    const QPoint delta = e->angleDelta();
    if ((e->modifiers() & Qt::ControlModifier) && delta.y() != 0 && pos.x() >= m_labelWidth) {
        setMapping(mapping().zoomed(std::pow(2.0, delta.y() / 480.0), laneX(pos)));
    } else if ((e->modifiers() & Qt::ShiftModifier) || delta.x() != 0) {
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        setMapping(mapping().panned(-d / 2.0));
    } else {
        setScrollY(scrollY() - delta.y() / 2);
    }
    e->accept();
}

void TimelineCanvas::keyPressEvent(QKeyEvent *e)
{
    const TimeMapping &m = mapping();
    const double pivot = m_hover && m_hover->x() >= m_labelWidth ? laneX(*m_hover) : m.width() / 2;
    switch (e->key()) {
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        setMapping(m.zoomed(kKeyZoom, pivot));
        break;
    case Qt::Key_S:
    case Qt::Key_Minus:
        setMapping(m.zoomed(1.0 / kKeyZoom, pivot));
        break;
    case Qt::Key_A:
    case Qt::Key_Left:
        setMapping(m.panned(-m.width() * kKeyPanFraction));
        break;
    case Qt::Key_D:
    case Qt::Key_Right:
        setMapping(m.panned(m.width() * kKeyPanFraction));
        break;
    case Qt::Key_Home: // the start of the run, zoom kept
        if (m_scene)
            setWindow({m_scene->extent().start, m_scene->extent().start + m.window().duration()});
        break;
    case Qt::Key_End:
        if (m_scene)
            setWindow({m_scene->extent().end - m.window().duration(), m_scene->extent().end});
        break;
    case Qt::Key_PageUp:
        setScrollY(scrollY() - height() * 9 / 10);
        break;
    case Qt::Key_PageDown:
        setScrollY(scrollY() + height() * 9 / 10);
        break;
    case Qt::Key_Up:
        setScrollY(scrollY() - RowLayout::kLaneHeight * 3);
        break;
    case Qt::Key_Down:
        setScrollY(scrollY() + RowLayout::kLaneHeight * 3);
        break;
    case Qt::Key_F:
        if (const auto sel = selection())
            zoomToEvent(*sel);
        else if (const auto r = ruler())
            setWindow(*r);
        else
            fitAll();
        break;
    case Qt::Key_Escape:
        select(std::nullopt);
        setRuler(std::nullopt);
        emit escapePressed();
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

} // namespace ps::views
