#pragma once
// The rows of a stats table (nvtx_sum, kernel_sum, osrt_sum, ...; tracestats.h) as an item model: Name (the Range for
// nvtx_sum), Style (nvtx_sum: PushPop / StartEnd; empty for kernels), Count, Total, Time % (share of the table's
// total), Avg, Med, Min, Max, StdDev (times formatted for display; Qt::UserRole gives the raw value for sorting), and
// the rows as CSV in ns (the size report: MB shown, bytes in the CSV, no Time %).

#include "core/trace/tracestats.h"

#include <QAbstractTableModel>

#include <vector>

namespace ps::views {

class StatsTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Style, Count, Total, TimePct, Avg, Med, Min, Max, StdDev, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;

    using QAbstractTableModel::QAbstractTableModel;

    // `kind` decides whether the CSV has a style column (nvtx_sum only, as in the CLI).
    void setRows(std::vector<core::trace::StatRow> rows, core::trace::StatsKind kind = core::trace::StatsKind::NvtxSum);
    const std::vector<core::trace::StatRow> &rows() const { return m_rows; }
    core::trace::StatsKind kind() const { return m_kind; }
    // The shown reports' formats: the Style column says nvtx_sum's words for nsys reports only.
    void setFormats(std::vector<core::trace::TraceFormat> formats);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    // Header line plus the given source rows (all when empty), values in ns, names quoted:
    // name,count,total_ns,avg_ns,med_ns,min_ns,max_ns,stddev_ns,time_pct[,style]
    // (the columns of `profstudio-cli trace stats --format csv` after its report column).
    QString toCsv(const QList<int> &sourceRows = {}) const;

private:
    std::vector<core::trace::StatRow> m_rows;
    core::trace::StatsKind m_kind = core::trace::StatsKind::NvtxSum;
    std::vector<core::trace::TraceFormat> m_formats;
};

} // namespace ps::views
