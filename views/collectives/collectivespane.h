#pragma once
// The Collectives tab: every collective of the reports on screen matched across ranks, one row
// per instance (CollectivesModel), sortable by skew and wait, with a per-rank wait strip; above
// it a line per process group. Matching runs in the background whenever the scene or its
// reports change, once for this pane and the RL Phases and Breakdown panes (RunAnalysesJob; Esc
// or closing cancels it, "Match again" restarts it); the result is also what
// the timeline draws its arrows and hatching from (viewReady). Selecting a row asks for the
// instance to be selected in the timeline (instanceChosen); selecting a collective kernel in the
// timeline selects its row (selectInstance).

#include "views/collectives/collectiveview.h"
#include "views/common/backgroundpane.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace ps::views {

class CollectivesModel;

class CollectivesPane : public BackgroundPane
{
    Q_OBJECT
public:
    explicit CollectivesPane(QWidget *parent = nullptr);

    // The scene's one matching, shared with the RL Phases and Breakdown panes (the workspace's);
    // a pane without one makes its own on its first input.
    void setRunJob(RunAnalysesJob *job);
    // The scene and the entries (one run's reports) to match; recomputes only when they change.
    void setInput(std::shared_ptr<const TimelineScene> scene, std::vector<int> entries);
    void cancel();
    CollectiveViewPtr collectiveView() const { return m_view; }
    // Selects the row of an instance (none: clears), without emitting instanceChosen.
    void selectInstance(std::optional<size_t> instance);

    QTableView *table() const { return m_table; }
    const CollectivesModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QString summaryText() const;

signals:
    void viewReady(ps::views::CollectiveViewPtr view);
    void instanceChosen(size_t instance);

private:
    void start();
    void onRunReady(const RunAnalysesPtr &analyses);
    void show(CollectiveViewPtr view);
    void showSummary();
    void onRowSelected();

    QLabel *m_summary = nullptr;
    QPushButton *m_again = nullptr;
    QTableView *m_table = nullptr;
    CollectivesModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    RunAnalysesJob *m_run = nullptr;
    LatestJob<CollectiveViewPtr> *m_job = nullptr; // the view of the matching: its indexes
    std::shared_ptr<const TimelineScene> m_scene;
    std::vector<int> m_entries;
    CollectiveViewPtr m_view;
    bool m_selecting = false; // selectInstance is moving the table's selection
};

} // namespace ps::views
