#include "views/scene/timemapping.h"

#include <algorithm>
#include <cmath>

namespace ps::views {

namespace {
TimeWindow atLeastMin(TimeWindow w)
{
    if (w.end - w.start >= TimeMapping::kMinDuration)
        return w;
    const int64_t mid = w.start + (w.end - w.start) / 2;
    return {mid - TimeMapping::kMinDuration / 2, mid - TimeMapping::kMinDuration / 2 + TimeMapping::kMinDuration};
}
} // namespace

TimeMapping::TimeMapping(TimeWindow window, double width) : m_window(atLeastMin(window)), m_width(std::max(1.0, width))
{
    m_scale = m_width / double(m_window.duration());
}

int64_t TimeMapping::time(double x) const
{
    return m_window.start + int64_t(std::llround(x / m_scale));
}

int64_t TimeMapping::span(double px) const
{
    return int64_t(std::llround(px / m_scale));
}

TimeMapping TimeMapping::zoomed(double factor, double x) const
{
    if (!(factor > 0))
        return *this;
    const int64_t pivot = time(x);
    const double newDuration = std::max(double(kMinDuration), double(m_window.duration()) / factor);
    // Keep `pivot` under `x`: the new start lies x/width of the new duration before the pivot.
    const int64_t start = pivot - int64_t(std::llround(newDuration * (x / m_width)));
    return TimeMapping({start, start + int64_t(std::llround(newDuration))}, m_width);
}

TimeMapping TimeMapping::panned(double px) const
{
    const int64_t d = span(px);
    return TimeMapping({m_window.start + d, m_window.end + d}, m_width);
}

TimeWindow clampWindow(TimeWindow w, TimeWindow limits)
{
    w = atLeastMin(w);
    const int64_t d = w.duration();
    if (d >= limits.duration()) {
        const int64_t mid = limits.start + limits.duration() / 2;
        return {mid - d / 2, mid - d / 2 + d};
    }
    if (w.start < limits.start)
        return {limits.start, limits.start + d};
    if (w.end > limits.end)
        return {limits.end - d, limits.end};
    return w;
}

} // namespace ps::views
