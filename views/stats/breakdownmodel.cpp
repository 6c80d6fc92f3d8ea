#include "views/stats/breakdownmodel.h"

#include "core/analysis/digestsummary.h"

namespace ps::views {

namespace an = core::analysis;

const std::vector<BreakdownColumn> &breakdownColumns()
{
    using U = BreakdownColumn::Unit;
    using R = BreakdownRow;
    const auto split = [](int64_t an::CommunicationSplit::*part) {
        return [part](const R &r) { return r.comm ? std::optional<double>(double((*r.comm).*part)) : std::nullopt; };
    };
    static const std::vector<BreakdownColumn> columns = {
        {"GPU events", "GPU events counted", U::Count, [](const R &r) { return double(r.breakdown.events); }},
        {"Span ms", "first GPU event start to last GPU event end", U::Ms,
         [](const R &r) { return double(r.breakdown.spanNs); }},
        {"Compute %", "busy time with compute running", U::PercentOfSpan,
         [](const R &r) { return double(r.breakdown.computeNs()); }},
        {"Communication %", "busy time with communication and no compute (wait + transfer)", U::PercentOfSpan,
         [](const R &r) { return double(r.breakdown.communicationNs()); }},
        {"Comm wait %",
         "communication_wait: collective kernels before their instance's last rank arrived, waiting for a slower "
         "rank (per report only)",
         U::PercentOfSpan, split(&an::CommunicationSplit::waitNs)},
        {"Comm transfer %",
         "communication_transfer: the rest of communication, from the last arrival on, and collectives not matched "
         "across ranks (per report only)",
         U::PercentOfSpan, split(&an::CommunicationSplit::transferNs)},
        {"Memory %", "memcpy and memset alone", U::PercentOfSpan,
         [](const R &r) { return double(r.breakdown.memoryNs()); }},
        {"Other %", "sync, wait and the rest", U::PercentOfSpan,
         [](const R &r) { return double(r.breakdown.otherNs()); }},
        {"Idle %", "span minus the union of GPU work", U::PercentOfSpan,
         [](const R &r) { return double(r.breakdown.idleNs); }},
        {"Overlap %", "share of communication time during which compute runs", U::Percent,
         [](const R &r) { return r.breakdown.overlapPct(); }},
    };
    return columns;
}

// As `trace breakdown` and `trace compare` do: per report its breakdown and the part of its
// communication spent waiting at the run's collectives.
ReportBreakdowns reportBreakdowns(const std::vector<core::trace::ReportPtr> &reports,
                                  const std::vector<std::vector<an::MemberWait>> &waits,
                                  const core::CancelToken &cancel)
{
    ReportBreakdowns out;
    for (size_t i = 0; i < reports.size(); ++i) {
        std::string error;
        std::optional<an::GpuBreakdown> b =
            cancel.cancelled() ? std::nullopt : an::wholeBreakdown(*reports[i], error, &cancel);
        std::optional<an::CommunicationSplit> split;
        if (b && !cancel.cancelled()) {
            const std::span<const an::MemberWait> mine =
                i < waits.size() ? std::span<const an::MemberWait>(waits[i]) : std::span<const an::MemberWait>{};
            split = an::wholeCommunicationSplit(*reports[i], b->communicationNs(), mine, error, &cancel);
        }
        out.breakdowns.push_back(b);
        out.splits.push_back(split);
        out.errors.push_back(error);
    }
    return out;
}

BreakdownModel::BreakdownModel(QObject *parent) : QAbstractTableModel(parent)
{
}

void BreakdownModel::setRows(QStringList nameHeaders, std::vector<BreakdownRow> rows)
{
    beginResetModel();
    m_nameHeaders = std::move(nameHeaders);
    m_rows = std::move(rows);
    endResetModel();
}

int BreakdownModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int BreakdownModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : nameColumns() + int(breakdownColumns().size());
}

QVariant BreakdownModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= m_rows.size())
        return {};
    const BreakdownRow &row = m_rows[size_t(index.row())];
    if (index.column() < nameColumns()) {
        if (role == Qt::DisplayRole || role == Qt::UserRole)
            return index.column() < row.names.size() ? row.names[index.column()] : QString();
        return {};
    }
    const BreakdownColumn &c = breakdownColumns()[size_t(index.column() - nameColumns())];
    const std::optional<double> v = c.value(row);
    if (role == Qt::UserRole)
        return v ? QVariant(*v) : QVariant();
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole)
        return c.tip;
    if (role != Qt::DisplayRole)
        return {};
    if (!v)
        return QStringLiteral("-");
    switch (c.unit) {
    case BreakdownColumn::Unit::Count:
        return QString::number(qlonglong(*v));
    case BreakdownColumn::Unit::Ms:
        return QString::number(*v / 1e6, 'f', 3);
    case BreakdownColumn::Unit::PercentOfSpan:
        return row.breakdown.spanNs > 0 ? QString::number(100.0 * *v / double(row.breakdown.spanNs), 'f', 2)
                                        : QStringLiteral("-");
    case BreakdownColumn::Unit::Percent:
        return QString::number(*v, 'f', 2);
    }
    return {};
}

QVariant BreakdownModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0)
        return {};
    if (section < nameColumns())
        return role == Qt::DisplayRole ? QVariant(m_nameHeaders[section]) : QVariant();
    const size_t c = size_t(section - nameColumns());
    if (c >= breakdownColumns().size())
        return {};
    if (role == Qt::DisplayRole)
        return breakdownColumns()[c].header;
    if (role == Qt::ToolTipRole)
        return breakdownColumns()[c].tip;
    return {};
}

} // namespace ps::views
