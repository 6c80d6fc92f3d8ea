#pragma once
// The timeline's right-click menu, as Perfetto and Nsight Systems offer on a track: hide this
// track or every track of its kind in its run, pin it to the top, collapse or expand its report (a
// collapsed report is one density row) or every report, and bring hidden tracks back.

class QMenu;

namespace ps::views {

class TimelineCanvas;
struct Row;

// A menu for `row` (nullptr: below the last row) whose actions change the canvas's track view.
// The caller owns the menu.
QMenu *buildTrackMenu(TimelineCanvas *canvas, const Row *row);

} // namespace ps::views
