#include "core/analysis/runcompare.h"

#include "core/analysis/breakdown/breakdown.h"
#include "core/analysis/collectives/collectivewait.h"
#include "core/analysis/digestsummary.h"
#include "core/analysis/phases/phases.h"
#include "core/common/canceltoken.h"
#include "core/trace/store/report.h"
#include "core/trace/tracestats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace ps::core::analysis {

const char *deltaKindName(DeltaKind kind)
{
    switch (kind) {
    case DeltaKind::Phase:
        return "phase";
    case DeltaKind::PhaseRank:
        return "phase_rank";
    case DeltaKind::Range:
        return "range";
    case DeltaKind::Kernel:
        return "kernel";
    case DeltaKind::Breakdown:
        return "breakdown";
    }
    return "";
}

std::optional<double> Delta::deltaPct() const
{
    if (baselineNs == 0)
        return std::nullopt;
    return 100.0 * double(candidateNs - baselineNs) / double(baselineNs);
}

std::string matchKey(const trace::Report &r)
{
    const std::optional<int> rank = r.identity.rank ? r.identity.rank : r.meta.rank;
    if (!rank)
        return r.path.substr(r.path.find_last_of('/') + 1);
    std::string key = (r.identity.group.empty() ? std::string("rank") : r.identity.group) + ":" + std::to_string(*rank);
    if (r.identity.step)
        key += "#" + std::to_string(*r.identity.step);
    return key;
}

RunMatch matchReports(const std::vector<trace::ReportPtr> &baseline, const std::vector<trace::ReportPtr> &candidate)
{
    // Several reports may share a key (capture ranges without a step): the k-th matches the k-th.
    std::map<std::string, std::vector<size_t>> waiting;
    for (size_t i = 0; i < candidate.size(); ++i)
        waiting[matchKey(*candidate[i])].push_back(i);
    RunMatch m;
    std::vector<bool> used(candidate.size(), false);
    for (size_t i = 0; i < baseline.size(); ++i) {
        auto it = waiting.find(matchKey(*baseline[i]));
        if (it == waiting.end() || it->second.empty()) {
            m.baselineOnly.push_back(i);
            continue;
        }
        const size_t c = it->second.front();
        it->second.erase(it->second.begin());
        used[c] = true;
        m.pairs.emplace_back(i, c);
    }
    for (size_t c = 0; c < candidate.size(); ++c)
        if (!used[c])
            m.candidateOnly.push_back(c);
    return m;
}

