#pragma once
// The rows of an nvtx_sum / kernel_sum table as an item model: Name, Count, Total, Avg, Med,
// Min, Max, StdDev (times formatted for display; Qt::UserRole gives the raw number for sorting),
// and the rows as CSV in ns.

#include "core/trace/tracestats.h"

#include <QAbstractTableModel>

#include <vector>

namespace ps::views {

class StatsTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Count, Total, Avg, Med, Min, Max, StdDev, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;

    using QAbstractTableModel::QAbstractTableModel;

    void setRows(std::vector<core::trace::StatRow> rows);
    const std::vector<core::trace::StatRow> &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    // Header line plus the given source rows (all when empty), values in ns, names quoted.
    QString toCsv(const QList<int> &sourceRows = {}) const;

private:
    std::vector<core::trace::StatRow> m_rows;
};

} // namespace ps::views
