#include "views/stats/crossrankchart.h"

#include "views/common/namecolors.h"
#include "views/scene/timeformat.h"

#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace ps::views {

namespace {
// Milliseconds on the value axis: bars of RL steps are ms to s long.
constexpr double kNsPerUnit = 1e6;
} // namespace

CrossRankChart::CrossRankChart(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("crossRankPlot"));
    m_plot->setMinimumHeight(160);
    m_plot->setInteractions(QCP::iSelectPlottables);
    // The step legend in a row of its own above the plot: inside it would cover the bars.
    // An empty element beside it takes the spare width, so the entries stay together on the left.
    m_plot->plotLayout()->insertRow(0);
    auto *legendRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 0, legendRow);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    legendRow->addElement(0, 0, m_plot->legend);
    legendRow->addElement(0, 1, new QCPLayoutElement(m_plot));
    legendRow->setColumnStretchFactor(0, 0.001);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setWrap(8);
    m_plot->legend->setBorderPen(Qt::NoPen);
    layout->addWidget(m_plot, 1);
    connect(m_plot, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable *p, int dataIndex, QMouseEvent *) {
        bool ok = false;
        const int step = p->property("step").toInt(&ok);
        auto *bars = qobject_cast<QCPBars *>(p);
        if (!ok || !bars || dataIndex < 0 || dataIndex >= bars->data()->size())
            return;
        const int rank = int(std::lround((bars->data()->constBegin() + dataIndex)->key));
        activateBar(rank, step);
    });
    rebuild();
}

void CrossRankChart::setData(CrossRankData data)
{
    m_data = std::move(data);
    rebuild();
}

bool CrossRankChart::activateBar(int rank, int step)
{
    const CrossRankBar *b = m_data.bar(rank, step);
    if (!b)
        return false;
    emit barActivated(b->entry, b->ref);
    return true;
}

void CrossRankChart::rebuild()
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    if (m_data.isEmpty()) {
        m_title->setText(m_data.name.isEmpty()
                             ? QStringLiteral("Select an NVTX range in the table to compare it across ranks.")
                             : QStringLiteral("No range named “%1” in these reports.").arg(m_data.name));
        m_plot->hide();
        return;
    }
    m_plot->show();
    const QString what = m_data.style.isEmpty()
                             ? QStringLiteral("<b>%1</b>").arg(m_data.name.toHtmlEscaped())
                             : QStringLiteral("<b>%1</b> (%2)").arg(m_data.name.toHtmlEscaped(), m_data.style);
    m_title->setText(
        QStringLiteral("%1 per rank and step — straggler: <span style='color:#c62828'>%2</span> (total %3)")
            .arg(what, m_data.ranks.value(m_data.straggler), formatDuration(m_data.totals[size_t(m_data.straggler)])));
    auto *group = new QCPBarsGroup(m_plot);
    group->setSpacing(1);
    const double width = 0.8 / std::max(1, m_data.steps);
    double maxV = 0;
    for (int s = 0; s < m_data.steps; ++s) {
        auto *bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setName(m_data.stepLabels.value(s, QStringLiteral("#%1").arg(s + 1)));
        bars->setProperty("step", s);
        bars->setWidth(width);
        bars->setBarsGroup(group);
        const QColor c = QColor::fromHsv((200 + s * 47) % 360, 110, 215);
        bars->setBrush(c);
        bars->setPen(QPen(c.darker(150)));
        QVector<double> keys, values;
        for (const CrossRankBar &b : m_data.bars)
            if (b.step == s) {
                keys << b.rank;
                values << double(b.durationNs) / kNsPerUnit;
                maxV = std::max(maxV, values.back());
            }
        bars->setData(keys, values, true);
    }
    // The straggler's column, shaded behind its bars.
    auto *shade = new QCPItemRect(m_plot);
    shade->setLayer(QStringLiteral("background"));
    shade->topLeft->setCoords(m_data.straggler - 0.48, maxV * 1.08);
    shade->bottomRight->setCoords(m_data.straggler + 0.48, 0);
    shade->setBrush(QColor(0xc6, 0x28, 0x28, 0x38));
    shade->setPen(QPen(QColor(0xc6, 0x28, 0x28)));

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int r = 0; r < m_data.ranks.size(); ++r)
        ticker->addTick(r, m_data.ranks[r]);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setRange(-0.6, m_data.ranks.size() - 0.4);
    m_plot->xAxis->setTickLabelRotation(m_data.ranks.size() > 12 ? 60 : 0);
    m_plot->yAxis->setLabel(QStringLiteral("duration (ms)"));
    m_plot->yAxis->setRange(0, maxV * 1.12 + 1e-9);
    m_plot->legend->setVisible(m_data.steps > 1 && m_data.steps <= 12);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace ps::views
