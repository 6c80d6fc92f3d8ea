#include "views/timeline/timeaxisticker.h"

#include "views/scene/timeformat.h"

#include <cmath>

namespace ps::views {

void TimeAxisTicker::generate(const QCPRange &range, const QLocale &, QChar, int, QVector<double> &ticks,
                              QVector<double> *subTicks, QVector<QString> *tickLabels)
{
    const int64_t lo = int64_t(std::floor(range.lower)), hi = int64_t(std::ceil(range.upper));
    const AxisTicks t = computeReadableTicks(lo, hi, m_width, m_charWidth, m_origin);
    ticks.clear();
    if (tickLabels)
        tickLabels->clear();
    for (int64_t v : t.ticks) {
        ticks << double(v);
        if (tickLabels)
            *tickLabels << axisLabel(v, t.step, m_origin);
    }
    if (subTicks) {
        subTicks->clear();
        const int64_t sub = t.step >= 10 ? t.step / 5 : 0; // 1-2-5 steps divide into fifths
        if (sub > 0 && !t.ticks.isEmpty())
            for (int64_t v = t.ticks.front() - t.step; v <= hi; v += sub)
                if (v >= lo && (v - t.ticks.front()) % t.step != 0) // not on a tick
                    *subTicks << double(v);
    }
}

} // namespace ps::views
