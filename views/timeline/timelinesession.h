#pragma once
// A timeline session: the open reports, the alignment, per-report offset nudges, collapsed,
// hidden and pinned rows, the label column's width and the view range, saved as a small JSON
// file (*.psession) and restored from it. Writes are atomic (temp file + rename).

#include "views/scene/timemapping.h"
#include "views/timeline/rowlayout.h"

#include <QHash>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace ps::views {

struct TimelineSession
{
    static constexpr int kVersion = 1;

    QStringList reports;                   // absolute report paths
    QString align = QStringLiteral("utc"); // alignSpecText(): "utc", "start", "range:NAME#K"
    QMap<QString, qint64> nudges;          // report path -> ns added on top of the alignment
    QStringList collapsed;                 // row keys ("group:run/ActorGroup", "report:/path")
    QStringList hiddenKinds;               // TrackView: "Memset", "CUDA API"
    QStringList hiddenTracks;              // RowLayout::trackKey
    QStringList pinned;                    // RowLayout::trackKey, in pin order
    QStringList fullDepth;                 // RowLayout::trackKey of deep tracks shown whole
    QHash<QString, QStringList> laneOrder; // report key -> its lanes as dragged (TrackView::order)
    int labelWidth = 0;                    // the label column, px; 0 = the default
    std::optional<TimeWindow> view;        // shared-axis window

    // The rows' part of the session as the canvas holds it, and back (lists sorted, pins in order).
    TrackView trackView() const;
    void setTrackView(const TrackView &view);

    QByteArray toJson() const;
    // Returns nullopt and sets `error` for malformed or future-version files.
    static std::optional<TimelineSession> fromJson(const QByteArray &json, QString &error);

    bool save(const QString &file, QString &error) const;
    static std::optional<TimelineSession> load(const QString &file, QString &error);
};

} // namespace ps::views
