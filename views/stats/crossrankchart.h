#pragma once
// The cross-rank chart of one range name over one run's ranks, in a QCustomPlot. Up to
// kMaxBarRanks ranks: one group of bars per rank, one bar per step, the rank of the longest total shaded
// purple and named (not "straggler": RL Phases names that one, by arrival). More ranks than that: a box per step (the
// distribution over the ranks), the outliers as points named by their rank and the straggler's values in red. More than
// kMaxSteps occurrences per rank (a range in every micro-batch): one value per rank, its total
// (perRankTotals). Clicking a bar or a point asks the timeline to jump to that event.

#include "views/stats/crossrankdata.h"

#include <QWidget>

class QCustomPlot;
class QCPAbstractPlottable;
class QLabel;

namespace ps::views {

class CrossRankChart : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMaxBarRanks = 32;
    static constexpr int kMaxSteps = 12;
    static constexpr int kMaxNamedOutliers = 12;

    explicit CrossRankChart(QWidget *parent = nullptr);

    void setData(CrossRankData data);
    const CrossRankData &data() const { return m_data; }
    // What is drawn: the data, or its per-rank totals when it has more than kMaxSteps steps.
    const CrossRankData &shown() const { return m_shown; }
    bool showsDistribution() const { return m_shown.ranks.size() > kMaxBarRanks; }
    QString title() const;
    QCustomPlot *plot() const { return m_plot; }
    // Activates the bar of (rank, step) of shown() as a click on it (or its point) would (tests).
    bool activateBar(int rank, int step);

signals:
    void barActivated(int entry, ps::core::trace::EventRef ref);

private:
    void rebuild();
    double addBars();  // returns the largest value, ms
    double addBoxes(); // returns the largest value, ms
    void onClick(QCPAbstractPlottable *p, int dataIndex);

    CrossRankData m_data;
    CrossRankData m_shown;
    QCustomPlot *m_plot = nullptr;
    QLabel *m_title = nullptr;
};

} // namespace ps::views
