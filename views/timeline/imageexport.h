#pragma once
// File > Export Image: the timeline view (time axis, labels and lanes) as a PNG, at its size on
// screen or at a chosen size (the view is laid out at that size for the picture, then restored).
// The file is written atomically: a failed export never leaves a half-written image. Drawing
// needs the GUI thread; encoding and writing (the slow part at 3840×2160) do not.

#include <QImage>
#include <QSize>
#include <QString>

namespace ps::views {

class TimelineView;

// The view drawn at `size` (empty: its size on screen). GUI thread.
QImage grabTimelineImage(TimelineView *view, QSize size = {});

// Encodes `image` as PNG into `file`, from any thread. Returns "" on success, else why not
// ("cannot create /x/y.png.tmp: Permission denied").
QString writeTimelineImage(const QImage &image, const QString &file);

// Both on the calling thread.
QString exportTimelineImage(TimelineView *view, const QString &file, QSize size = {});

} // namespace ps::views