namespace {

using Totals = std::map<std::string, int64_t>;

void addDeltas(DeltaKind kind, const Totals &base, const Totals &cand, std::vector<Delta> &out)
{
    std::map<std::string, std::pair<int64_t, int64_t>> both;
    for (const auto &[name, ns] : base)
        both[name].first = ns;
    for (const auto &[name, ns] : cand)
        both[name].second = ns;
    for (const auto &[name, ns] : both) {
        Delta d;
        d.kind = kind;
        d.name = name;
        d.baselineNs = ns.first;
        d.candidateNs = ns.second;
        out.push_back(std::move(d));
    }
}

Totals statTotals(const std::vector<trace::ReportPtr> &reports, trace::StatsKind kind, const core::CancelToken *cancel,
                  std::set<std::string> &problems)
{
    std::vector<std::string> why;
    Totals t = trace::totalsByName(reports, kind, cancel, &why).value_or(Totals{});
    problems.insert(why.begin(), why.end());
    return t;
}

Totals breakdownTotals(const std::vector<trace::ReportPtr> &reports, const core::CancelToken *cancel,
                       std::set<std::string> &problems)
{
    Totals t;
    // The run's collectives matched, so that communication splits into wait and transfer.
    const RunWaits waits = collectiveWaitsOfRun(reports, cancel);
    for (const std::string &p : waits.problems)
        problems.insert("communication counted as transfer (collectives not matched): " + p);
    for (size_t i = 0; i < reports.size(); ++i) {
        const trace::Report &r = *reports[i];
        std::string error; // a digest without a breakdown adds nothing, and says why
        const std::optional<GpuBreakdown> whole = wholeBreakdown(r, error, cancel);
        if (!whole)
            problems.insert(error);
        const GpuBreakdown b = whole.value_or(GpuBreakdown{});
        t["compute"] += b.computeNs();
        t["communication"] += b.communicationNs();
        const std::optional<CommunicationSplit> split =
            wholeCommunicationSplit(r, b.communicationNs(), waits.byReport[i], error, cancel);
        if (!split)
            problems.insert(error);
        t["communication wait"] += split ? split->waitNs : 0;
        t["communication transfer"] += split ? split->transferNs : b.communicationNs();
        t["memory"] += b.memoryNs();
        t["other"] += b.otherNs();
        t["idle"] += b.idleNs;
        t["gpu span"] += b.spanNs;
    }
    return t;
}

// Per (step, phase): the slowest rank's wall time; per (step, phase, rank): each rank's.
// The site of a cell of column `col`, in the run whose reports the match's pairs index by `side`.
std::optional<DeltaSite> siteOf(const PhaseTable &t, size_t col, const PhaseCell &cell, const RunMatch &match,
                                bool baseline)
{
    if (!cell.present || col >= t.columns.size() || t.columns[col].report >= match.pairs.size())
        return std::nullopt;
    const auto &pair = match.pairs[t.columns[col].report];
    return DeltaSite{baseline ? pair.first : pair.second, cell.first};
}

// The column of a row's slowest rank: the one its maxWallNs is of.
size_t slowestColumn(const PhaseRow &row)
{
    size_t slowest = 0;
    for (size_t c = 0; c < row.cells.size(); ++c)
        if (row.cells[c].present && (!row.cells[slowest].present || row.cells[c].wallNs > row.cells[slowest].wallNs))
            slowest = c;
    return slowest;
}

void addPhaseDeltas(const PhaseTable &base, const PhaseTable &cand, const RunMatch &match, std::vector<Delta> &out)
{
    std::map<std::pair<int64_t, std::string>, const PhaseRow *> candRows;
    for (const PhaseRow &r : cand.rows)
        candRows[{r.step, r.phase}] = &r;
    std::map<std::pair<int64_t, std::string>, const PhaseRow *> baseRows;
    for (const PhaseRow &r : base.rows)
        baseRows[{r.step, r.phase}] = &r;
    std::set<std::pair<int64_t, std::string>> keys;
    for (const auto &[k, r] : baseRows)
        keys.insert(k);
    for (const auto &[k, r] : candRows)
        keys.insert(k);
    const auto rowOf = [](const auto &rows, const auto &key) -> const PhaseRow * {
        auto it = rows.find(key);
        return it == rows.end() ? nullptr : it->second;
    };
    for (const auto &key : keys) {
        const PhaseRow *b = rowOf(baseRows, key);
        const PhaseRow *c = rowOf(candRows, key);
        Delta d;
        d.kind = DeltaKind::Phase;
        d.name = key.second;
        d.step = key.first;
        d.baselineNs = b ? b->maxWallNs : 0;
        d.candidateNs = c ? c->maxWallNs : 0;
        if (b && !b->cells.empty())
            d.baselineSite = siteOf(base, slowestColumn(*b), b->cells[slowestColumn(*b)], match, true);
        if (c && !c->cells.empty())
            d.candidateSite = siteOf(cand, slowestColumn(*c), c->cells[slowestColumn(*c)], match, false);
        out.push_back(d);
        // Columns are the matched pairs, in the same order in both tables.
        for (size_t col = 0; col < base.columns.size(); ++col) {
            const PhaseCell bc = b ? b->cells[col] : PhaseCell{};
            const PhaseCell cc = c ? c->cells[col] : PhaseCell{};
            if (!bc.present && !cc.present)
                continue;
            Delta r = d;
            r.kind = DeltaKind::PhaseRank;
            r.name = base.columns[col].label + " " + key.second;
            r.baselineNs = bc.wallNs;
            r.candidateNs = cc.wallNs;
            r.baselineSite = siteOf(base, col, bc, match, true);
            r.candidateSite = siteOf(cand, col, cc, match, false);
            out.push_back(std::move(r));
        }
    }
}

std::vector<int64_t> stepsOf(const PhaseTable &t)
{
    std::set<int64_t> steps;
    for (const PhaseRow &row : t.rows)
        steps.insert(row.step);
    return {steps.begin(), steps.end()};
}

std::string stepListText(const std::vector<int64_t> &steps)
{
    std::string s;
    for (size_t i = 0; i < steps.size(); ++i)
        s += (i ? ", " : "") + std::to_string(steps[i]);
    return s;
}

// Runs whose configs name different profiled steps (2-4 and 5-7) compare step by step in order:
// the candidate's rows take the baseline's step numbers, and the comparison says so.
void matchStepsInOrder(const PhaseTable &base, PhaseTable &cand, std::set<std::string> &notes)
{
    if (base.stepsFrom.empty() && cand.stepsFrom.empty())
        return; // steps read from the data, or counted alike: matched by number as ever
    const std::vector<int64_t> b = stepsOf(base), c = stepsOf(cand);
    if (b == c || b.size() != c.size())
        return;
    for (PhaseRow &row : cand.rows)
        row.step = b[size_t(std::lower_bound(c.begin(), c.end(), row.step) - c.begin())];
    notes.insert("the runs profiled different steps (baseline " + stepListText(b) + "; candidate " + stepListText(c) +
                 "): phases are compared step by step in that order, under the baseline's numbers");
}

void markAndRank(double tolerancePct, std::vector<Delta> &deltas)
{
    for (Delta &d : deltas) {
        const auto pct = d.deltaPct();
        d.changed = pct ? std::abs(*pct) > tolerancePct : d.candidateNs != 0;
    }
    std::stable_sort(deltas.begin(), deltas.end(),
                     [](const Delta &a, const Delta &b) { return std::llabs(a.deltaNs()) > std::llabs(b.deltaNs()); });
}

} // namespace

