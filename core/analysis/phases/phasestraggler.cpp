#include "core/analysis/phases/phasestraggler.h"

#include "core/analysis/phases/osrtwait.h"
#include "core/common/canceltoken.h"
#include "core/common/median.h"
#include "core/trace/store/report.h"

#include <algorithm>

namespace ps::core::analysis {

namespace {

// Each column's wait inside the phase's collectives (0 for a column without).
std::vector<int64_t> waitsOf(size_t columns, const CollectivePhaseRow *byArrival,
                             const std::map<int, size_t> &columnOfRank)
{
    std::vector<int64_t> waits(columns, 0);
    if (byArrival)
        for (const CollectiveRankTotals &t : byArrival->ranks)
            if (auto it = columnOfRank.find(t.rank); it != columnOfRank.end() && it->second < columns)
                waits[it->second] = t.waitNs;
    return waits;
}

void chooseByWorkTime(PhaseRow &row, const CollectivePhaseRow *byArrival, const std::map<int, size_t> &columnOfRank,
                      std::span<const int64_t> osWaits)
{
    std::vector<int64_t> waits = waitsOf(row.cells.size(), byArrival, columnOfRank);
    for (size_t c = 0; c < waits.size() && c < osWaits.size(); ++c)
        waits[c] += osWaits[c];
    std::vector<int64_t> work;
    int best = -1;
    int64_t bestWork = 0;
    bool tie = false;
    for (size_t c = 0; c < row.cells.size(); ++c) {
        if (!row.cells[c].present)
            continue;
        const int64_t w = row.cells[c].wallNs - waits[c];
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
    row.straggler = best;
    row.lagNs = bestWork - *median(std::move(work));
}

} // namespace

void chooseStraggler(PhaseRow &row, const CollectivePhaseRow *byArrival, const std::map<int, size_t> &columnOfRank,
                     std::span<const int64_t> osWaits)
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
    chooseByWorkTime(row, byArrival, columnOfRank, osWaits);
}

void nameStragglers(PhaseTable &table, std::span<const trace::ReportPtr> reports,
                    std::span<const ReportPhaseCells> perReport, const core::CancelToken *cancel)
{
    // The rows need every instance's waits, not the instances.
    const RunCollectives run = collectivesOfRun(
        reports, [&](size_t r) { return phaseOccurrencesOf(perReport[r]); }, cancel, CollectiveQuery::sinksOnly());
    nameStragglers(table, run, run.analysis.reportRanks, reports, perReport);
}

void nameStragglers(PhaseTable &table, const RunCollectives &run, std::span<const int> rankOfReport,
                    std::span<const trace::ReportPtr> reports, std::span<const ReportPhaseCells> perReport)
{
    if (run.cancelled) {
        table.cancelled = true;
        return;
    }
    table.stragglerNotes = run.analysis.errors;
    std::map<int, size_t> columnOfRank;
    for (size_t c = 0; c < table.columns.size(); ++c) {
        const size_t r = table.columns[c].report;
        if (r < rankOfReport.size() && rankOfReport[r] >= 0)
            columnOfRank.emplace(rankOfReport[r], c);
    }
    std::map<std::pair<int64_t, std::string>, const CollectivePhaseRow *> rowOf;
    for (const CollectivePhaseRow &r : run.phases)
        rowOf[{r.step, r.phase}] = &r;
    std::vector<std::map<std::pair<int64_t, std::string>, int64_t>> osWaitsOf;
    for (size_t c = 0; c < table.columns.size(); ++c) {
        const size_t r = table.columns[c].report;
        osWaitsOf.push_back(r < reports.size() && r < perReport.size() ? osrtWaitsOf(*reports[r], perReport[r])
                                                                       : decltype(osWaitsOf)::value_type{});
    }
    for (PhaseRow &row : table.rows) {
        auto it = rowOf.find({row.step, row.phase});
        std::vector<int64_t> osWaits(row.cells.size(), 0);
        for (size_t c = 0; c < osWaits.size() && c < osWaitsOf.size(); ++c)
            if (auto w = osWaitsOf[c].find({row.step, row.phase}); w != osWaitsOf[c].end())
                osWaits[c] = w->second;
        chooseStraggler(row, it == rowOf.end() ? nullptr : it->second, columnOfRank, osWaits);
    }
}

} // namespace ps::core::analysis
