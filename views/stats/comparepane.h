#pragma once
// Run against run in the GUI, as `trace compare` does it (core/analysis/runcompare.h): with two
// or more runs open, pick the baseline, the candidate and a tolerance; the table lists what
// changed, ranked by size — phases (slowest rank and per rank), annotation ranges, kernels and
// the GPU breakdown (compute / communication / memory / idle) — absolute and in %, with the
// changes beyond the tolerance marked (red: slower, green: faster). The summary says which
// reports were matched (by group, rank and step) and which were not. Computed in the
// background, and only while the pane is shown; a new input cancels the job it replaces.

#include "core/analysis/runcompare.h"
#include "views/common/latestjob.h"
#include "views/scene/preparedreport.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QStandardItemModel;
class QTableView;

namespace ps::views {

class ComparePane : public QWidget
{
    Q_OBJECT
public:
    explicit ComparePane(QWidget *parent = nullptr);

    // The open reports; their runs (identity.run) are what can be compared, whatever the
    // timeline shows of them (a rank, a step overlay).
    void setInput(std::vector<PreparedReportPtr> reports);
    bool isBusy() const;

    QComboBox *baselineRun() const { return m_baseline; }
    QComboBox *candidateRun() const { return m_candidate; }
    QDoubleSpinBox *tolerance() const { return m_tolerance; }
    const QStandardItemModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QString summary() const;

    // Model columns.
    enum Column { Kind, Step, Name, Baseline, Candidate, Delta, DeltaPct, ColumnCount };

signals:
    void busyChanged(bool busy);

protected:
    void showEvent(QShowEvent *event) override;

private:
    QWidget *buildControls();
    void setRuns(const QStringList &runs);
    void recompute();
    void show(const core::analysis::RunComparison &c);

    QComboBox *m_baseline = nullptr;
    QComboBox *m_candidate = nullptr;
    QDoubleSpinBox *m_tolerance = nullptr;
    QLabel *m_summary = nullptr;
    QTableView *m_table = nullptr;
    QStandardItemModel *m_model = nullptr;
    LatestJob<core::analysis::RunComparison> *m_job = nullptr;
    std::vector<PreparedReportPtr> m_reports;
    QStringList m_runs;
    bool m_dirty = false; // the input changed while the pane was hidden
};

} // namespace ps::views
