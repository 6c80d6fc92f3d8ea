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
// The longest total is not the straggler (RL Phases' red): another colour, another word.
const QColor kLongestPurple(0x6a, 0x1b, 0x9a);

QColor stepColor(int s)
{
    return QColor::fromHsv((200 + s * 47) % 360, 110, 215);
}
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
    m_plot->setMinimumHeight(56); // the tabs' height on a laptop, below two lines of title
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
    connect(m_plot, &QCustomPlot::plottableClick, this,
            [this](QCPAbstractPlottable *p, int dataIndex, QMouseEvent *) { onClick(p, dataIndex); });
    rebuild();
}

void CrossRankChart::onClick(QCPAbstractPlottable *p, int dataIndex)
{
    const QVariantList points = p->property("bars").toList(); // an outlier or the longest total's point
    if (!points.isEmpty()) {
        if (dataIndex >= 0 && dataIndex < points.size()) {
            const CrossRankBar &b = m_shown.bars[size_t(points[dataIndex].toInt())];
            emit barActivated(b.entry, b.ref);
        }
        return;
    }
    bool ok = false;
    const int step = p->property("step").toInt(&ok);
    auto *bars = qobject_cast<QCPBars *>(p);
    if (!ok || !bars || dataIndex < 0 || dataIndex >= bars->data()->size())
        return;
    const int rank = int(std::lround((bars->data()->constBegin() + dataIndex)->key));
    activateBar(rank, step);
}

void CrossRankChart::setData(CrossRankData data)
{
    m_data = std::move(data);
    m_shown = m_data.steps > kMaxSteps ? perRankTotals(m_data) : m_data;
    rebuild();
}

bool CrossRankChart::activateBar(int rank, int step)
{
    const CrossRankBar *b = m_shown.bar(rank, step);
    if (!b)
        return false;
    emit barActivated(b->entry, b->ref);
    return true;
}

QString CrossRankChart::title() const
{
    return m_title->text();
}

void CrossRankChart::rebuild()
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    if (m_shown.isEmpty()) {
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
    const QString per = m_data.steps > kMaxSteps ? QStringLiteral("total of %1 occurrences per rank").arg(m_data.steps)
                        : showsDistribution()    ? QStringLiteral("over %1 ranks per step").arg(m_shown.ranks.size())
                                                 : QStringLiteral("per rank and step");
    const QString run = m_data.run.isEmpty() ? QString() : QStringLiteral(" in run %1").arg(m_data.run.toHtmlEscaped());
    m_title->setText(QStringLiteral("%1 %2%3 — longest total: <span style='color:#6a1b9a'>%4</span> (%5)")
                         .arg(what, per, run, m_shown.ranks.value(m_shown.longest),
                              formatDuration(m_shown.totals[size_t(m_shown.longest)])));
    const double maxV = showsDistribution() ? addBoxes() : addBars();
    m_plot->yAxis->setLabel(QStringLiteral("duration (ms)"));
    m_plot->yAxis->setRange(0, maxV * 1.12 + 1e-9);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

// One group of bars per rank, one bar per step; the longest total's column shaded.
double CrossRankChart::addBars()
{
    auto *group = new QCPBarsGroup(m_plot);
    group->setSpacing(1);
    const double width = 0.8 / std::max(1, m_shown.steps);
    double maxV = 0;
    for (int s = 0; s < m_shown.steps; ++s) {
        auto *bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setName(m_shown.stepLabels.value(s, QStringLiteral("#%1").arg(s + 1)));
        bars->setProperty("step", s);
        bars->setWidth(width);
        bars->setBarsGroup(group);
        bars->setBrush(stepColor(s));
        bars->setPen(QPen(stepColor(s).darker(150)));
        QVector<double> keys, values;
        for (const CrossRankBar &b : m_shown.bars)
            if (b.step == s) {
                keys << b.rank;
                values << double(b.durationNs) / kNsPerUnit;
                maxV = std::max(maxV, values.back());
            }
        bars->setData(keys, values, true);
    }
    auto *shade = new QCPItemRect(m_plot);
    shade->setLayer(QStringLiteral("background"));
    shade->topLeft->setCoords(m_shown.longest - 0.48, maxV * 1.08);
    shade->bottomRight->setCoords(m_shown.longest + 0.48, 0);
    shade->setBrush(QColor(0xc6, 0x28, 0x28, 0x38));
    shade->setPen(QPen(kLongestPurple));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int r = 0; r < m_shown.ranks.size(); ++r)
        ticker->addTick(r, m_shown.ranks[r]);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setRange(-0.6, m_shown.ranks.size() - 0.4);
    m_plot->xAxis->setTickLabelRotation(m_shown.ranks.size() > 12 ? 60 : 0);
    m_plot->legend->setVisible(m_shown.steps > 1);
    return maxV;
}

