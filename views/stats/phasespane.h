#pragma once
// The RL phase table of the reports on screen (core/analysis/phases/phases.h): rows are steps x phases,
// columns the straggler, its lag over the median, the spread, what the straggler's GPU did, then
// one column per rank with its wall time. Computed in the background whenever the set of reports
// changes (not on zoom: phases span whole steps), from the scene's one matching (RunAnalysesJob,
// shared with the Collectives and Breakdown panes). Clicking a rank's cell selects that phase on
// that rank in the timeline (the workspace pages a digest's events in first); clicking the row's
// other cells selects it on the straggler. The summary names the run. In a step overlay the
// columns are the overlay's occurrences (phaseoccurrences.h).

#include "core/analysis/phases/phases.h"
#include "views/common/latestjob.h"
#include "views/scene/runanalyses.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QStandardItemModel;
class QTableView;

namespace ps::views {

struct TimelineScene;

class PhasesPane : public QWidget
{
    Q_OBJECT
public:
    explicit PhasesPane(QWidget *parent = nullptr);

    // The scene's one matching, shared with the Collectives and Breakdown panes (the workspace's);
    // a pane without one makes its own on its first input.
    void setRunJob(RunAnalysesJob *job);
    // The scene and the entries (reports) to tabulate; recomputes only when they change.
    void setInput(std::shared_ptr<const TimelineScene> scene, std::vector<int> entries);
    bool isBusy() const;
    // Selects the cell of the phase that scene entry `entry` was in at `ownNs` (its own clock),
    // as when an event is selected in the timeline; clears the selection when none was.
    void selectAt(int entry, int64_t ownNs);
    const QStandardItemModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    // The table shown, the scene and entries it was computed for (its columns' reports index them).
    const core::analysis::PhaseTable &shownTable() const { return m_shown; }
    const std::shared_ptr<const TimelineScene> &shownScene() const { return m_shownScene; }
    const std::vector<int> &shownEntries() const { return m_shownEntries; }
    // The matching the shown table came from (its waits are the Breakdown's).
    const RunAnalysesPtr &shownAnalyses() const { return m_shownAnalyses; }
    // Index of the first rank column in the model.
    static constexpr int kFirstRankColumn = 6;

signals:
    void jumpTo(int entry, ps::core::trace::EventRef ref);
    void busyChanged(bool busy);
    // A newly computed table is shown (shownTable()).
    void tableShown();

protected:
    // A cell selected while the tab was hidden is scrolled to once the table has its real size
    // (scrolling a hidden table moves the step and phase columns out of view).
    void showEvent(QShowEvent *event) override;

private:
    void onRunReady(const RunAnalysesPtr &analyses);
    void show(const core::analysis::PhaseTable &table);
    void onClicked(int row, int column);
    QString ofRun() const;
    static QString stepsText(const core::analysis::PhaseTable &t);

    QLabel *m_summary = nullptr;
    QTableView *m_table = nullptr;
    QStandardItemModel *m_model = nullptr;
    RunAnalysesJob *m_run = nullptr;
    LatestJob<core::analysis::PhaseTable> *m_job = nullptr; // a step overlay's table per occurrence
    RunAnalysesPtr m_pending, m_shownAnalyses;              // of the table in m_job, of the one shown
    std::shared_ptr<const TimelineScene> m_scene;
    std::vector<int> m_entries;         // column -> scene entry, for the table being computed or shown
    core::analysis::PhaseTable m_shown; // what the model holds
    std::shared_ptr<const TimelineScene> m_shownScene;
    std::vector<int> m_shownEntries;
};

} // namespace ps::views
