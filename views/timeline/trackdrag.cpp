#include "views/timeline/trackdrag.h"

#include "views/timeline/timelinecanvas.h"

#include <QPainter>

namespace ps::views {

namespace {
constexpr int kDragThreshold = 4;
const QColor kDropLine(0x1e, 0x88, 0xe5);
const QColor kDragged(0x1e, 0x88, 0xe5, 0x30);

bool isLane(const Row &r)
{
    return !r.isHeader() && r.entry >= 0;
}

// `keys` with `key` moved to position `to` (counted before the move).
QStringList movedKey(QStringList keys, const QString &key, qsizetype to)
{
    const qsizetype from = keys.indexOf(key);
    if (from < 0)
        return keys;
    keys.removeAt(from);
    keys.insert(to > from ? to - 1 : to, key);
    return keys;
}

// `visible` then the keys of `old` it does not hold, in their order (hidden lanes keep their
// place after the visible ones).
QStringList withRest(QStringList visible, const QStringList &old)
{
    for (const QString &k : old)
        if (!visible.contains(k))
            visible << k;
    return visible;
}
} // namespace

std::pair<int, int> movableBlock(const RowLayout &layout, int row)
{
    const auto &rows = layout.rows();
    if (row < 0 || size_t(row) >= rows.size() || !isLane(rows[size_t(row)]))
        return {row, row};
    if (row < layout.pinnedRows()) // the Pinned section: its header, then the pinned lanes
        return {1, layout.pinnedRows()};
    const int entry = rows[size_t(row)].entry;
    int first = row, last = row + 1;
    while (first > layout.pinnedRows() && isLane(rows[size_t(first - 1)]) && rows[size_t(first - 1)].entry == entry)
        --first;
    while (size_t(last) < rows.size() && isLane(rows[size_t(last)]) && rows[size_t(last)].entry == entry)
        ++last;
    return {first, last};
}

int dropSlot(const RowLayout &layout, int row, int layoutY)
{
    const auto [first, last] = movableBlock(layout, row);
    for (int i = first; i < last; ++i) {
        const Row &r = layout.rows()[size_t(i)];
        if (layoutY < r.y + r.height / 2)
            return i;
    }
    return last;
}

TrackView movedTrack(const TrackView &view, const RowLayout &layout, const TimelineScene &scene, int row, int slot)
{
    const auto [first, last] = movableBlock(layout, row);
    if (first == last || slot < first || slot > last || slot == row || slot == row + 1)
        return view;
    QStringList keys;
    for (int i = first; i < last; ++i)
        keys << layout.rows()[size_t(i)].key;
    const QString &key = layout.rows()[size_t(row)].key;
    keys = movedKey(keys, key, slot - first);
    TrackView next = view;
    if (row < layout.pinnedRows()) {
        next.pinned = withRest(keys, view.pinned);
    } else {
        const QString report = RowLayout::reportKey(scene.entries[size_t(layout.rows()[size_t(row)].entry)]);
        next.order[report] = withRest(keys, view.order.value(report));
    }
    return next;
}

void TrackDrag::press(QPoint pos)
{
    m_row.reset();
    m_dragging = false;
    const RowLayout &layout = m_canvas->layout();
    if (pos.x() >= m_canvas->lanesLeft() - 4) // the lanes, or the label column's edge
        return;
    const int row = layout.rowAt(m_canvas->layoutY(pos.y()));
    const auto [first, last] = movableBlock(layout, row);
    if (last - first < 2) // alone in its block: nowhere to go
        return;
    m_row = row;
    m_pressPos = pos;
}

int TrackDrag::slotAt(QPoint pos) const
{
    return dropSlot(m_canvas->layout(), *m_row, m_canvas->layoutY(pos.y()));
}

bool TrackDrag::move(QPoint pos)
{
    if (!m_row)
        return false;
    if (!m_dragging && std::abs(pos.y() - m_pressPos.y()) < kDragThreshold)
        return true;
    m_dragging = true;
    m_slot = slotAt(pos);
    m_canvas->setCursor(Qt::ClosedHandCursor);
    m_canvas->update();
    return true;
}

bool TrackDrag::release(QPoint pos)
{
    const std::optional<int> row = std::exchange(m_row, std::nullopt);
    if (!row || !std::exchange(m_dragging, false))
        return false;
    m_canvas->setCursor(Qt::ArrowCursor);
    if (const TimelineScene *scene = m_canvas->scene()) {
        TrackView next = movedTrack(m_canvas->trackView(), m_canvas->layout(), *scene, *row, slotAt(pos));
        if (!(next == m_canvas->trackView()))
            m_canvas->setTrackView(next);
    }
    m_canvas->update();
    return true;
}

void TrackDrag::paint(QPainter &p) const
{
    if (!m_dragging || !m_row)
        return;
    const RowLayout &layout = m_canvas->layout();
    const RowViewport vp(layout, m_canvas->scrollY(), m_canvas->height());
    const Row &dragged = layout.rows()[size_t(*m_row)];
    p.fillRect(QRect(0, vp.screenY(dragged), m_canvas->lanesLeft(), dragged.height), kDragged);
    const int last = movableBlock(layout, *m_row).second;
    const Row &at = layout.rows()[size_t(std::min(m_slot, last - 1))];
    const int y = m_slot < last ? vp.screenY(at) : vp.screenY(at) + at.height;
    p.setPen(QPen(kDropLine, 2));
    p.drawLine(0, y, m_canvas->width(), y);
}

} // namespace ps::views