// A box per step over the ranks; the outliers and the longest total as points, named.
double CrossRankChart::addBoxes()
{
    auto *boxes = new QCPStatisticalBox(m_plot->xAxis, m_plot->yAxis);
    boxes->setName(QStringLiteral("ranks"));
    boxes->setWidth(0.5);
    boxes->setBrush(QColor(0x90, 0xb4, 0xd8, 0x90));
    auto *points = new QCPGraph(m_plot->xAxis, m_plot->yAxis);
    points->setName(QStringLiteral("outliers"));
    points->setLineStyle(QCPGraph::lsNone);
    points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(0xf5, 0x7c, 0x00), 7));
    auto *longest = new QCPGraph(m_plot->xAxis, m_plot->yAxis);
    longest->setName(QStringLiteral("longest total %1").arg(m_shown.ranks.value(m_shown.longest)));
    longest->setLineStyle(QCPGraph::lsNone);
    longest->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, kLongestPurple, kLongestPurple, 9));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double maxV = 0;
    int named = 0;
    QVector<double> pointKeys, pointValues;
    QVariantList pointBars, longestBars; // data index -> index into m_shown.bars, per graph
    for (const CrossRankBox &b : crossRankBoxes(m_shown)) {
        boxes->addData(b.step, b.min / kNsPerUnit, b.q1 / kNsPerUnit, b.median / kNsPerUnit, b.q3 / kNsPerUnit,
                       b.max / kNsPerUnit);
        ticker->addTick(b.step, m_shown.stepLabels.value(b.step, QStringLiteral("#%1").arg(b.step + 1)));
        maxV = std::max(maxV, b.max / kNsPerUnit);
        for (int i : b.outliers) {
            const CrossRankBar &bar = m_shown.bars[size_t(i)];
            pointKeys << b.step;
            pointValues << double(bar.durationNs) / kNsPerUnit;
            pointBars << i;
            maxV = std::max(maxV, pointValues.back());
            if (named++ >= kMaxNamedOutliers)
                continue;
            auto *label = new QCPItemText(m_plot);
            label->position->setCoords(b.step + 0.06, pointValues.back());
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            label->setText(m_shown.ranks.value(bar.rank));
            label->setColor(bar.rank == m_shown.longest ? kLongestPurple : QColor(0x6d, 0x3a, 0x00));
        }
        for (size_t i = 0; i < m_shown.bars.size(); ++i)
            if (const CrossRankBar &bar = m_shown.bars[i]; bar.step == b.step && bar.rank == m_shown.longest) {
                longest->addData(b.step, double(bar.durationNs) / kNsPerUnit);
                longestBars << int(i);
                maxV = std::max(maxV, double(bar.durationNs) / kNsPerUnit);
            }
    }
    points->setData(pointKeys, pointValues, true);
    points->setProperty("bars", pointBars);
    longest->setProperty("bars", longestBars);
    // Keys are added ascending, so the data keeps the order of the "bars" lists.
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setRange(-0.6, m_shown.steps - 0.4);
    m_plot->xAxis->setTickLabelRotation(0);
    m_plot->legend->setVisible(true);
    return maxV;
}

} // namespace ps::views
