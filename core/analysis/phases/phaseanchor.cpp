#include "core/analysis/phases/phaseanchor.h"

#include "core/analysis/phases/collectivephases.h"
#include "core/trace/rangeoccurrences.h"

#include <algorithm>

namespace ps::core::analysis {

trace::AnchorFinder rangeOrPhaseAnchor(PhaseMapping mapping)
{
    return
        [mapping = std::move(mapping)](const trace::Report &report,
                                       const trace::RangeAnchor &anchor) -> std::optional<std::pair<int64_t, int64_t>> {
            if (const auto range = trace::rangeOccurrenceOf(report, anchor.name, anchor.occurrence))
                return range;
            std::vector<TimeWindow> windows;
            for (const PhaseOccurrence &o : phaseOccurrencesOf(report, mapping))
                if (o.phase == anchor.name)
                    windows.push_back(o.window);
            std::sort(windows.begin(), windows.end(),
                      [](const TimeWindow &a, const TimeWindow &b) { return a.start < b.start; });
            if (anchor.occurrence < 1 || windows.size() < size_t(anchor.occurrence))
                return std::nullopt;
            const TimeWindow &w = windows[size_t(anchor.occurrence - 1)];
            return std::pair{w.start, w.end};
        };
}

} // namespace ps::core::analysis
