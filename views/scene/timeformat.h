#pragma once
// Human-readable times for the axis, the ruler, tooltips and tables: adaptive ns / µs / ms / s
// units, wall-clock dates for an axis in UTC, and the 1-2-5 tick steps of the time axis. Times
// are int64 ns.

#include <QString>
#include <QVector>

#include <cstdint>
#include <optional>

namespace ps::views {

// A duration with three significant digits in the largest unit that keeps it >= 1:
// 950 -> "950 ns", 1500 -> "1.50 µs", 2345678 -> "2.35 ms", 61e9 -> "61.0 s"; hours ("1.50 h") and
// days ("-19476 d") from an hour on.
QString formatDuration(int64_t ns);
// A point on the axis, relative to the aligned origin, with enough decimals in `stepNs`'s unit
// to tell ticks `stepNs` apart: (1500000, 500000) -> "1.5 ms", (-2000, 1000) -> "-2 µs".
QString formatAxisTime(int64_t ns, int64_t stepNs);

// The smallest 1-2-5 x 10^k ns step whose ticks are at least `minSpacingPx` apart.
int64_t tickStep(int64_t durationNs, double widthPx, double minSpacingPx);

struct AxisTicks
{
    int64_t step = 1;
    QVector<int64_t> ticks; // multiples of step inside [start, end]
};
AxisTicks computeTicks(int64_t start, int64_t end, double widthPx, double minSpacingPx = 90);
// computeTicks with the spacing widened until the labels fit between ticks ("1736410576.38 s" of
// an axis in UTC needs more room than "20 ms"). The axis and the canvas's grid both use it, so
// grid lines stay under the labelled ticks.
//
// With `wallClockOrigin` (the UTC ns of axis 0: the axis is in UTC), ticks fall on round
// wall-clock times and are labelled as dates (axisLabel).
AxisTicks computeReadableTicks(int64_t start, int64_t end, double widthPx, double charWidthPx,
                               std::optional<int64_t> wallClockOrigin = std::nullopt);

// UTC ns since the epoch as "2025-01-09 08:16:16.380 UTC", with the decimals `stepNs` needs
// (none for whole seconds, then 3, 6 or 9).
QString formatWallClock(int64_t utcNs, int64_t stepNs);
// A tick's label: formatWallClock(origin + t) on a UTC axis, else formatAxisTime(t).
QString axisLabel(int64_t t, int64_t stepNs, std::optional<int64_t> wallClockOrigin);

} // namespace ps::views
