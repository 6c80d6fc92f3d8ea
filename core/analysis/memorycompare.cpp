#include "core/analysis/memorycompare.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ps::core::analysis {

std::optional<double> MemoryPeakDelta::deltaPct() const
{
    if (!baselineBytes || !candidateBytes || *baselineBytes == 0)
        return std::nullopt;
    return 100.0 * double(*candidateBytes - *baselineBytes) / double(*baselineBytes);
}

std::vector<MemoryPeakDelta> compareMemoryPeaks(const RunMatch &match, const std::vector<trace::ReportPtr> &baseline,
                                                const std::vector<trace::ReportPtr> &candidate)
{
    std::map<std::tuple<std::string, uint32_t, std::string>, MemoryPeakDelta> peaks;
    const auto add = [&](const std::string &key, const trace::Report &r, bool isBaseline) {
        for (const trace::MemorySeries &s : r.meta.memory) {
            if (s.empty())
                continue;
            MemoryPeakDelta &d = peaks[{key, s.device, s.source}];
            d.key = key;
            d.device = s.device;
            d.source = s.source;
            std::optional<int64_t> &side = isBaseline ? d.baselineBytes : d.candidateBytes;
            side = std::max(side.value_or(INT64_MIN), s.peakBytes());
        }
    };
    for (const auto &[b, c] : match.pairs) {
        const std::string key = matchKey(*baseline[b]);
        add(key, *baseline[b], true);
        add(key, *candidate[c], false);
    }
    std::vector<MemoryPeakDelta> out;
    for (auto &[k, d] : peaks)
        out.push_back(std::move(d));
    return out;
}

} // namespace ps::core::analysis
