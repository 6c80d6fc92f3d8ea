#pragma once
// File > Export Image: the timeline view (time axis, labels and lanes) as a PNG, at its size on
// screen or at a chosen size (the view is laid out at that size for the picture, then restored).
// The file is written atomically: a failed export never leaves a half-written image.

#include <QSize>
#include <QString>

namespace ps::views {

class TimelineView;

// Writes the view to `file` (PNG). An empty `size` is the size on screen. Returns "" on
// success, else why not ("cannot create /x/y.png.tmp: Permission denied").
QString exportTimelineImage(TimelineView *view, const QString &file, QSize size = {});

} // namespace ps::views
