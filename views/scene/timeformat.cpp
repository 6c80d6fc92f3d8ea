#include "views/scene/timeformat.h"

#include <QDateTime>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace ps::views {

namespace {
struct Unit
{
    int64_t ns;
    const char *suffix;
};
constexpr Unit kUnits[] = {{1'000'000'000, "s"}, {1'000'000, "ms"}, {1'000, "µs"}, {1, "ns"}};

const Unit &unitFor(int64_t magnitude)
{
    for (const Unit &u : kUnits)
        if (magnitude >= u.ns)
            return u;
    return kUnits[3];
}
} // namespace

QString formatDuration(int64_t ns)
{
    const int64_t mag = ns < 0 ? -ns : ns;
    // Hours and days for what only offsets between runs reach: "-19476 d", not "-1682725897 s".
    constexpr Unit kLong[] = {{86'400'000'000'000, "d"}, {3'600'000'000'000, "h"}};
    const Unit &u = mag >= kLong[0].ns ? kLong[0] : mag >= kLong[1].ns ? kLong[1] : unitFor(mag);
    if (u.ns == 1)
        return QString::number(ns) + QStringLiteral(" ns");
    const double v = double(ns) / double(u.ns);
    const double a = std::fabs(v);
    const int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2; // three significant digits
    return QString::number(v, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(u.suffix);
}

namespace {
int floorLog10(int64_t v)
{
    int n = 0;
    while (v >= 10) {
        v /= 10;
        ++n;
    }
    return n;
}
} // namespace

QString formatAxisTime(int64_t ns, int64_t stepNs)
{
    if (stepNs <= 0)
        stepNs = 1;
    if (ns == 0)
        return QStringLiteral("0");
    const int64_t mag = ns < 0 ? -ns : ns;
    const Unit &u = unitFor(std::max(mag, stepNs));
    const int unitDigits = floorLog10(u.ns);
    const int decimals = std::max(0, unitDigits - floorLog10(stepNs));
    // Integer arithmetic keeps large values exact: whole units, then the fraction's digits.
    QString s = (ns < 0 ? QStringLiteral("-") : QString()) + QString::number(mag / u.ns);
    if (decimals > 0) {
        QString digits = QString::number(mag % u.ns).rightJustified(unitDigits, QLatin1Char('0'));
        digits.truncate(decimals);
        while (digits.endsWith(QLatin1Char('0')))
            digits.chop(1);
        if (!digits.isEmpty())
            s += QLatin1Char('.') + digits;
    }
    return s + QLatin1Char(' ') + QString::fromUtf8(u.suffix);
}

int64_t tickStep(int64_t durationNs, double widthPx, double minSpacingPx)
{
    if (durationNs <= 0 || widthPx <= 0)
        return 1;
    const double minStep = double(durationNs) * minSpacingPx / widthPx;
    int64_t base = 1;
    while (true) {
        for (int m : {1, 2, 5}) {
            const int64_t step = base * m;
            if (double(step) >= minStep)
                return step;
        }
        if (base > (int64_t(1) << 58))
            return base;
        base *= 10;
    }
}

AxisTicks computeTicks(int64_t start, int64_t end, double widthPx, double minSpacingPx)
{
    AxisTicks t;
    t.step = tickStep(end - start, widthPx, minSpacingPx);
    // First multiple of step at or after start (floor division for negatives).
    int64_t q = start / t.step;
    if (q * t.step < start)
        ++q;
    for (int64_t v = q * t.step; v <= end && t.ticks.size() < 1000; v += t.step)
        t.ticks.append(v);
    return t;
}

QString formatWallClock(int64_t utcNs, int64_t stepNs)
{
    constexpr int64_t kSecond = 1'000'000'000;
    const int64_t seconds = utcNs >= 0 ? utcNs / kSecond : -((-utcNs + kSecond - 1) / kSecond);
    const int64_t frac = utcNs - seconds * kSecond; // 0 .. 1e9 - 1
    const int decimals = stepNs >= kSecond ? 0 : stepNs >= 1'000'000 ? 3 : stepNs >= 1000 ? 6 : 9;
    QString text =
        QDateTime::fromSecsSinceEpoch(seconds, QTimeZone::utc()).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    if (decimals > 0)
        text += QLatin1Char('.') + QStringLiteral("%1").arg(frac, 9, 10, QLatin1Char('0')).left(decimals);
    return text + QStringLiteral(" UTC");
}

QString axisLabel(int64_t t, int64_t stepNs, std::optional<int64_t> wallClockOrigin)
{
    return wallClockOrigin ? formatWallClock(*wallClockOrigin + t, stepNs) : formatAxisTime(t, stepNs);
}

AxisTicks computeReadableTicks(int64_t start, int64_t end, double widthPx, double charWidthPx,
                               std::optional<int64_t> wallClockOrigin)
{
    // On a UTC axis the ticks are computed in wall-clock time, so they fall on round times.
    const int64_t shift = wallClockOrigin.value_or(0);
    double spacing = 90;
    AxisTicks t = computeTicks(start + shift, end + shift, widthPx, spacing);
    for (int i = 0; i < 4; ++i) { // a wider step gives labels no longer, so this settles at once
        const qsizetype chars =
            std::max(axisLabel(start, t.step, wallClockOrigin).size(), axisLabel(end, t.step, wallClockOrigin).size());
        const double needed = charWidthPx * double(chars) + 24;
        if (needed <= spacing)
            break;
        spacing = needed;
        t = computeTicks(start + shift, end + shift, widthPx, spacing);
    }
    for (int64_t &tick : t.ticks)
        tick -= shift;
    return t;
}

} // namespace ps::views
