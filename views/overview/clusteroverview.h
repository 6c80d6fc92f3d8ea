#pragma once
// The cluster overview: what a large run shows first, above the timeline. A heat strip of every
// rank (OverviewStrip) over the whole run, coloured by GPU utilization or by RL phase, with the
// straggler and the outliers marked and named in a summary line, and Go to Rank. Its rows are
// the timeline's entries in the timeline's order; a click on a row or a cell asks the timeline to
// open that rank there (entryActivated). The busy shares are computed in the background whenever
// the scene changes; the phases come from the RL Phases table when it is ready.

#include "views/common/backgroundpane.h"
#include "views/overview/overviewdata.h"
#include "views/overview/overviewphases.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPushButton;

namespace ps::views {

class OverviewStrip;

class ClusterOverview : public BackgroundPane
{
    Q_OBJECT
public:
    // Past this many reports the overview is shown above the timeline.
    static constexpr size_t kShowAbove = 32;
    static constexpr int kBins = 600;

    explicit ClusterOverview(QWidget *parent = nullptr);

    void setScene(std::shared_ptr<const TimelineScene> scene);
    void setPhases(OverviewPhases phases);
    void setWindow(TimeWindow window);
    void setLabelWidth(int width);
    OverviewStrip *strip() const { return m_strip; }
    QLabel *summary() const { return m_summary; }
    QComboBox *modeBox() const { return m_mode; }

signals:
    void entryActivated(int entry, qint64 sharedNs);
    void goToRankRequested();

private:
    void updateSummary();

    OverviewStrip *m_strip = nullptr;
    QLabel *m_summary = nullptr;
    QComboBox *m_mode = nullptr;
    QPushButton *m_goTo = nullptr;
    LatestJob<OverviewData> *m_job = nullptr;
    std::shared_ptr<const TimelineScene> m_scene;
    std::vector<std::pair<std::string, int64_t>> m_signature; // (path, offset) per entry of m_scene
};

} // namespace ps::views
