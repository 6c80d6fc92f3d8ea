#include "views/timeline/timelineviewstate.h"

#include <algorithm>

namespace ps::views {

TimelineViewState::TimelineViewState(QObject *parent) : QObject(parent), m_mapping({0, 1000}, 1)
{
}

void TimelineViewState::setMapping(const TimeMapping &m, TimeWindow limits)
{
    const TimeMapping clamped = m.withWindow(clampWindow(m.window(), limits));
    if (clamped == m_mapping)
        return;
    m_mapping = clamped;
    emit windowChanged(m_mapping.window());
}

void TimelineViewState::setWidth(int width)
{
    const TimeMapping resized = m_mapping.withWidth(std::max(1, width));
    if (resized == m_mapping)
        return;
    m_mapping = resized;
    emit windowChanged(m_mapping.window());
}

void TimelineViewState::setScrollY(int y, int maxY)
{
    y = std::clamp(y, 0, std::max(0, maxY));
    if (y == m_scrollY)
        return;
    m_scrollY = y;
    emit scrollChanged(y);
}

void TimelineViewState::select(std::optional<TimelineSelection> s)
{
    if (s == m_selection)
        return;
    m_selection = s;
    emit selectionChanged();
}

void TimelineViewState::setRuler(std::optional<TimeWindow> r)
{
    if (r == m_ruler)
        return;
    m_ruler = r;
    emit rulerChanged();
}

void TimelineViewState::setWallClockOrigin(std::optional<int64_t> origin)
{
    if (origin == m_wallClockOrigin)
        return;
    m_wallClockOrigin = origin;
    emit wallClockOriginChanged();
}

void TimelineViewState::setFitIncludesFar(bool include)
{
    if (include == m_fitIncludesFar)
        return;
    m_fitIncludesFar = include;
    emit fitIncludesFarChanged();
}

} // namespace ps::views
