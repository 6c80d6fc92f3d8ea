#pragma once
// The Collectives tab's table: one row per matched instance (groups x instances), with the
// last-arriving rank, the start skew, the others' median and total wait, the transfer, bytes,
// busbw and a per-rank wait strip (WaitStripDelegate draws it; its text, which Copy gives, names
// the longest wait). Sorting goes through kSortRole, which holds numbers for the time columns.

#include "views/collectives/collectiveview.h"

#include <QAbstractTableModel>

namespace ps::views {

class CollectivesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Group,
        Op,
        Index,
        Ranks,
        LastRank,
        Skew,
        MedianWait,
        TotalWait,
        Transfer,
        Bytes,
        Busbw,
        WaitStrip,
        ColumnCount
    };
    static constexpr int kSortRole = Qt::UserRole;         // numbers for numeric columns, else text
    static constexpr int kInstanceRole = Qt::UserRole + 1; // index into analysis.instances

    explicit CollectivesModel(QObject *parent = nullptr) : QAbstractTableModel(parent) {}

    void setView(CollectiveViewPtr view);
    const CollectiveView *view() const { return m_view.get(); }
    // The row of an instance (model order), or -1.
    int rowOf(size_t instance) const { return instance < size_t(rowCount()) ? int(instance) : -1; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QVariant display(const core::analysis::CollectiveInstance &inst, int column) const;
    QVariant sortValue(const core::analysis::CollectiveInstance &inst, int column) const;

    CollectiveViewPtr m_view;
};

} // namespace ps::views
