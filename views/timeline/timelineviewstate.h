#pragma once
// What the user looks at, apart from how it is drawn (TimelinePainter) and how input changes it
// (TimelineCanvas), as Qt Creator's tracing library keeps its zoom control apart from renderer
// and view: the time <-> pixel mapping of the lanes, the vertical scroll, the selected event
// and the ruler. Every setter emits only when the value really changes, so observers (the
// canvas, the workspace's details and stats) never redo work for a no-op.

#include "views/scene/timemapping.h"

#include "core/trace/store/tracetypes.h"

#include <QObject>

#include <optional>

namespace ps::views {

struct TimelineSelection
{
    int entry = -1;
    core::trace::EventRef ref;
    friend bool operator==(const TimelineSelection &, const TimelineSelection &) = default;
};

class TimelineViewState : public QObject
{
    Q_OBJECT
public:
    explicit TimelineViewState(QObject *parent = nullptr);

    const TimeMapping &mapping() const { return m_mapping; }
    TimeWindow window() const { return m_mapping.window(); }
    // Sets the mapping with its window clamped to `limits`.
    void setMapping(const TimeMapping &m, TimeWindow limits);
    // A new lane width keeps the window (the widget was resized).
    void setWidth(int width);

    int scrollY() const { return m_scrollY; }
    // Clamped to [0, maxY].
    void setScrollY(int y, int maxY);

    const std::optional<TimelineSelection> &selection() const { return m_selection; }
    void select(std::optional<TimelineSelection> s);

    const std::optional<TimeWindow> &ruler() const { return m_ruler; }
    void setRuler(std::optional<TimeWindow> r);

    // The UTC ns of axis 0 when the reports are aligned by wall clock (the axis shows dates);
    // nullopt when the axis is relative (start or range alignment, or a report without a UTC origin).
    const std::optional<int64_t> &wallClockOrigin() const { return m_wallClockOrigin; }
    void setWallClockOrigin(std::optional<int64_t> origin);
    // Fit and the scroll range take in reports whose clocks lie far from the others' too
    // (TimelineScene::farEntries); off by default, so one such report leaves the others readable.
    bool fitIncludesFar() const { return m_fitIncludesFar; }
    void setFitIncludesFar(bool include);

signals:
    void windowChanged(ps::views::TimeWindow window);
    void scrollChanged(int y);
    void selectionChanged();
    void rulerChanged();
    void wallClockOriginChanged();
    void fitIncludesFarChanged();

private:
    TimeMapping m_mapping;
    int m_scrollY = 0;
    std::optional<TimelineSelection> m_selection;
    std::optional<TimeWindow> m_ruler;
    std::optional<int64_t> m_wallClockOrigin;
    bool m_fitIncludesFar = false;
};

} // namespace ps::views
