#include "core/analysis/phases/collectivephases.h"
#include "core/analysis/collectives/collectiveextract.h"

#include "core/analysis/collectives/collectiveinput.h"
#include "core/analysis/collectives/collectivesink.h"
#include "core/analysis/collectives/reportwaits.h"
#include "core/analysis/phases/phasesummary.h"
#include "core/common/canceltoken.h"
#include "core/trace/alignment.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/store/report.h"

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

// A member of a complete instance, as the rows need it.
struct PhaseMember
{
    uint32_t report;
    int rank;
    int64_t startNs, endNs, waitNs; // shared axis
};

// The phase rows, a member at a time: each member goes to the phase occurrence its kernel started
// in, on its report's own clock.
class PhaseRows final : public detail::InstanceSink
{
public:
    PhaseRows(std::span<const int64_t> offsets, std::vector<std::vector<PhaseOccurrence>> phases);
    void instance(const detail::MatchedInstance &inst) override;
    void block(const detail::InstanceBlock &b) override;
    // Of a complete instance: `instanceWaits` is the sum of its members' waits.
    void add(const PhaseMember &m, int lastRank, int64_t transferNs, int64_t instanceWaits);
    std::vector<CollectivePhaseRow> rows();

private:
    bool relocate(uint32_t report, int rank, int64_t own, int64_t offset);
    void tally(const LastPlace &last, int rank, int64_t waitNs, int64_t kernelNs, bool arrivedLast,
               int64_t instanceWaits, int64_t transferNs);
    std::span<const int64_t> m_offsets;
    std::vector<std::vector<PhaseOccurrence>> m_phases;
    std::map<std::pair<int64_t, std::string>, RowAcc> m_rows;
    std::unordered_map<const PhaseOccurrence *, RowAcc *> m_rowOf; // occurrences are many, rows few
    // Per report, the occurrence its last member fell in: the next ones mostly fall there too.
    std::vector<LastPlace> m_lastOf;
};

PhaseRows::PhaseRows(std::span<const int64_t> offsets, std::vector<std::vector<PhaseOccurrence>> phases)
    : m_offsets(offsets), m_phases(std::move(phases)), m_lastOf(m_phases.size())
{
    for (std::vector<PhaseOccurrence> &p : m_phases)
        std::sort(p.begin(), p.end(),
                  [](const PhaseOccurrence &x, const PhaseOccurrence &y) { return x.window.start < y.window.start; });
}

void PhaseRows::instance(const detail::MatchedInstance &inst)
{
    if (!inst.complete())
        return;
    int64_t waits = 0;
    for (const detail::Arrival &a : inst.members)
        waits += inst.waitOf(a);
    for (const detail::Arrival &a : inst.members)
        add({a.report, a.rank, a.o.start, a.o.end, inst.waitOf(a)}, inst.lastRank, inst.transferNs, waits);
}

// A member at a time, its instances in order: they mostly fall in the phase of the one before.
void PhaseRows::block(const detail::InstanceBlock &b)
{
    for (size_t m = 0; m < b.ranks.size(); ++m) {
        const uint32_t report = b.reports[m];
        if (report >= m_phases.size())
            continue;
        const int64_t offset = report < m_offsets.size() ? m_offsets[report] : 0;
        const std::vector<PhaseOccurrence> &occ = m_phases[report];
        const size_t at = b.at(m, 0);
        for (size_t k = 0; k < b.count; ++k) {
            if (!b.handled[k])
                continue;
            const int64_t own = b.start[at + k] - offset;
            if (!m_lastOf[report].holds(occ, own) && !relocate(report, b.ranks[m], own, offset))
                continue;
            tally(m_lastOf[report], b.ranks[m], b.wait[at + k], b.end[at + k] - b.start[at + k], b.lastMember[k] == m,
                  b.waits[k], b.transfer[k]);
        }
    }
}

// Points the report's last place at the occurrence holding `own` (its own clock); false when
// none does.
bool PhaseRows::relocate(uint32_t report, int rank, int64_t own, int64_t offset)
{
    const std::vector<PhaseOccurrence> &occ = m_phases[report];
    const PhaseOccurrence *p = containing(occ, own);
    if (!p)
        return false;
    auto [it, fresh] = m_rowOf.try_emplace(p, nullptr);
    if (fresh) {
        it->second = &m_rows[{p->step, p->phase}];
        it->second->row.step = p->step;
        it->second->row.phase = p->phase;
        it->second->firstStart = std::min(it->second->firstStart, p->window.start + offset);
    }
    CollectiveRankTotals &t = it->second->ranks[rank];
    t.rank = rank;
    m_lastOf[report] = {size_t(p - occ.data()), it->second, &t};
    return true;
}

