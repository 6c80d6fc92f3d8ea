#pragma once
// Driving a TimelineCanvas in offscreen tests as a user would: mouse presses, drags and context
// menu choices sent as events, and finding the row a label names.

#include "views/timeline/timelinecanvas.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenu>
#include <QMouseEvent>

#include <memory>

namespace ps::test {

inline void mouse(QWidget *w, QEvent::Type type, QPoint pos, Qt::MouseButton button, Qt::MouseButtons buttons,
                  Qt::KeyboardModifiers mods = Qt::NoModifier)
{
    QMouseEvent e(type, QPointF(pos), w->mapToGlobal(QPointF(pos)), button, buttons, mods);
    QCoreApplication::sendEvent(w, &e);
}

// A left-button drag from `from` to `to`, through the midpoint.
inline void drag(QWidget *w, QPoint from, QPoint to, Qt::KeyboardModifiers mods = Qt::NoModifier)
{
    mouse(w, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton, mods);
    mouse(w, QEvent::MouseMove, (from + to) / 2, Qt::NoButton, Qt::LeftButton, mods);
    mouse(w, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton, mods);
    mouse(w, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton, mods);
}

// Triggers the menu action whose text is `text` (searching submenus), as a click would; the menu
// is deleted.
inline bool triggerMenu(QMenu *menu, const QString &text)
{
    std::unique_ptr<QMenu> owned(menu);
    for (QAction *a : menu->findChildren<QAction *>())
        if (a->text() == text && a->isEnabled() && !a->menu()) {
            a->trigger();
            return true;
        }
    return false;
}

// The index of the first lane row of `entry` at or after `from` whose label starts with
// `labelStart`, or -1.
inline int rowIndex(const ps::views::TimelineCanvas &c, int entry, const QString &labelStart, int from = 0)
{
    const auto &rows = c.layout().rows();
    for (size_t i = size_t(from); i < rows.size(); ++i)
        if (rows[i].entry == entry && !rows[i].isHeader() && rows[i].label.startsWith(labelStart))
            return int(i);
    return -1;
}

inline const ps::views::Row *findRow(const ps::views::TimelineCanvas &c, int entry, const QString &labelStart,
                                     int from = 0)
{
    const int i = rowIndex(c, entry, labelStart, from);
    return i < 0 ? nullptr : &c.layout().rows()[size_t(i)];
}

} // namespace ps::test
