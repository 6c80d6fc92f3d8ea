#pragma once
// The workspace's part of the timeline's right-click menu, above the track actions: on an event,
// Copy Name, Copy Details and Find All Like This; on a run's header (or a report header inside
// it), Close Run and Close All, and on a report's header Close This Report first.

#include "views/timeline/eventinfo.h"

#include <QPoint>

#include <functional>

class QMenu;

namespace ps::views {

struct Row;
class TimelineCanvas;

// Inserts the event actions at the top of `menu`. `find` gets the name to search for.
void insertEventActions(QMenu *menu, const EventInfo &info, const std::function<void(const QString &)> &find);

// The run (identity.run) a header row belongs to: a report header's own, a group header's first
// report's. nullopt for other rows.
std::optional<QString> runOfHeader(const TimelineScene &scene, const Row &row);

// Inserts Close Run “run” and Close All at the top of `menu`.
void insertRunActions(QMenu *menu, const QString &run, const std::function<void()> &closeRun,
                      const std::function<void()> &closeAll);
// Inserts Close This Report (“label”) at the top of `menu`: one report's header.
void insertReportAction(QMenu *menu, const QString &label, const std::function<void()> &closeReport);

// What the menu's actions ask of the workspace.
struct CanvasMenuCalls
{
    std::function<void(const QString &)> find;     // Find All Like This: the name to search for
    std::function<void(const QString &)> closeRun; // Close Run: the run
    std::function<void()> closeAll;
    std::function<void(const QString &)> closeReport; // Close This Report: the report's path
};

// The canvas's contextMenuBuilt at `pos` on `row`: the event actions on an event, the run
// actions on a run's header, nothing elsewhere or without a scene.
void extendCanvasMenu(QMenu *menu, QPoint pos, int row, const TimelineScene *scene, const TimelineCanvas &canvas,
                      const CanvasMenuCalls &calls);

} // namespace ps::views
