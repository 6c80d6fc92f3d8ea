#pragma once
// The Timeline workspace's main area, kept on the document: the timeline view with the cluster
// overview above it (overviewcontroller.h) and the selected event's details beside it (foldable,
// detailsdock.h), over the tabs Statistics, RL Phases, Breakdown, Compare Runs, Collectives and
// Memory. The panes follow the document's scene and selection (and the statistics its window,
// debounced); an event selected in the timeline is selected in them, and their jumps reveal events
// in the timeline. Splitter sizes are kept per screen size (layoutmemory.h).

#include <QSplitter>

#include <memory>
#include <vector>

class QTabWidget;
class QTimer;

namespace ps::views {

class BreakdownPane;
class CollectivesPane;
class MemoryBlocksPane;
class ComparePane;
class DetailsDock;
class DetailsPane;
class OverviewController;
class PhasesPane;
class RunAnalysesJob;
class StatsPane;
class TimelineCanvas;
class TimelineDocument;
class TimelineView;

class TimelinePanes : public QSplitter
{
    Q_OBJECT
public:
    TimelinePanes(TimelineDocument *document, QWidget *parent);

    TimelineView *view() const { return m_view; }
    TimelineCanvas *canvas() const;
    DetailsPane *details() const { return m_details; }
    DetailsDock *detailsDock() const { return m_dock; }
    StatsPane *stats() const { return m_stats; }
    PhasesPane *phases() const { return m_phases; }
    ComparePane *compare() const { return m_compare; }
    BreakdownPane *breakdown() const { return m_breakdown; }
    CollectivesPane *collectives() const { return m_collectives; }
    OverviewController *overview() const { return m_overview; }

    // Shows the document's selection and scene in the details and statistics now (a new scene).
    void refresh();
    // A pane computes in the background, or the statistics wait for the window to settle.
    bool isBusy() const;
    void flushDeferred();

signals:
    void busyChanged();

private:
    void rememberLayout(QSplitter *hsplit, QSplitter *overviewSplit);
    void connectPanes();
    void updateDetails();
    void selectInPanes();
    void updateStatsInput();
    std::vector<int> entriesOfOneRun(const std::vector<int> &entries);

    TimelineDocument *m_doc;
    TimelineView *m_view = nullptr;
    DetailsDock *m_dock = nullptr;
    DetailsPane *m_details = nullptr; // in the dock
    QTabWidget *m_tabs = nullptr;
    StatsPane *m_stats = nullptr;
    PhasesPane *m_phases = nullptr;
    RunAnalysesJob *m_runAnalyses = nullptr; // the scene's one matching, shared by three panes
    BreakdownPane *m_breakdown = nullptr;    // follows the phase table's reports
    ComparePane *m_compare = nullptr;
    CollectivesPane *m_collectives = nullptr; // collectivewiring.h
    MemoryBlocksPane *m_memory = nullptr;     // memorywiring.h
    OverviewController *m_overview = nullptr;
    QTimer *m_statsDebounce = nullptr;
};

} // namespace ps::views
