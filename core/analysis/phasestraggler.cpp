#include "core/analysis/phasestraggler.h"

#include "core/trace/alignment.h"
#include "core/trace/reportsource.h"

#include <algorithm>

namespace ps::core::analysis {

namespace {

// A cell's wait inside the phase's collectives, 0 when it has none.
int64_t waitOf(size_t column, const CollectivePhaseRow *byArrival, const std::map<int, size_t> &columnOfRank)
{
    if (!byArrival)
        return 0;
    for (const CollectiveRankTotals &t : byArrival->ranks) {
        auto it = columnOfRank.find(t.rank);
        if (it != columnOfRank.end() && it->second == column)
            return t.waitNs;
    }
    return 0;
}

void chooseByWorkTime(PhaseRow &row, const CollectivePhaseRow *byArrival, const std::map<int, size_t> &columnOfRank)
{
    std::vector<int64_t> work;
    int best = -1;
    int64_t bestWork = 0;
    bool tie = false;
    for (size_t c = 0; c < row.cells.size(); ++c) {
        if (!row.cells[c].present)
            continue;
        const int64_t w = row.cells[c].wallNs - waitOf(c, byArrival, columnOfRank);
        work.push_back(w);
        if (best < 0 || w > bestWork) {
            best = int(c);
            bestWork = w;
            tie = false;
        } else if (w == bestWork) {
            tie = true;
        }
    }
    if (best < 0 || tie || work.size() < 2)
        return;
    std::sort(work.begin(), work.end());
    const size_t n = work.size();
    const int64_t median = n % 2 ? work[n / 2] : (work[n / 2 - 1] + work[n / 2]) / 2;
    row.straggler = best;
    row.lagNs = bestWork - median;
}

// Each report's phase occurrences: from its events, or, for a digest opened without them, from
// the table's cells (one window per cell: its first start and summed wall time).
std::vector<std::vector<PhaseOccurrence>>
occurrencesOf(const PhaseTable &table, std::span<const trace::ReportPtr> reports, const PhaseMapping &mapping)
{
    std::vector<std::vector<PhaseOccurrence>> out(reports.size());
    for (size_t c = 0; c < table.columns.size(); ++c) {
        const size_t r = table.columns[c].report;
        if (r >= reports.size())
            continue;
        if (trace::hasEvents(*reports[r])) {
            out[r] = findPhases(*reports[r]->store, mapping, reports[r]->identity.step);
            continue;
        }
        for (const PhaseRow &row : table.rows)
            if (row.cells[c].present)
                out[r].push_back(
                    {row.phase, row.step, {row.cells[c].startNs, row.cells[c].startNs + row.cells[c].wallNs}, {}});
    }
    return out;
}

} // namespace

void chooseStraggler(PhaseRow &row, const CollectivePhaseRow *byArrival, const std::map<int, size_t> &columnOfRank)
{
    row.straggler = -1;
    row.lagNs = 0;
    row.byArrival = false;
    if (byArrival && byArrival->instances > 0) {
        auto it = columnOfRank.find(byArrival->straggler);
        if (byArrival->straggler >= 0 && it != columnOfRank.end() && row.cells[it->second].present) {
            row.straggler = int(it->second);
            // Per waiting rank, as the work-time lag is: the phase's collectives hold every other
            // rank back by this much on average, which is what a lag % of one rank's wall means.
            const auto present =
                std::count_if(row.cells.begin(), row.cells.end(), [](const PhaseCell &c) { return c.present; });
            row.lagNs = byArrival->lagNs / std::max<int64_t>(1, present - 1);
            row.byArrival = true;
            return;
        }
        if (byArrival->lagNs == 0 && byArrival->waitNs == 0)
            return; // collectives where nobody waited: no late rank
    }
    chooseByWorkTime(row, byArrival, columnOfRank);
}

void nameStragglers(PhaseTable &table, std::span<const trace::ReportPtr> reports, const PhaseMapping &mapping)
{
    std::vector<CollectivePhaseRow> byPhase;
    std::map<int, size_t> columnOfRank;
    const trace::AlignResult aligned = trace::alignReports(reports, trace::AlignSpec{});
    const CollectiveAnalysis a = analyzeCollectives(reports, aligned.offsets);
    if (a.errors.empty() && !a.instances.empty()) {
        byPhase = collectivesByPhase(aligned.offsets, a, occurrencesOf(table, reports, mapping));
        std::map<size_t, size_t> columnOfReport;
        for (size_t c = 0; c < table.columns.size(); ++c)
            columnOfReport[table.columns[c].report] = c;
        for (const CollectiveInstance &inst : a.instances)
            for (const CollectiveMember &m : inst.members)
                if (auto it = columnOfReport.find(m.report); it != columnOfReport.end())
                    columnOfRank.emplace(m.rank, it->second);
    }
    std::map<std::pair<int64_t, std::string>, const CollectivePhaseRow *> rowOf;
    for (const CollectivePhaseRow &r : byPhase)
        rowOf[{r.step, r.phase}] = &r;
    for (PhaseRow &row : table.rows) {
        auto it = rowOf.find({row.step, row.phase});
        chooseStraggler(row, it == rowOf.end() ? nullptr : it->second, columnOfRank);
    }
}

} // namespace ps::core::analysis
