#include "views/timeline/rulerlabel.h"

#include "views/scene/timeformat.h"

namespace ps::views {

QString rulerLabel(int64_t start, int64_t end, std::optional<int64_t> wallClockOrigin)
{
    // The ends' precision: the power of ten at or below a hundredth of the duration (>= 1 ns).
    int64_t step = 1;
    while (step <= (end - start) / 1000)
        step *= 10;
    return QStringLiteral("%1: %2 → %3")
        .arg(formatDuration(end - start), axisLabel(start, step, wallClockOrigin),
             axisLabel(end, step, wallClockOrigin));
}

} // namespace ps::views
