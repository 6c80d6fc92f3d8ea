#pragma once
// The Breakdown tab: the GPU time breakdown (compute / communication / memory / other / idle and
// comm-compute overlap) per report, or per phase of the RL phase table (step x phase x rank),
// equal to `profstudio-cli trace breakdown` (the same core functions: per report
// core::analysis::wholeBreakdown, which reads a digest's GPUB summary; per phase the table's
// cells). It follows the RL Phases pane's input (the reports of the run shown), so both name
// the same run. Per report is computed in the background, once the tab is shown.

#include "views/common/backgroundpane.h"
#include "views/stats/breakdownmodel.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace ps::views {

class PhasesPane;
struct TimelineScene;

class BreakdownPane : public BackgroundPane
{
    Q_OBJECT
public:
    enum class Scope { PerReport = 0, PerPhase = 1 };
    // Takes its reports and phases from `phases` whenever it shows a new table.
    explicit BreakdownPane(PhasesPane *phases, QWidget *parent = nullptr);

    void setScope(Scope scope);
    const BreakdownModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QLabel *summary() const { return m_summary; }

private:
    using PerReport = ReportBreakdowns;
    void inputChanged();
    void showRows();
    QString runName() const;

    PhasesPane *m_phases;
    QComboBox *m_scope = nullptr;
    QLabel *m_summary = nullptr;
    QTableView *m_table = nullptr;
    BreakdownModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    LatestJob<PerReport> *m_job = nullptr;
    std::shared_ptr<const TimelineScene> m_scene;
    std::vector<int> m_entries;
    PerReport m_perReport;
    bool m_reading = false; // a job for these reports was started and has not answered
};

} // namespace ps::views
