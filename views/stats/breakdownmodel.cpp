#include "views/stats/breakdownmodel.h"

namespace ps::views {

namespace an = core::analysis;

const std::vector<BreakdownColumn> &breakdownColumns()
{
    using U = BreakdownColumn::Unit;
    using B = an::GpuBreakdown;
    static const std::vector<BreakdownColumn> columns = {
        {"GPU events", "GPU events counted", U::Count, [](const B &b) { return double(b.events); }},
        {"Span ms", "first GPU event start to last GPU event end", U::Ms, [](const B &b) { return double(b.spanNs); }},
        {"Compute %", "busy time with compute running", U::PercentOfSpan,
         [](const B &b) { return double(b.computeNs()); }},
        {"Communication %", "busy time with communication and no compute", U::PercentOfSpan,
         [](const B &b) { return double(b.communicationNs()); }},
        {"Memory %", "memcpy and memset alone", U::PercentOfSpan, [](const B &b) { return double(b.memoryNs()); }},
        {"Other %", "sync, wait and the rest", U::PercentOfSpan, [](const B &b) { return double(b.otherNs()); }},
        {"Idle %", "span minus the union of GPU work", U::PercentOfSpan, [](const B &b) { return double(b.idleNs); }},
        {"Overlap %", "share of communication time during which compute runs", U::Percent,
         [](const B &b) { return b.overlapPct(); }},
    };
    return columns;
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
    const std::optional<double> v = c.value(row.breakdown);
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
