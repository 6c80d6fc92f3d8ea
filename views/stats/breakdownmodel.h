#pragma once
// The rows of the Breakdown tab: one GPU time breakdown (core/analysis/breakdown/breakdown.h) per report,
// or per (step, phase, rank) cell of the RL phase table, as `profstudio-cli trace breakdown`
// computes them. The columns after the row's names come from one table, kBreakdownColumns: each
// reads one field or accessor of GpuBreakdown (or the row's communication split), so a field
// core adds is one line there. The display role shows ms or % of the span; the sort role (and
// UserRole) holds the exact value.

#include "core/analysis/breakdown/breakdown.h"
#include "core/analysis/collectives/collectivewait.h"
#include "core/common/canceltoken.h"
#include "core/trace/store/report.h"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ps::views {

struct BreakdownRow
{
    QStringList names; // the row's leading cells ("ActorGroup:3", or step, phase, rank)
    int entry = -1;    // the scene entry it belongs to
    core::analysis::GpuBreakdown breakdown;
    // Its communication split into wait and transfer (collectivewait.h); none where it is not known
    // (the phase cells).
    std::optional<core::analysis::CommunicationSplit> comm;
};

struct BreakdownColumn
{
    QString header;
    QString tip;
    enum class Unit { Count, Ms, PercentOfSpan, Percent } unit = Unit::Ms;
    std::function<std::optional<double>(const BreakdownRow &)> value; // ns, count or %
};

// Events, span, compute, communication (then its wait and transfer), memory, other, idle,
// overlap: the columns of `trace breakdown`'s text and CSV output.
const std::vector<BreakdownColumn> &breakdownColumns();

// Per report, what `trace breakdown` gives: the whole breakdown (a digest's GPUB summary, or from
// the events) and its communication split by the waits of the run's collectives, matched once.
struct ReportBreakdowns
{
    std::vector<std::optional<core::analysis::GpuBreakdown>> breakdowns; // by input report
    std::vector<std::optional<core::analysis::CommunicationSplit>> splits;
    std::vector<std::string> errors; // why a report has no breakdown (or no split)
};
// `waits[i]`: reports[i]'s members' waits from the run's one matching (RunCollectives::waits);
// a report beyond them waited at none.
ReportBreakdowns reportBreakdowns(const std::vector<core::trace::ReportPtr> &reports,
                                  const std::vector<std::vector<core::analysis::MemberWait>> &waits,
                                  const core::CancelToken &cancel);

class BreakdownModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit BreakdownModel(QObject *parent = nullptr);

    // `nameHeaders` heads the leading name columns (one per BreakdownRow::names entry).
    void setRows(QStringList nameHeaders, std::vector<BreakdownRow> rows);
    const std::vector<BreakdownRow> &rows() const { return m_rows; }
    int nameColumns() const { return int(m_nameHeaders.size()); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QStringList m_nameHeaders;
    std::vector<BreakdownRow> m_rows;
};

} // namespace ps::views
