#pragma once
// Draws the Collectives table's "Wait by rank" cell: one bar per member in rank order, its height
// the member's wait over the instance's skew, the last-arriving rank marked in red. With more
// members than pixels, a pixel column shows the longest wait of the members it covers, so a
// late rank among 1024 still shows as the gap in a full strip.

#include <QStyledItemDelegate>

namespace ps::views {

class CollectivesModel;

class WaitStripDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    WaitStripDelegate(const CollectivesModel *model, QObject *parent) : QStyledItemDelegate(parent), m_model(model) {}

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    const CollectivesModel *m_model;
};

} // namespace ps::views
