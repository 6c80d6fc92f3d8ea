#include "core/analysis/collectivephases.h"

#include "core/analysis/collectiveinput.h"
#include "core/analysis/phasesummary.h"
#include "core/trace/alignment.h"
#include "core/trace/reportsource.h"
#include "core/trace/tracereader.h"

#include <algorithm>
#include <climits>
#include <map>
#include <tuple>
#include <unordered_map>

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

struct RowAcc
{
    CollectivePhaseRow row;
    std::map<int, CollectiveRankTotals> ranks;
    std::map<int, size_t> lastCounts;
    int64_t firstStart = INT64_MAX; // shared axis, for ordering rows of a step
};

// Where a report's last member went: its phase occurrence (an index into the report's, sorted),
// the row and the rank's totals in it.
struct LastPlace
{
    size_t occurrence = SIZE_MAX;
    RowAcc *acc = nullptr;
    CollectiveRankTotals *totals = nullptr;

    // Whether containing(occ, t) is that occurrence: t in its window, before the next one starts.
    bool holds(const std::vector<PhaseOccurrence> &occ, int64_t t) const
    {
        if (occurrence >= occ.size())
            return false;
        const PhaseOccurrence &o = occ[occurrence];
        return o.window.start <= t && t <= o.window.end &&
               (occurrence + 1 == occ.size() || t < occ[occurrence + 1].window.start);
    }
};

// The row's ranks, its most-often-last rank, and its straggler: the rank whose arrivals made
// the others wait longest.
CollectivePhaseRow finishRow(RowAcc &acc)
{
    CollectivePhaseRow row = std::move(acc.row);
    for (auto &[rank, t] : acc.ranks)
        row.ranks.push_back(t);
    std::tie(row.lastRank, row.timesLast) = detail::mostOftenLast(acc.lastCounts);
    for (const CollectiveRankTotals &t : row.ranks)
        if (t.waitCausedNs > row.lagNs) {
            row.lagNs = t.waitCausedNs;
            row.straggler = t.rank;
        }
    return row;
}

} // namespace

std::vector<PhaseOccurrence> phaseOccurrencesOf(const trace::Report &report, const PhaseMapping &mapping,
                                                const trace::CancelToken *cancel)
{
    if (trace::hasEvents(report)) { // numbered as the phase table numbers them
        bool counted = false;
        std::vector<PhaseOccurrence> occurrences = findPhases(*report.store, mapping, report.identity.step, &counted);
        numberCountedSteps(occurrences, counted, report.path);
        return occurrences;
    }
    if (mapping.rules() != PhaseMapping::defaults().rules())
        return {};
    std::string error; // a digest without a sound summary: no phases to put its collectives in
    const auto cells = trace::summaryOf(report, kPhaseCells, error, cancel);
    return cells ? phaseOccurrencesOf(*cells) : std::vector<PhaseOccurrence>{};
}

std::vector<PhaseOccurrence> phaseOccurrencesOf(const ReportPhaseCells &cells)
{
    if (!cells.occurrences.empty())
        return cells.occurrences;
    std::vector<PhaseOccurrence> out;
    for (const auto &[key, cell] : cells.cells)
        if (cell.present)
            out.push_back({key.second, key.first, {cell.startNs, cell.startNs + cell.wallNs}, {}});
    return out;
}

std::vector<CollectivePhaseRow> collectivesByPhase(std::span<const int64_t> offsets, const CollectiveAnalysis &a,
                                                   std::vector<std::vector<PhaseOccurrence>> phases)
{
    for (std::vector<PhaseOccurrence> &p : phases)
        std::sort(p.begin(), p.end(),
                  [](const PhaseOccurrence &x, const PhaseOccurrence &y) { return x.window.start < y.window.start; });
    std::map<std::pair<int64_t, std::string>, RowAcc> rows;
    std::unordered_map<const PhaseOccurrence *, RowAcc *> rowOf; // occurrences are many, rows few
    // Per report, the occurrence its last member fell in: the next ones mostly fall there too.
    std::vector<LastPlace> lastOf(phases.size());
    for (const CollectiveInstance &inst : a.instances) {
        if (!inst.complete)
            continue;
        for (const CollectiveMember &m : inst.members) {
            if (m.report >= phases.size())
                continue;
            const int64_t offset = m.report < offsets.size() ? offsets[m.report] : 0;
            const std::vector<PhaseOccurrence> &occ = phases[m.report];
            LastPlace &last = lastOf[m.report];
            if (!last.holds(occ, m.startNs - offset)) {
                const PhaseOccurrence *p = containing(occ, m.startNs - offset);
                if (!p)
                    continue;
                auto [it, fresh] = rowOf.try_emplace(p, nullptr);
                if (fresh) {
                    it->second = &rows[{p->step, p->phase}];
                    it->second->row.step = p->step;
                    it->second->row.phase = p->phase;
                    it->second->firstStart = std::min(it->second->firstStart, p->window.start + offset);
                }
                last = {size_t(p - occ.data()), it->second, &it->second->ranks[m.rank]};
            }
            RowAcc &acc = *last.acc;
            acc.row.waitNs += m.waitNs;
            detail::addToTotals(*last.totals, m, inst);
            if (m.rank == inst.lastRank) {
                ++acc.row.instances;
                acc.row.transferNs += inst.transferNs;
                ++acc.lastCounts[m.rank];
            }
        }
    }
    std::vector<RowAcc *> order;
    for (auto &[key, acc] : rows)
        order.push_back(&acc);
    std::sort(order.begin(), order.end(), [](const RowAcc *x, const RowAcc *y) {
        return x->row.step != y->row.step ? x->row.step < y->row.step : x->firstStart < y->firstStart;
    });
    std::vector<CollectivePhaseRow> out;
    for (RowAcc *acc : order)
        out.push_back(finishRow(*acc));
    return out;
}

RunCollectives collectivesOfRun(std::span<const trace::ReportPtr> reports,
                                const std::function<std::vector<PhaseOccurrence>(size_t)> &occurrencesOf,
                                const trace::CancelToken *cancel)
{
    RunCollectives out;
    const auto stopped = [cancel] { return cancel && cancel->cancelled(); };
    if (!stopped()) {
        const trace::AlignResult aligned = trace::alignReports(reports, trace::AlignSpec{});
        out.analysis = analyzeCollectives(reports, aligned.offsets, cancel);
        if (!stopped() && out.analysis.errors.empty() && !out.analysis.instances.empty()) {
            std::vector<std::vector<PhaseOccurrence>> phases(reports.size());
            for (size_t r = 0; r < reports.size() && !stopped(); ++r)
                phases[r] = occurrencesOf(r);
            out.phases = collectivesByPhase(aligned.offsets, out.analysis, std::move(phases));
        }
    }
    out.cancelled = stopped();
    return out;
}

} // namespace ps::core::analysis
