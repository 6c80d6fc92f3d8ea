#include "views/timeline/farclocks.h"

#include "views/scene/timeformat.h"

#include <algorithm>

namespace ps::views {

namespace {
// "639.2 days", "3.20 h": how far a far-clock report reaches.
QString spanText(int64_t ns)
{
    constexpr double kHour = 3.6e12;
    return double(ns) >= 48 * kHour ? QStringLiteral("%1 days").arg(double(ns) / (24 * kHour), 0, 'f', 1)
                                    : formatDuration(ns);
}
} // namespace

QStringList farClockLines(const TimelineScene &s)
{
    if (s.farEntries.empty() || s.farIncluded)
        return {};
    const auto isFar = [&s](size_t i) {
        return std::find(s.farEntries.begin(), s.farEntries.end(), int(i)) != s.farEntries.end();
    };
    int64_t othersSpan = 0;
    for (size_t i = 0; i < s.entries.size(); ++i)
        if (const PreparedReport &r = *s.entries[i].report; !isFar(i) && r.eventCount() > 0)
            othersSpan = std::max(othersSpan, r.lastEnd() - r.firstStart());
    QStringList lines;
    for (int i : s.farEntries) {
        const PreparedReport &r = *s.entries[size_t(i)].report;
        lines << QStringLiteral("%1: its events span %2, the others' %3 at most: its tables' clocks disagree, or "
                                "it was placed at another time. Session \u25B8 Fit Far-Clock Reports Too takes it "
                                "in; its right-click menu closes it.")
                     .arg(QString::fromStdString(r.report().path), spanText(r.lastEnd() - r.firstStart()),
                          spanText(othersSpan));
    }
    return lines;
}

} // namespace ps::views
