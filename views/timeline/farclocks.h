#pragma once
// What the banner says of reports left out of the timeline's extent because their clocks lie far
// from the others' (TimelineScene::farEntries): one line per report, naming it, how far its events
// reach against the others', and the Session menu item that takes it in.

#include "views/scene/timelinescene.h"

#include <QString>
#include <QStringList>

namespace ps::views {

inline const QString kFarClocksTitle = QStringLiteral("Left out of Fit: reports whose clocks lie far from the others");

// Empty when nothing is far, or the far reports are taken in.
QStringList farClockLines(const TimelineScene &scene);

} // namespace ps::views
