#include "core/analysis/collectivephases.h"

#include "core/analysis/collectiveinput.h"
#include "core/analysis/phases.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ps::core::analysis {

namespace {

// The occurrence holding `t` (own clock): the latest-starting one that contains it. Phase
// occurrences are outermost ranges (findPhases), so only the last two starting before `t` can.
const PhaseOccurrence *containing(const std::vector<PhaseOccurrence> &occ, int64_t t)
{
    auto it = std::upper_bound(occ.begin(), occ.end(), t,
                               [](int64_t v, const PhaseOccurrence &o) { return v < o.window.start; });
    for (int tries = 0; tries < 2 && it != occ.begin(); ++tries) {
        --it;
        if (it->window.end >= t)
            return &*it;
    }
    return nullptr;
}

} // namespace

std::vector<CollectivePhaseRow> collectivesByPhase(std::span<const trace::ReportPtr> reports,
                                                   std::span<const int64_t> offsets, const CollectiveAnalysis &a,
                                                   const PhaseMapping &mapping)
{
    std::vector<std::vector<PhaseOccurrence>> phases(reports.size());
    for (size_t r = 0; r < reports.size(); ++r) {
        phases[r] = findPhases(*reports[r]->store, mapping, reports[r]->identity.step);
        std::sort(phases[r].begin(), phases[r].end(),
                  [](const PhaseOccurrence &x, const PhaseOccurrence &y) { return x.window.start < y.window.start; });
    }
    std::map<std::pair<int64_t, std::string>, CollectivePhaseRow> rows;
    std::map<std::pair<int64_t, std::string>, std::map<int, CollectiveRankTotals>> ranks;
    std::map<std::pair<int64_t, std::string>, std::map<int, size_t>> lastCounts;
    std::map<std::pair<int64_t, std::string>, int64_t> firstStart;
    for (const CollectiveInstance &inst : a.instances) {
        if (!inst.complete)
            continue;
        for (const CollectiveMember &m : inst.members) {
            const int64_t offset = m.report < offsets.size() ? offsets[m.report] : 0;
            const PhaseOccurrence *p = containing(phases[m.report], m.startNs - offset);
            if (!p)
                continue;
            const auto key = std::pair{p->step, p->phase};
            auto fs = firstStart.try_emplace(key, p->window.start + offset).first;
            fs->second = std::min(fs->second, p->window.start + offset);
            CollectivePhaseRow &row = rows[key];
            row.step = p->step;
            row.phase = p->phase;
            row.waitNs += m.waitNs;
            detail::addToTotals(ranks[key][m.rank], m, inst);
            if (m.rank == inst.lastRank) {
                ++row.instances;
                row.transferNs += inst.transferNs;
                ++lastCounts[key][m.rank];
            }
        }
    }
    std::vector<std::pair<int64_t, std::pair<int64_t, std::string>>> order;
    for (auto &[key, row] : rows) {
        for (auto &[rank, t] : ranks[key])
            row.ranks.push_back(t);
        std::tie(row.lastRank, row.timesLast) = detail::mostOftenLast(lastCounts[key]);
        for (const CollectiveRankTotals &t : row.ranks)
            if (t.waitCausedNs > row.lagNs) {
                row.lagNs = t.waitCausedNs;
                row.straggler = t.rank;
            }
        order.push_back({firstStart[key], key});
    }
    std::sort(order.begin(), order.end(), [](const auto &x, const auto &y) {
        return x.second.first != y.second.first ? x.second.first < y.second.first : x.first < y.first;
    });
    std::vector<CollectivePhaseRow> out;
    for (const auto &[start, key] : order)
        out.push_back(std::move(rows[key]));
    return out;
}

} // namespace ps::core::analysis
