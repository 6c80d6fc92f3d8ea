#pragma once
// Time <-> pixel mapping of the shared time axis. Times are int64 ns on the shared axis (a
// report's own clock plus its alignment offset). The visible window's start is subtracted in
// integer arithmetic before converting to double, so epoch-sized timestamps keep ns precision.
// Plain value type, no Qt: zoom and pan are pure functions tested on their own.

#include "core/common/timewindow.h"

#include <cstdint>

namespace ps::views {

using TimeWindow = core::TimeWindow; // end > start always holds for windows made by TimeMapping

class TimeMapping
{
public:
    // The narrowest window a zoom may reach; below it ns rounding makes boxes jump.
    static constexpr int64_t kMinDuration = 100;

    TimeMapping() = default;
    // `width` is the pixel width of the area that shows [window.start, window.end).
    TimeMapping(TimeWindow window, double width);

    const TimeWindow &window() const { return m_window; }
    double width() const { return m_width; }
    // Pixels per nanosecond.
    double scale() const { return m_scale; }

    // x of a shared time; not clamped (values outside [0, width] are valid).
    double x(int64_t t) const { return double(t - m_window.start) * m_scale; }
    // x of a report-clock time under an alignment offset (shared = own + offset).
    double x(int64_t own, int64_t offset) const { return double(own + offset - m_window.start) * m_scale; }
    // Shared time at pixel x, rounded to the nearest ns.
    int64_t time(double x) const;
    // Duration covered by `px` pixels.
    int64_t span(double px) const;

    // Zoom by `factor` (> 1 zooms in) keeping the time under pixel `x` fixed.
    TimeMapping zoomed(double factor, double x) const;
    // Shift the window by `px` pixels (positive moves the view to later times).
    TimeMapping panned(double px) const;
    // Same width, another window; windows shorter than kMinDuration are widened about their centre.
    TimeMapping withWindow(TimeWindow window) const { return TimeMapping(window, m_width); }
    TimeMapping withWidth(double width) const { return TimeMapping(m_window, width); }

    friend bool operator==(const TimeMapping &a, const TimeMapping &b)
    {
        return a.m_window == b.m_window && a.m_width == b.m_width;
    }

private:
    TimeWindow m_window{0, 1};
    double m_width = 1;
    double m_scale = 1;
};

// A window at least kMinDuration long with the same centre as `w`, inside `limits` where possible
// (a window wider than the limits is kept, centred on them).
TimeWindow clampWindow(TimeWindow w, TimeWindow limits);

} // namespace ps::views
