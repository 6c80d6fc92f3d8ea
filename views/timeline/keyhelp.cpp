#include "views/timeline/keyhelp.h"

namespace ps::views {

QList<KeyHelp> timelineKeyHelp()
{
    return {
        {QStringLiteral("Ctrl+Wheel"), QStringLiteral("Zoom about the pointer")},
        {QStringLiteral("Wheel, ↑ / ↓, PgUp / PgDn"), QStringLiteral("Scroll the rows")},
        {QStringLiteral("Shift+Wheel, A / D, ← / →"), QStringLiteral("Pan earlier / later")},
        {QStringLiteral("W / S, + / −"), QStringLiteral("Zoom in / out (about the pointer)")},
        {QStringLiteral("Home / End"), QStringLiteral("Go to the start / end, zoom kept")},
        {QStringLiteral("F"), QStringLiteral("Zoom to the selection, the ruler, or everything")},
        {QStringLiteral("Drag"), QStringLiteral("Pan")},
        {QStringLiteral("Shift+Drag"), QStringLiteral("Measure with the ruler")},
        {QStringLiteral("Click / Double-click"), QStringLiteral("Select an event / zoom to it")},
        {QStringLiteral("Click a header"),
         QStringLiteral("Collapse or expand it (a collapsed report is a density row)")},
        {QStringLiteral("Click a deep track's label"), QStringLiteral("Show or fold its levels past 8")},
        {QStringLiteral("Right-click a track"),
         QStringLiteral("Hide it or its kind, pin it to the top, collapse reports")},
        {QStringLiteral("Drag the label column's edge"), QStringLiteral("Resize the label column")},
        {QStringLiteral("Esc"), QStringLiteral("Clear the selection and the ruler; cancel loading")},
        {QStringLiteral("Ctrl+F, Enter, Shift+Enter"), QStringLiteral("Search names; next / previous match")},
        {QStringLiteral("Ctrl+G"), QStringLiteral("Go to a rank by group:rank, rank number, pid or host")},
        {QStringLiteral("Ctrl+Shift+D"), QStringLiteral("Fold the event details into a strip, or unfold them")},
        {QStringLiteral("Click the cluster overview"),
         QStringLiteral("Open that rank at that time (a run of more than 32 reports shows it on top)")},
    };
}

} // namespace ps::views
