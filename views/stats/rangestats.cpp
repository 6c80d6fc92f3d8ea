#include "views/stats/rangestats.h"

namespace ps::views {

using namespace ps::core::trace;
using ps::core::CancelToken;

std::vector<StatRow> summarizeWindow(const TimelineScene &scene, const std::vector<int> &entries, TimeWindow window,
                                     StatsKind kind, const CancelToken *cancel)
{
    // One input per entry (an overlay may show one report several times, each with its offset).
    std::vector<ReportPtr> reports;
    SummarizeOptions opt;
    for (int ei : entries) {
        if (ei < 0 || size_t(ei) >= scene.entries.size() || !scene.entries[size_t(ei)].report)
            continue;
        const TimelineEntry &e = scene.entries[size_t(ei)];
        reports.push_back(e.report->reportPtr());
        opt.offsets.push_back(e.offset);
    }
    opt.window = window;
    opt.perReport = false;
    opt.cancel = cancel;
    StatsResult r = summarize(reports, kind, opt);
    return std::move(r.overall);
}

} // namespace ps::views
