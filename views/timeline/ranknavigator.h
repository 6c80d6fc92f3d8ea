#pragma once
// Takes the timeline to one rank's report, wherever it is asked from (the cluster overview, Go to
// Rank, a phase-table cell): the report's header is expanded and scrolled to, the window centred
// on a time when one is given, and an event selected when one is given. A digest opened as an
// outline has no events to select, so its events are paged in first (ReportPager::requestNow)
// and the jump completes when the scene holds them (sceneChanged); the outline is scrolled to at
// once meanwhile.

#include "core/trace/store/tracetypes.h"

#include <QObject>
#include <QString>

#include <optional>

namespace ps::views {

class TimelineCanvas;

class RankNavigator : public QObject
{
    Q_OBJECT
public:
    explicit RankNavigator(TimelineCanvas *canvas);

    // `entry` indexes the canvas's scene. `sharedNs`: centre the window there (zoom kept).
    // `event`: select it (a range of the report; paged in first for an outline).
    void goTo(int entry, std::optional<int64_t> sharedNs = std::nullopt,
              std::optional<core::trace::EventRef> event = std::nullopt);
    // A jump is waiting for a report's events (tests).
    bool isPending() const { return m_pending.has_value(); }
    // The canvas shows a new scene: a paged report may have taken its outline's place, which
    // completes the pending jump.
    void sceneChanged();

signals:
    // The jump ended: the report's header is on screen (and the event selected, if one was asked).
    void arrived(int entry);

private:
    struct Pending
    {
        std::string path;
        std::optional<int64_t> sharedNs;
        std::optional<core::trace::EventRef> event;
    };
    void show(int entry, const std::optional<int64_t> &sharedNs, const std::optional<core::trace::EventRef> &event);

    TimelineCanvas *m_canvas;
    std::optional<Pending> m_pending;
};

} // namespace ps::views