void PhaseRows::add(const PhaseMember &m, int lastRank, int64_t transferNs, int64_t instanceWaits)
{
    if (m.report >= m_phases.size())
        return;
    const int64_t offset = m.report < m_offsets.size() ? m_offsets[m.report] : 0;
    LastPlace &last = m_lastOf[m.report];
    if (!last.holds(m_phases[m.report], m.startNs - offset) && !relocate(m.report, m.rank, m.startNs - offset, offset))
        return;
    tally(last, m.rank, m.waitNs, m.endNs - m.startNs, m.rank == lastRank, instanceWaits, transferNs);
}

// A member to its phase row and its rank's totals there; the last to arrive counts the instance.
void PhaseRows::tally(const LastPlace &last, int rank, int64_t waitNs, int64_t kernelNs, bool arrivedLast,
                      int64_t instanceWaits, int64_t transferNs)
{
    RowAcc &acc = *last.acc;
    acc.row.waitNs += waitNs;
    detail::addMember(*last.totals, rank, waitNs, kernelNs, arrivedLast, instanceWaits);
    if (arrivedLast) {
        ++acc.row.instances;
        acc.row.transferNs += transferNs;
        ++acc.lastCounts[rank];
    }
}

std::vector<CollectivePhaseRow> PhaseRows::rows()
{
    std::vector<RowAcc *> order;
    for (auto &[key, acc] : m_rows)
        order.push_back(&acc);
    std::sort(order.begin(), order.end(), [](const RowAcc *x, const RowAcc *y) {
        return x->row.step != y->row.step ? x->row.step < y->row.step : x->firstStart < y->firstStart;
    });
    std::vector<CollectivePhaseRow> out;
    for (RowAcc *acc : order)
        out.push_back(finishRow(*acc));
    return out;
}

} // namespace

std::vector<PhaseOccurrence> phaseOccurrencesOf(const trace::Report &report, const PhaseMapping &mapping,
                                                const core::CancelToken *cancel)
{
    if (trace::hasEvents(report)) { // numbered as the phase table numbers them
        bool counted = false;
        std::vector<PhaseOccurrence> occurrences =
            findPhases(*report.store, mapping, report.identity.step, &counted, report.identity.stepIsCaptureIndex);
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

RunCollectives collectivesOfRun(std::span<const trace::ReportPtr> reports, const PhaseOccurrencesOf &occurrencesOf,
                                const core::CancelToken *cancel, const CollectiveQuery &query)
{
    RunMatchOptions options;
    options.query = query;
    return collectivesOfRun(reports, occurrencesOf, options, cancel);
}

RunCollectives collectivesOfRun(std::span<const trace::ReportPtr> reports, const PhaseOccurrencesOf &occurrencesOf,
                                const RunMatchOptions &options, const core::CancelToken *cancel)
{
    RunCollectives out;
    const auto stopped = [cancel] { return cancel && cancel->cancelled(); };
    if (!stopped()) {
        const std::vector<int64_t> offsets = options.offsets.size() == reports.size()
                                                 ? options.offsets
                                                 : trace::alignReports(reports, trace::AlignSpec{}).offsets;
        std::vector<detail::ReportCollectives> extracted = detail::extractAll(reports, cancel);
        // Phases are found only for a run with collectives to put in them.
        const bool any = std::any_of(extracted.begin(), extracted.end(), [](const auto &e) { return e.records > 0; });
        std::vector<std::vector<PhaseOccurrence>> phases(reports.size());
        for (size_t r = 0; any && r < reports.size() && !stopped(); ++r)
            phases[r] = occurrencesOf(r);
        out = detail::matchWithPhases(extracted, offsets, std::move(phases), options.query, cancel, options.waits);
        out.offsets = offsets;
    }
    out.cancelled = stopped();
    return out;
}

RunCollectives detail::matchWithPhases(std::vector<ReportCollectives> &reports, std::span<const int64_t> offsets,
                                       std::vector<std::vector<PhaseOccurrence>> phases, const CollectiveQuery &query,
                                       const core::CancelToken *cancel, bool waits)
{
    RunCollectives out;
    PhaseRows rows(offsets, std::move(phases));
    ReportWaits memberWaits(offsets, reports.size());
    std::vector<InstanceSink *> sinks = {&rows};
    if (waits)
        sinks.push_back(&memberWaits);
    out.analysis = matchCollectives(reports, offsets, query, sinks, cancel);
    out.cancelled = cancel && cancel->cancelled();
    if (!out.cancelled && out.analysis.errors.empty())
        out.phases = rows.rows();
    if (waits)
        out.waits = memberWaits.take();
    return out;
}

} // namespace ps::core::analysis
