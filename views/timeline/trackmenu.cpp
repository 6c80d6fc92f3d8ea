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

// The runs of the scene: with several open, kinds are hidden in one and the menu names it.
QStringList runsOf(const TimelineCanvas *canvas)
{
    QStringList runs;
    if (const TimelineScene *scene = canvas->scene())
        for (const TimelineEntry &e : scene->entries)
            if (!runs.contains(RowLayout::runOf(e)))
                runs << RowLayout::runOf(e);
    return runs;
}

QString runName(const QString &run)
{
    return run.isEmpty() ? QStringLiteral("(no run folder)") : run;
}

void addTrackActions(QMenu *menu, TimelineCanvas *canvas, const Row &row)
{
    menu->addAction(QStringLiteral("Hide This Track"), canvas, [canvas, key = row.key] { canvas->hideTrack(key); });
    if (row.entry >= 0 && canvas->scene()) {
        const TimelineEntry &e = canvas->scene()->entries[size_t(row.entry)];
        // From the key: a pinned lane's label starts with its report's.
        const QString kind = RowLayout::kindOf(row.key.mid(RowLayout::reportKey(e).size() + 1));
        const QString text =
            runsOf(canvas).size() > 1
                ? QStringLiteral("Hide All “%1” Tracks of Run “%2”").arg(kind, runName(RowLayout::runOf(e)))
                : QStringLiteral("Hide All “%1” Tracks").arg(kind);
        menu->addAction(text, canvas, [canvas, key = RowLayout::kindKey(e, kind)] { canvas->hideKind(key); });
    }
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
    const bool severalRuns = runsOf(canvas).size() > 1;
    for (const QString &key : v.hiddenKinds) {
        const auto [kind, run] = RowLayout::splitKindKey(key);
        const QString text = run && severalRuns ? QStringLiteral("All “%1” tracks of run “%2”").arg(kind, runName(*run))
                                                : QStringLiteral("All “%1” tracks").arg(kind);
        hidden->addAction(text, canvas, [canvas, key] {
            canvas->changeTrackView([&](TrackView &next) { next.hiddenKinds.remove(key); });
        });
    }
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
