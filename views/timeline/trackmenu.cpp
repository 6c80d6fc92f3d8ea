#include "views/timeline/trackmenu.h"

#include "views/timeline/timelinecanvas.h"

#include <QMenu>

namespace ps::views {

namespace {

// Collapse keys of every report header, or of none.
QSet<QString> allReportKeys(const TimelineCanvas *canvas)
{
    QSet<QString> keys;
    if (const TimelineScene *scene = canvas->scene())
        for (const TimelineEntry &e : scene->entries)
            keys.insert(RowLayout::reportKey(e));
    return keys;
}

void addTrackActions(QMenu *menu, TimelineCanvas *canvas, const Row &row)
{
    const QString kind = RowLayout::kindOf(row.label);
    menu->addAction(QStringLiteral("Hide This Track"), canvas, [canvas, key = row.key] { canvas->hideTrack(key); });
    menu->addAction(QStringLiteral("Hide All “%1” Tracks").arg(kind), canvas,
                    [canvas, kind] { canvas->hideKind(kind); });
    const bool pinned = canvas->trackView().pinned.contains(row.key);
    menu->addAction(pinned ? QStringLiteral("Unpin") : QStringLiteral("Pin to Top"), canvas,
                    [canvas, key = row.key] { canvas->togglePinned(key); });
    if (row.entry >= 0 && canvas->scene()) {
        const QString report = RowLayout::reportKey(canvas->scene()->entries[size_t(row.entry)]);
        menu->addAction(QStringLiteral("Collapse This Report to One Row"), canvas,
                        [canvas, report] { canvas->toggleCollapsed(report); });
    }
}

// "Show Hidden Tracks": each hidden kind and track to bring back one by one, or all at once.
void addHiddenMenu(QMenu *menu, TimelineCanvas *canvas)
{
    const TrackView &v = canvas->trackView();
    QMenu *hidden = menu->addMenu(QStringLiteral("Show Hidden Tracks (%1)").arg(v.hiddenCount()));
    hidden->setEnabled(v.hiddenCount() > 0);
    for (const QString &kind : v.hiddenKinds)
        hidden->addAction(QStringLiteral("All “%1” tracks").arg(kind), canvas, [canvas, kind] {
            canvas->changeTrackView([&](TrackView &next) { next.hiddenKinds.remove(kind); });
        });
    for (const QString &key : v.hiddenTracks)
        hidden->addAction(key.section(QLatin1Char('|'), 1), canvas, [canvas, key] {
            canvas->changeTrackView([&](TrackView &next) { next.hiddenTracks.remove(key); });
        });
    hidden->addSeparator();
    hidden->addAction(QStringLiteral("Show All"), canvas, [canvas] { canvas->showAllTracks(); });
}

} // namespace

QMenu *buildTrackMenu(TimelineCanvas *canvas, const Row *row)
{
    auto *menu = new QMenu(canvas);
    menu->setObjectName(QStringLiteral("trackMenu"));
    if (row && row->isHeader())
        menu->addAction(row->collapsed ? QStringLiteral("Expand") : QStringLiteral("Collapse"), canvas,
                        [canvas, key = row->key] { canvas->toggleCollapsed(key); });
    else if (row)
        addTrackActions(menu, canvas, *row);
    menu->addSeparator();
    menu->addAction(QStringLiteral("Collapse All Reports"), canvas, [canvas] {
        const QSet<QString> reports = allReportKeys(canvas);
        canvas->changeTrackView([&](TrackView &v) { v.collapsed.unite(reports); });
    });
    menu->addAction(QStringLiteral("Expand All"), canvas,
                    [canvas] { canvas->changeTrackView([](TrackView &v) { v.collapsed.clear(); }); });
    addHiddenMenu(menu, canvas);
    return menu;
}

} // namespace ps::views
