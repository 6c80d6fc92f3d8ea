#pragma once
// The timeline as a widget: the shared time axis on top (a QCustomPlot axis with the time
// ticker, its left margin the width of the label column so ticks line up with the lanes), the
// canvas below it and a vertical scroll bar. The axis follows the canvas's window.

#include "views/timeline/timelinecanvas.h"

#include <QWidget>

class QCustomPlot;
class QScrollBar;

namespace ps::views {

class TimeAxisTicker;
class TimelineDocument;

class TimelineView : public QWidget
{
    Q_OBJECT
public:
    // A view of its own document (the render command, tests), or of the workspace's.
    explicit TimelineView(QWidget *parent = nullptr);
    TimelineView(TimelineDocument *document, QWidget *parent);

    TimelineCanvas *canvas() const { return m_canvas; }
    QCustomPlot *axisPlot() const { return m_axis; }
    // Tick labels the axis shows now (tests).
    QStringList axisLabels() const;

private:
    void syncAxis();
    void syncScrollBar();

    QCustomPlot *m_axis = nullptr;
    QSharedPointer<TimeAxisTicker> m_ticker;
    TimelineCanvas *m_canvas = nullptr;
    QScrollBar *m_vbar = nullptr;
};

} // namespace ps::views
