#pragma once
// The workspace's part of the timeline's right-click menu, above the track actions: on an event,
// Copy Name, Copy Details and Find All Like This; on a run's header (or a report header inside
// it), Close Run and Close All.

#include "views/timeline/eventinfo.h"

#include <functional>

class QMenu;

namespace ps::views {

struct Row;

// Inserts the event actions at the top of `menu`. `find` gets the name to search for.
void insertEventActions(QMenu *menu, const EventInfo &info, const std::function<void(const QString &)> &find);

// The run (identity.run) a header row belongs to: a report header's own, a group header's first
// report's. nullopt for other rows.
std::optional<QString> runOfHeader(const TimelineScene &scene, const Row &row);

// Inserts Close Run “run” and Close All at the top of `menu`.
void insertRunActions(QMenu *menu, const QString &run, const std::function<void()> &closeRun,
                      const std::function<void()> &closeAll);

} // namespace ps::views
