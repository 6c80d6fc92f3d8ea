#include "views/stats/statstablemodel.h"

#include "views/timeline/timeformat.h"

namespace ps::views {

void StatsTableModel::setRows(std::vector<core::trace::StatRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
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

QVariant StatsTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const core::trace::StatRow &r = m_rows[size_t(index.row())];
    auto raw = [&]() -> QVariant {
        switch (index.column()) {
        case Name:
            return QString::fromStdString(r.name);
        case Count:
            return qulonglong(r.count);
        case Total:
            return qlonglong(r.totalNs);
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
    switch (role) {
    case SortRole:
        return raw();
    case Qt::DisplayRole:
        if (index.column() == Name || index.column() == Count)
            return raw();
        return formatDuration(int64_t(raw().toDouble() + 0.5));
    case Qt::ToolTipRole:
        return index.column() == Name ? raw() : QVariant(raw().toString() + QStringLiteral(" ns"));
    case Qt::TextAlignmentRole:
        return index.column() == Name ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant StatsTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *names[] = {"Name", "Count", "Total", "Avg", "Med", "Min", "Max", "StdDev"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

QString StatsTableModel::toCsv(const QList<int> &sourceRows) const
{
    QString out = QStringLiteral("name,count,total_ns,avg_ns,med_ns,min_ns,max_ns,stddev_ns\n");
    auto line = [&](const core::trace::StatRow &r) {
        QString name = QString::fromStdString(r.name);
        name.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        out += QStringLiteral("\"%1\",%2,%3,%4,%5,%6,%7,%8\n")
                   .arg(name)
                   .arg(r.count)
                   .arg(r.totalNs)
                   .arg(r.avgNs, 0, 'f', 1)
                   .arg(r.medNs, 0, 'f', 1)
                   .arg(r.minNs)
                   .arg(r.maxNs)
                   .arg(r.stddevNs, 0, 'f', 1);
    };
    if (sourceRows.isEmpty())
        for (const auto &r : m_rows)
            line(r);
    else
        for (int i : sourceRows)
            if (i >= 0 && i < int(m_rows.size()))
                line(m_rows[size_t(i)]);
    return out;
}

} // namespace ps::views