RunComparison compareRuns(const std::vector<trace::ReportPtr> &baseline, const std::vector<trace::ReportPtr> &candidate,
                          const CompareOptions &options, const core::CancelToken *cancel)
{
    RunComparison out;
    out.match = matchReports(baseline, candidate);
    std::vector<trace::ReportPtr> base, cand;
    for (const auto &[b, c] : out.match.pairs) {
        base.push_back(baseline[b]);
        cand.push_back(candidate[c]);
    }
    const auto stopped = [&] { return cancel && cancel->cancelled(); };
    std::set<std::string> problems; // each once, though several parts of the comparison meet it
    // Wall times only: the stragglers (matching every collective) are left unnamed.
    // Columns pair by position, so a report that cannot answer keeps its (empty) column.
    const PhaseTableOptions wallTimes{.withStragglers = false, .keepUnanswered = true, .match = {}};
    const PhaseTable basePhases = computePhaseTable(base, options.phases, cancel, wallTimes);
    PhaseTable candPhases = computePhaseTable(cand, options.phases, cancel, wallTimes);
    for (const PhaseTable *t : {&basePhases, static_cast<const PhaseTable *>(&candPhases)})
        for (const auto &[column, why] : t->problems)
            problems.insert(why);
    matchStepsInOrder(basePhases, candPhases, problems);
    addPhaseDeltas(basePhases, candPhases, out.match, out.deltas);
    for (const trace::StatsKind kind : {trace::StatsKind::NvtxSum, trace::StatsKind::KernelSum})
        if (!stopped())
            addDeltas(kind == trace::StatsKind::NvtxSum ? DeltaKind::Range : DeltaKind::Kernel,
                      statTotals(base, kind, cancel, problems), statTotals(cand, kind, cancel, problems), out.deltas);
    if (!stopped())
        addDeltas(DeltaKind::Breakdown, breakdownTotals(base, cancel, problems),
                  breakdownTotals(cand, cancel, problems), out.deltas);
    out.problems.assign(problems.begin(), problems.end());
    if (stopped()) {
        out.cancelled = true;
        out.deltas.clear();
        return out;
    }
    markAndRank(options.tolerancePct, out.deltas);
    return out;
}

} // namespace ps::core::analysis
