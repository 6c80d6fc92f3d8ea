#pragma once
// Run against run in the GUI, as `trace compare` does it (core/analysis/runcompare.h): with two
// or more runs open, pick the baseline, the candidate and a tolerance; the table lists what
// changed, ranked by size — phases (slowest rank and per rank), annotation ranges, kernels and
// the GPU breakdown (compute / communication / memory / idle) — absolute and in %, with the
// changes beyond the tolerance marked (red: slower, green: faster) and listed first; the table
// sorts by any column, filters by name, and shows only the changes unless "Show unchanged" is
// ticked. Double-clicking a range, phase or kernel finds it in the timeline (every occurrence in
// both runs outlined; a phase row's own ranges, its rank's in its step, selected and fitted, else
// the first occurrence). The summary says which
// reports were matched (by group, rank and step) and which were not. Computed in the
// background, and only while the pane is shown; a new input cancels the job it replaces.

#include "core/analysis/runcompare.h"
#include "views/common/latestjob.h"
#include "views/scene/preparedreport.h"
#include "views/stats/comparesite.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QModelIndex;
class QSortFilterProxyModel;
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
    const QStandardItemModel *model() const { return m_model; }    // every delta, as core ranks them
    const QSortFilterProxyModel *shown() const { return m_proxy; } // what the table shows, in its order
    QTableView *table() const { return m_table; }
    QString summary() const;

    // Model columns.
    enum Column { Kind, Step, Name, Baseline, Candidate, Delta, DeltaPct, ColumnCount };

    // The model's roles: on the Kind column, the row's default order (changes first, then by size),
    // its DeltaKind and whether it changed beyond the tolerance.
    static constexpr int kOrderRole = Qt::UserRole;
    static constexpr int kKindRole = Qt::UserRole + 1;
    static constexpr int kChangedRole = Qt::UserRole + 2;

signals:
    void busyChanged(bool busy);
    // Find this in the timeline: a regular expression matching the event names exactly, and, for
    // a phase row, the row's own ranges (the baseline's, then the candidate's, where each has it).
    void findInTimeline(const QString &pattern, const std::vector<CompareSite> &sites);

protected:
    void showEvent(QShowEvent *event) override;

private:
    QWidget *buildControls();
    void setRuns(const QStringList &runs);
    void recompute();
    struct Compared
    {
        core::analysis::RunComparison comparison;
        std::vector<std::string> baselinePaths, candidatePaths; // the compared reports, in order
    };
    void show(const Compared &compared);
    std::vector<CompareSite> sitesOf(const core::analysis::Delta &d, const Compared &compared) const;
    void activate(const QModelIndex &shownIndex);
    void updateSummary();

    QComboBox *m_baseline = nullptr;
    QComboBox *m_candidate = nullptr;
    QDoubleSpinBox *m_tolerance = nullptr;
    QLabel *m_summary = nullptr;
    QTableView *m_table = nullptr;
    QStandardItemModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr; // CompareRowsFilter
    QLineEdit *m_filter = nullptr;
    QCheckBox *m_showUnchanged = nullptr;
    QString m_comparedText, m_problemsText; // the summary of the comparison shown, without the row count
    LatestJob<Compared> *m_job = nullptr;
    std::vector<std::vector<CompareSite>> m_rowSites; // per model row
    std::vector<PreparedReportPtr> m_reports;
    QStringList m_runs;
    bool m_dirty = false; // the input changed while the pane was hidden
};

} // namespace ps::views
