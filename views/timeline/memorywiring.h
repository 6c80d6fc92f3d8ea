#pragma once
// The Memory tab joined to the timeline: a click on a memory lane (not a drag) lists in the tab
// what holds the memory at that point, and shows the tab; hovering a memory lane tells its value
// there (per category, in the categories' colours, on a memory timeline's stacked total); Esc
// cancels a snapshot read in progress. Before any click the tab shows the highest snapshot peak
// on screen. Kept out of the workspace, which only adds the tab and asks whether it is busy.

#include "views/memory/memoryblockspane.h"

#include <QPoint>
#include <QString>

#include <optional>

class QTabWidget;

namespace ps::views {

class TimelineCanvas;

// Adds the Memory tab to `tabs` and connects it to `canvas`.
MemoryBlocksPane *addMemoryTab(QTabWidget *tabs, TimelineCanvas *canvas);

// The memory-lane point under a widget position of the canvas; nullopt off the memory lanes.
std::optional<MemoryPoint> memoryPointAt(const TimelineCanvas &canvas, QPoint pos);
// A memory lane's tooltip at a widget position: its bytes there (each category's on a memory
// timeline's total); "" off the memory lanes.
QString memoryToolTipAt(const TimelineCanvas &canvas, QPoint pos);
// The highest peak of the snapshot lanes on screen, as a point (the Memory tab's first answer).
std::optional<MemoryPoint> highestPeakPoint(const TimelineCanvas &canvas);

} // namespace ps::views
