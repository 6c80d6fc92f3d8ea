#pragma once
// The cross-rank chart: one group of bars per rank, one bar per step, for one range name, in a
// QCustomPlot; the straggler rank is shaded red and named. Clicking a bar asks the timeline to
// jump to that event.

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
    explicit CrossRankChart(QWidget *parent = nullptr);

    void setData(CrossRankData data);
    const CrossRankData &data() const { return m_data; }
    QCustomPlot *plot() const { return m_plot; }
    // Activates the bar of (rank, step) as a click on it would (tests).
    bool activateBar(int rank, int step);

signals:
    void barActivated(int entry, ps::core::trace::EventRef ref);

private:
    void rebuild();

    CrossRankData m_data;
    QCustomPlot *m_plot = nullptr;
    QLabel *m_title = nullptr;
};

} // namespace ps::views
