#include "views/stats/statstablemodel.h"

#include "core/trace/statscsv.h"
#include "views/scene/timeformat.h"
#include "views/scene/vendorwords.h"

#include <cmath>
#include <iterator>

namespace ps::views {

using core::trace::isByteStats;

void StatsTableModel::setRows(std::vector<core::trace::StatRow> rows, core::trace::StatsKind kind)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_kind = kind;
    endResetModel();
}

int StatsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int StatsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void StatsTableModel::setFormats(std::vector<core::trace::TraceFormat> formats)
{
    if (formats == m_formats)
        return;
    m_formats = std::move(formats);
    if (!m_rows.empty())
        emit dataChanged(index(0, Style), index(int(m_rows.size()) - 1, Style));
}

QVariant StatsTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const core::trace::StatRow &r = m_rows[size_t(index.row())];
    const int col = index.column();
    auto raw = [&]() -> QVariant {
        switch (col) {
        case Name:
            return QString::fromStdString(r.name);
        case Style:
            return QString::fromStdString(r.style);
        case Count:
            return qulonglong(r.count);
        case Total:
            return qlonglong(r.totalNs);
        case TimePct:
            return r.timePct;
        case Avg:
            return r.avgNs;
        case Med:
            return r.medNs;
        case Min:
            return qlonglong(r.minNs);
        case Max:
            return qlonglong(r.maxNs);
        case StdDev:
            return r.stddevNs;
        }
        return {};
    };
    const bool text = col == Name || col == Style;
    switch (role) {
    case SortRole:
        return raw();
    case Qt::DisplayRole:
        if (col == Style)
            return rangeStyleWord(r.style, m_formats);
        if (text || col == Count)
            return raw();
        if (col == TimePct)
            return isByteStats(m_kind) ? QString() : QStringLiteral("%1 %").arg(r.timePct, 0, 'f', 1);
        if (isByteStats(m_kind)) // the size report: MB, as nsys prints it
            return QStringLiteral("%1 MB").arg(raw().toDouble() / 1e6, 0, 'f', 3);
        return formatDuration(int64_t(std::llround(raw().toDouble())));
    case Qt::ToolTipRole:
        if (text)
            return raw();
        if (col == TimePct)
            return QStringLiteral("%1 % of the total time of the rows").arg(r.timePct, 0, 'f', 3);
        return QVariant(raw().toString() + (isByteStats(m_kind) ? QStringLiteral(" bytes") : QStringLiteral(" ns")));
    case Qt::TextAlignmentRole:
        return text ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant StatsTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *names[] = {"Name", "Style", "Count", "Total", "Time %", "Avg", "Med", "Min", "Max", "StdDev"};
    static_assert(std::size(names) == ColumnCount);
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

QString StatsTableModel::toCsv(const QList<int> &sourceRows) const
{
    const core::trace::StatsCsvColumns columns{false, m_kind == core::trace::StatsKind::NvtxSum, isByteStats(m_kind)};
    std::string out = core::trace::statsCsvHeader(columns);
    auto line = [&](const core::trace::StatRow &r) { out += core::trace::statsCsvLine(r, columns); };
    if (sourceRows.isEmpty())
        for (const auto &r : m_rows)
            line(r);
    else
        for (int i : sourceRows)
            if (i >= 0 && i < int(m_rows.size()))
                line(m_rows[size_t(i)]);
    return QString::fromStdString(out);
}

} // namespace ps::views
