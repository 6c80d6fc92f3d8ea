#include "views/stats/rangestats.h"

#include <type_traits>

namespace ps::views {

using namespace ps::core::trace;

namespace {
// core::trace::SummarizeOptions::cancel still takes a raw `const std::atomic<bool> *` (core/trace
// owns it; it should take a CancelToken like the readers do). A CancelToken is a standard-layout
// class whose first member is that atomic, so the two are pointer-interconvertible.
const std::atomic<bool> *rawFlag(const CancelToken *token)
{
    static_assert(std::is_standard_layout_v<CancelToken> && sizeof(CancelToken) == sizeof(std::atomic<bool>));
    return reinterpret_cast<const std::atomic<bool> *>(token);
}
} // namespace

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
    opt.window = StatsWindow{window.start, window.end};
    opt.perReport = false;
    opt.cancel = rawFlag(cancel);
    StatsResult r = summarize(reports, kind, opt);
    return std::move(r.overall);
}

} // namespace ps::views
