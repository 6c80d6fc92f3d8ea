#include "views/timeline/timelineview.h"

#include "views/timeline/timeaxisticker.h"

#include <QGridLayout>
#include <QScrollBar>
#include <qcustomplot.h>

namespace ps::views {

TimelineView::TimelineView(QWidget *parent) : TimelineView(nullptr, parent)
{
}

TimelineView::TimelineView(TimelineDocument *document, QWidget *parent) : QWidget(parent)
{
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(0);

    m_axis = new QCustomPlot(this);
    m_axis->setObjectName(QStringLiteral("timeAxis"));
    m_axis->setFixedHeight(30);
    m_axis->setNotAntialiasedElements(QCP::aeAll);
    m_axis->setInteractions({}); // the canvas owns zoom and pan; the axis only follows
    QCPAxisRect *rect = m_axis->axisRect();
    rect->setAutoMargins(QCP::msNone);
    // Ticks and labels above the line that borders the canvas; the left margin is the label
    // column so that axis x and lane x coincide.
    rect->setMargins(QMargins(TimelineCanvas::kDefaultLabelWidth, 29, 0, 0));
    m_axis->xAxis->setVisible(false);
    m_axis->yAxis->setVisible(false);
    m_axis->xAxis2->setVisible(true);
    m_axis->xAxis2->grid()->setVisible(false);
    m_ticker = QSharedPointer<TimeAxisTicker>::create();
    m_axis->xAxis2->setTicker(m_ticker);
    m_axis->xAxis2->setTickLabelPadding(2);
    m_axis->xAxis2->setTickLengthOut(4);
    m_axis->xAxis2->setTickLengthIn(0);
    m_axis->xAxis2->setSubTickLengthOut(2);
    m_axis->xAxis2->setSubTickLengthIn(0);
    QFont f = m_axis->xAxis2->tickLabelFont();
    f.setPointSizeF(8.5);
    m_axis->xAxis2->setTickLabelFont(f);
    m_ticker->setCharWidth(QFontMetrics(f).averageCharWidth());

    m_canvas = new TimelineCanvas(document, this);
    m_vbar = new QScrollBar(Qt::Vertical, this);

    grid->addWidget(m_axis, 0, 0);
    grid->addWidget(m_canvas, 1, 0);
    grid->addWidget(m_vbar, 1, 1);
    auto *corner = new QWidget(this); // keeps the axis as wide as the canvas
    corner->setFixedWidth(m_vbar->sizeHint().width());
    grid->addWidget(corner, 0, 1);

    connect(m_canvas, &TimelineCanvas::windowChanged, this, &TimelineView::syncAxis);
    connect(m_canvas->state(), &TimelineViewState::wallClockOriginChanged, this, [this] {
        m_canvas->update(); // the grid follows the ticks
        syncAxis();
    });
    connect(m_canvas, &TimelineCanvas::labelWidthChanged, this, [this, rect](int width) {
        rect->setMargins(QMargins(width, 29, 0, 0));
        syncAxis();
    });
    connect(m_canvas, &TimelineCanvas::contentHeightChanged, this, &TimelineView::syncScrollBar);
    connect(m_canvas, &TimelineCanvas::scrollChanged, m_vbar, &QScrollBar::setValue);
    connect(m_vbar, &QScrollBar::valueChanged, m_canvas, &TimelineCanvas::setScrollY);
    syncAxis();
}

void TimelineView::syncAxis()
{
    const TimeWindow w = m_canvas->window();
    m_ticker->setPixelWidth(m_canvas->mapping().width());
    m_ticker->setWallClockOrigin(m_canvas->state()->wallClockOrigin());
    m_axis->xAxis2->setRange(double(w.start), double(w.end));
    m_axis->replot(QCustomPlot::rpQueuedReplot);
    syncScrollBar();
}

void TimelineView::syncScrollBar()
{
    m_vbar->setRange(0, m_canvas->maxScrollY());
    m_vbar->setPageStep(std::max(1, m_canvas->height()));
    m_vbar->setSingleStep(RowLayout::kLaneHeight);
    m_vbar->setValue(m_canvas->scrollY());
}

QStringList TimelineView::axisLabels() const
{
    QVector<double> ticks;
    QVector<QString> labels;
    m_ticker->generate(m_axis->xAxis2->range(), QLocale(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
    return QStringList(labels.begin(), labels.end());
}

} // namespace ps::views
