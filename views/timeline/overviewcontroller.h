#pragma once
// Ties the cluster overview (views/overview) to the timeline: it sits above the timeline view
// whenever the scene has more than ClusterOverview::kShowAbove reports (not in a step overlay),
// follows the canvas's window and label column, takes the straggler and the phases from the RL
// Phases table, and sends its clicks, Go to Rank (Ctrl+G) and the phase table's cell clicks
// through one RankNavigator, which pages a digest's events in before it selects in them.

#include "core/trace/store/tracetypes.h"

#include <QObject>

#include <memory>

class QAction;
class QWidget;

namespace ps::views {

class ClusterOverview;
class PhasesPane;
class RankNavigator;
class TimelineCanvas;
struct TimelineScene;

class OverviewController : public QObject
{
    Q_OBJECT
public:
    // The overview is made a child of `overviewParent` (a splitter above the timeline view).
    OverviewController(TimelineCanvas *canvas, PhasesPane *phases, QWidget *overviewParent);

    void setScene(const std::shared_ptr<const TimelineScene> &scene);
    ClusterOverview *overview() const { return m_overview; }
    RankNavigator *navigator() const { return m_navigator; }
    // Go to Rank… (Ctrl+G), for the workspace's window and menus.
    QAction *goToRankAction() const { return m_goTo; }
    // Opens the Go to Rank dialog over the timeline.
    void askForRank();
    bool isBusy() const;
    // Reports are loading: a straggler named meanwhile is provisional.
    void setLoading(bool loading);

private:
    void phasesShown();

    TimelineCanvas *m_canvas;
    PhasesPane *m_phases;
    ClusterOverview *m_overview;
    RankNavigator *m_navigator;
    QAction *m_goTo;
    std::shared_ptr<const TimelineScene> m_scene;
    bool m_loading = false;
};

} // namespace ps::views
