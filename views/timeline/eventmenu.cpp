#include "views/timeline/eventmenu.h"

#include "views/timeline/eventcopy.h"
#include "views/timeline/rowlayout.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineviewstate.h"

#include <QMenu>

namespace ps::views {

namespace {
// Adds `text` before the menu's first action (or at its end when it has none).
QAction *insertAction(QMenu *menu, QAction *before, const QString &text, const QString &objectName)
{
    auto *a = new QAction(text, menu);
    a->setObjectName(objectName);
    menu->insertAction(before, a);
    return a;
}
} // namespace

void insertEventActions(QMenu *menu, const EventInfo &info, const std::function<void(const QString &)> &find)
{
    QAction *first = menu->actions().value(0);
    QAction *name = insertAction(menu, first, QStringLiteral("Copy Name"), QStringLiteral("copyName"));
    name->setShortcut(QKeySequence::Copy); // shown as a hint; the canvas's own action handles the key
    QObject::connect(name, &QAction::triggered, menu, [n = info.name] { copyToClipboard(n); });
    QAction *details = insertAction(menu, first, QStringLiteral("Copy Details"), QStringLiteral("copyDetails"));
    QObject::connect(details, &QAction::triggered, menu, [text = eventDetailsText(info)] { copyToClipboard(text); });
    QAction *like = insertAction(menu, first, QStringLiteral("Find All Like This"), QStringLiteral("findAllLike"));
    // The full name: search matches the names the reports store (a kernel's demangled name).
    QObject::connect(like, &QAction::triggered, menu, [find, n = withoutInvisible(info.fullName)] { find(n); });
    menu->insertSeparator(first);
}

std::optional<QString> runOfHeader(const TimelineScene &scene, const Row &row)
{
    if (!row.isHeader())
        return std::nullopt;
    for (size_t i = 0; i < scene.entries.size(); ++i) {
        const TimelineEntry &e = scene.entries[i];
        const bool under =
            row.kind == RowKind::Report
                ? int(i) == row.entry
                : e.groupPath.size() > row.depth && RowLayout::groupKey(e.groupPath.mid(0, row.depth + 1)) == row.key;
        if (under)
            return QString::fromStdString(e.report->report().identity.run);
    }
    return std::nullopt;
}

void insertRunActions(QMenu *menu, const QString &run, const std::function<void()> &closeRun,
                      const std::function<void()> &closeAll)
{
    QAction *first = menu->actions().value(0);
    const QString name = run.isEmpty() ? QStringLiteral("(reports without a run folder)") : run;
    QObject::connect(insertAction(menu, first, QStringLiteral("Close Run “%1”").arg(name), QStringLiteral("closeRun")),
                     &QAction::triggered, menu, closeRun);
    QObject::connect(insertAction(menu, first, QStringLiteral("Close All Reports"), QStringLiteral("closeAll")),
                     &QAction::triggered, menu, closeAll);
    menu->insertSeparator(first);
}

void insertReportAction(QMenu *menu, const QString &label, const std::function<void()> &closeReport)
{
    QAction *first = menu->actions().value(0);
    QObject::connect(
        insertAction(menu, first, QStringLiteral("Close This Report “%1”").arg(label), QStringLiteral("closeReport")),
        &QAction::triggered, menu, closeReport);
}

// Above the canvas's track actions: copy and search on an event, close on a run's header.
void extendCanvasMenu(QMenu *menu, QPoint pos, int row, const TimelineScene *scene, const TimelineCanvas &canvas,
                      const CanvasMenuCalls &calls)
{
    if (!scene)
        return;
    if (const auto hit = canvas.eventAt(pos); hit && hit->entry >= 0) {
        const EventInfo info =
            describeEvent(scene->entries[size_t(hit->entry)], hit->ref, canvas.state()->wallClockOrigin());
        insertEventActions(menu, info, calls.find);
        return;
    }
    const auto &rows = canvas.layout().rows();
    if (row < 0 || size_t(row) >= rows.size())
        return;
    const Row &header = rows[size_t(row)];
    if (const auto run = runOfHeader(*scene, header))
        insertRunActions(
            menu, *run, [close = calls.closeRun, r = *run] { close(r); }, calls.closeAll);
    if (header.isHeader() && header.kind == RowKind::Report && header.entry >= 0 && calls.closeReport) {
        // A report whose clocks lie far from the others (or any one) can be closed alone.
        const TimelineEntry &e = scene->entries[size_t(header.entry)];
        const QString path = QString::fromStdString(e.report->report().path);
        insertReportAction(menu, header.label, [close = calls.closeReport, path] { close(path); });
    }
}

} // namespace ps::views
