#include "views/collectives/waitstripdelegate.h"

#include "views/collectives/collectivesmodel.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ps::views {

namespace {
const QColor kWait(0xfb, 0x8c, 0x00);
const QColor kLast(0xe5, 0x39, 0x35);
const QColor kBase(0xcf, 0xd8, 0xdc);
} // namespace

void WaitStripDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    // The cell's background and selection, without its text (the strip stands for it).
    QStyleOptionViewItem cell = option;
    initStyleOption(&cell, index);
    cell.text.clear();
    const QWidget *widget = option.widget;
    (widget ? widget->style() : QApplication::style())->drawControl(QStyle::CE_ItemViewItem, &cell, painter, widget);
    const CollectiveView *view = m_model->view();
    const QVariant which = index.data(CollectivesModel::kInstanceRole);
    if (!view || !which.isValid())
        return;
    const auto &inst = view->analysis.instances[size_t(which.toInt())];
    const QRect area = option.rect.adjusted(3, 3, -3, -3);
    if (!inst.complete || inst.members.empty() || area.width() < 2) {
        painter->setPen(option.palette.color(QPalette::PlaceholderText));
        painter->drawText(option.rect.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft,
                          index.data(Qt::DisplayRole).toString());
        return;
    }
    const size_t n = inst.members.size(); // by rank
    const double perMember = double(area.width()) / double(n);
    const double full = double(std::max<int64_t>(inst.skewNs, 1));
    painter->save();
    painter->fillRect(QRect(area.left(), area.bottom(), area.width(), 1), kBase);
    int lastX = -1;
    for (int x = 0; x < area.width(); ++x) {
        const size_t first = size_t(std::floor(x / perMember));
        const size_t last = std::min(n, std::max(first + 1, size_t(std::ceil((x + 1) / perMember))));
        int64_t wait = 0;
        for (size_t m = first; m < last; ++m) {
            wait = std::max(wait, inst.members[m].waitNs);
            if (inst.members[m].rank == inst.lastRank)
                lastX = lastX < 0 ? x : lastX;
        }
        const int h = int(std::lround(double(area.height()) * double(wait) / full));
        if (h > 0)
            painter->fillRect(QRect(area.left() + x, area.bottom() + 1 - h, 1, h), kWait);
    }
    if (lastX >= 0) {
        const int w = std::max(2, int(perMember) - 1);
        painter->fillRect(QRect(area.left() + lastX, area.top(), w, area.height() + 1), kLast);
    }
    painter->restore();
}

QSize WaitStripDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    return QStyledItemDelegate::sizeHint(option, index).expandedTo(QSize(160, 0));
}

} // namespace ps::views
