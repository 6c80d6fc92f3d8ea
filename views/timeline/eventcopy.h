#pragma once
// What Copy Name and Copy Details put on the clipboard for one event: the name exactly as search
// matches it, and the details pane's rows as tab-separated "key<TAB>value" lines. Nothing copied
// carries invisible characters (zero-width spaces and joiners, soft hyphens, BOMs), so pasting a
// copied name into the search finds the event.

#include "views/timeline/eventinfo.h"

namespace ps::views {

class TimelineCanvas;

// `text` without zero-width and other invisible formatting characters.
QString withoutInvisible(QString text);

// The details pane's rows as (key, value) pairs; rows without a key of their own are "detail".
QList<std::pair<QString, QString>> detailRows(const EventInfo &info);

// detailRows() as "key\tvalue" lines.
QString eventDetailsText(const EventInfo &info);

// Puts `text` on the system clipboard, invisible characters removed.
void copyToClipboard(const QString &text);

// Ctrl+C on the timeline: copies the name of the event selected on `canvas` (drawn from `scene`)
// and returns what to say ("Copied “gemm”"); "" when nothing is selected.
QString copySelectedEventName(const TimelineScene *scene, const TimelineCanvas &canvas);

} // namespace ps::views
