#include "core/analysis/phases/phases.h"

#include "core/analysis/phases/phasestraggler.h"
#include "core/analysis/phases/phasesummary.h"
#include "core/analysis/phases/stepnumbering.h"
#include "core/analysis/phases/steps.h"
#include "core/common/canceltoken.h"
#include "core/common/median.h"
#include "core/trace/analysisguard.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/store/report.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace ps::core::analysis {

namespace {

struct Occurrence
{
    int64_t start = 0;
    int64_t end = 0;
    const std::string *phase = nullptr;
    trace::EventRef ref;
};

// Every range whose label maps to a phase, on every annotation track, sorted by start (longer
// first on ties, so that an enclosing range precedes what it holds).
std::vector<Occurrence> knownRanges(const trace::EventStore &store, const PhaseMapping &mapping,
                                    std::vector<std::string> &phaseNames)
{
    std::unordered_map<trace::NameId, const std::string *> phaseOfName;
    std::vector<Occurrence> out;
    for (uint32_t k = 0; k < store.tracks().size(); ++k) {
        const trace::Track &t = store.track(k);
        if (!trace::isRangeKind(t.kind()))
            continue;
        for (size_t i = 0; i < t.size(); ++i) {
            auto [it, fresh] = phaseOfName.try_emplace(t.name(i), nullptr);
            if (fresh) {
                if (auto phase = mapping.phaseOf(store.name(t.name(i)))) {
                    auto known = std::find(phaseNames.begin(), phaseNames.end(), *phase);
                    if (known == phaseNames.end())
                        known = phaseNames.insert(phaseNames.end(), *phase);
                    it->second = &*known;
                }
            }
            if (it->second)
                out.push_back({t.start(i), t.end(i), it->second, {k, uint32_t(i)}});
        }
    }
    std::sort(out.begin(), out.end(), [](const Occurrence &a, const Occurrence &b) {
        return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    return out;
}

// Drops ranges inside an earlier kept one (a known label nested in another is part of it).
std::vector<Occurrence> outermost(const std::vector<Occurrence> &sorted)
{
    std::vector<Occurrence> out;
    int64_t coveredUntil = INT64_MIN;
    for (const Occurrence &o : sorted) {
        if (o.end <= coveredUntil && !out.empty() && o.start >= out.back().start)
            continue;
        out.push_back(o);
        coveredUntil = std::max(coveredUntil, o.end);
    }
    return out;
}

} // namespace

std::vector<PhaseOccurrence> findPhases(const trace::EventStore &store, const PhaseMapping &mapping,
                                        std::optional<int> reportStep, bool *stepsCounted, bool reportStepIsCapture)
{
    // The names live as long as this call; occurrences copy them out.
    std::vector<std::string> phaseNames;
    phaseNames.reserve(mapping.rules().size());
    const std::vector<Occurrence> ranges = outermost(knownRanges(store, mapping, phaseNames));
    const bool fixedStep = reportStep && !reportStepIsCapture;
    const std::vector<StepWindow> profilerSteps = fixedStep ? std::vector<StepWindow>() : namedStepWindows(store);
    if (!profilerSteps.empty())
        reportStep.reset(); // a capture range's own step ranges say which steps it holds
    if (stepsCounted)
        *stepsCounted = (!reportStep || reportStepIsCapture) && profilerSteps.empty();
    std::vector<PhaseOccurrence> out;
    int64_t counted = 1;
    std::set<const std::string *> seenThisStep;
    for (const Occurrence &o : ranges) {
        int64_t step = 0;
        if (reportStep) {
            step = *reportStep;
        } else if (!profilerSteps.empty()) {
            auto in = std::find_if(profilerSteps.begin(), profilerSteps.end(), [&](const StepWindow &w) {
                return o.start >= w.window.start && o.start < w.window.end;
            });
            if (in == profilerSteps.end())
                continue; // between steps
            step = in->step;
        } else {
            if (!seenThisStep.insert(o.phase).second) {
                ++counted;
                seenThisStep = {o.phase};
            }
            step = counted;
        }
        out.push_back({*o.phase, step, {o.start, o.end}, o.ref});
    }
    return out;
}

void accumulate(GpuBreakdown &into, const GpuBreakdown &part)
{
    if (part.events && (!into.events || part.firstStart < into.firstStart))
        into.firstStart = part.firstStart;
    if (part.events && (!into.events || part.lastEnd > into.lastEnd))
        into.lastEnd = part.lastEnd;
    into.events += part.events;
    into.spanNs += part.spanNs;
    into.busyNs += part.busyNs;
    into.idleNs += part.idleNs;
    for (size_t c = 0; c < into.unionNs.size(); ++c) {
        into.unionNs[c] += part.unionNs[c];
        into.exclusiveNs[c] += part.exclusiveNs[c];
    }
    for (size_t m = 0; m < into.maskNs.size(); ++m)
        into.maskNs[m] += part.maskNs[m];
    into.commCompOverlapNs += part.commCompOverlapNs;
    into.cancelled = into.cancelled || part.cancelled;
}

double PhaseRow::lagPct() const
{
    return medianWallNs > 0 ? 100.0 * double(lagNs) / double(medianWallNs) : 0.0;
}

namespace {

PhaseColumn columnOf(const trace::Report &r, size_t index)
{
    PhaseColumn c;
    c.report = index;
    c.group = r.identity.group;
    c.rank = r.identity.rank ? r.identity.rank : r.meta.rank;
    if (c.rank)
        c.label = (c.group.empty() ? std::string("rank") : c.group) + ":" + std::to_string(*c.rank);
    else
        c.label = r.path.substr(r.path.find_last_of('/') + 1);
    return c;
}

} // namespace

void numberCountedSteps(std::vector<PhaseOccurrence> &occurrences, bool &stepsCounted, const std::string &path,
                        std::string *stepsFrom)
{
    if (!stepsCounted || occurrences.empty())
        return;
    int64_t counted = 0;
    for (const PhaseOccurrence &o : occurrences)
        counted = std::max(counted, o.step);
    const std::optional<ProfiledSteps> profiled = profiledStepsNear({path});
    if (!profiled || !profiledStepOf(*profiled, 1, counted))
        return; // stays counted; the table says why (numberProfiledSteps)
    for (PhaseOccurrence &o : occurrences)
        o.step = *profiledStepOf(*profiled, o.step, counted);
    stepsCounted = false;
    if (stepsFrom)
        *stepsFrom = profiled->source();
}

ReportPhaseCells phaseCellsOf(const trace::Report &r, const PhaseMapping &mapping, const core::CancelToken *cancel,
                              bool direct)
{
    ReportPhaseCells out;
    out.rank = r.meta.rank;
    std::string error;
    const trace::EventStore *events = trace::eventsOf(r, error);
    if (!events)
        return out;
    const trace::EventStore &store = *events;
    // Numbered before the cells are made, so a digest keeps the profiled steps.
    out.occurrences = findPhases(store, mapping, r.identity.step, &out.counted, r.identity.stepIsCaptureIndex);
    // One capture range of many holds one counted step: the table numbers them all together
    // (numberProfiledSteps), as one report's repeats would be numbered here.
    if (!r.identity.stepIsCaptureIndex)
        numberCountedSteps(out.occurrences, out.counted, r.path, &out.stepsFrom);
    const std::optional<WorkClassTable> classes = direct ? std::optional<WorkClassTable>(store) : std::nullopt;
    std::map<int64_t, size_t> nextPosition;
    for (const PhaseOccurrence &o : out.occurrences) {
        if (cancel && cancel->cancelled())
            return out;
        const auto key = std::make_pair(o.step, o.phase);
        PhaseCell &cell = out.cells[key];
        if (!cell.present) {
            cell.present = true;
            cell.startNs = o.window.start;
            cell.first = o.range;
            out.position[key] = nextPosition[o.step]++;
        }
        ++cell.occurrences;
        cell.wallNs += o.window.end - o.window.start;
        BreakdownFilter f;
        f.window = o.window;
        accumulate(cell.gpu,
                   classes ? computeBreakdownDirect(store, *classes, f, cancel) : computeBreakdown(store, f, cancel));
    }
    return out;
}

std::optional<ReportPhaseCells> reportPhaseCells(const trace::Report &report, const PhaseMapping &mapping,
                                                 std::string &error, const core::CancelToken *cancel)
{
    if (mapping.rules() == PhaseMapping::defaults().rules()) {
        const auto cells = trace::summaryOf(report, kPhaseCells, error, cancel);
        return cells ? std::optional<ReportPhaseCells>(*cells) : std::nullopt;
    }
    if (!trace::hasEvents(report)) {
        error = report.path + ": the digest's phase summary was made with the built-in phases; open the "
                              "digest's events (or the report) to use your own";
        return std::nullopt;
    }
    ReportPhaseCells cells = phaseCellsOf(report, mapping, cancel);
    return cancel && cancel->cancelled() ? std::nullopt : std::optional<ReportPhaseCells>(std::move(cells));
}

namespace {

// Longest and median wall time of a finished row (its straggler: phasestraggler.h).
void rankRow(PhaseRow &row)
{
    std::vector<int64_t> walls;
    for (const PhaseCell &cell : row.cells)
        if (cell.present) {
            walls.push_back(cell.wallNs);
            row.maxWallNs = std::max(row.maxWallNs, cell.wallNs);
        }
    row.medianWallNs = median(std::move(walls)).value_or(0);
}

// Counted steps 1..N become the steps the run's config says it profiled (stepnumbering.h), when
// every report with phases counted its steps and the config lists N steps; else the table says
// why they stay counted.
void numberProfiledSteps(PhaseTable &table, const std::vector<trace::ReportPtr> &reports,
                         const std::vector<ReportPhaseCells> &perReport)
{
    if (!table.stepsCounted || table.rows.empty())
        return;
    for (const ReportPhaseCells &rc : perReport)
        if (!rc.cells.empty() && !rc.counted)
            return; // some steps were read from the data: counted ones are not comparable
    std::vector<std::string> paths;
    for (const trace::ReportPtr &r : reports)
        paths.push_back(r->path);
    const std::optional<ProfiledSteps> profiled = profiledStepsNear(paths, &table.stepsNote);
    if (!profiled)
        return;
    int64_t counted = 0;
    for (const PhaseRow &row : table.rows)
        counted = std::max(counted, row.step);
    if (!profiledStepOf(*profiled, 1, counted)) {
        table.stepsNote = profiled->source() + " lists " + std::to_string(profiled->steps.size()) +
                          " step(s), the reports hold " + std::to_string(counted);
        return;
    }
    for (PhaseRow &row : table.rows)
        row.step = *profiledStepOf(*profiled, row.step, counted);
    table.stepsCounted = false;
    table.stepsByCapture = false;
    table.stepsFrom = profiled->source();
    table.stepsNote.clear();
}

} // namespace

namespace {
// A run read partly from digests numbered by their config and partly from reports far from it
// (a raw report fetched beside the digests): the counted ones take the numbered ones' steps when
// they hold as many.
std::vector<ReportPhaseCells> numberLikeTheOthers(const std::vector<ReportPhaseCells> &perReport)
{
    std::set<int64_t> numbered;
    for (const ReportPhaseCells &rc : perReport)
        if (!rc.stepsFrom.empty())
            for (const auto &[key, cell] : rc.cells)
                numbered.insert(key.first);
    std::vector<ReportPhaseCells> out = perReport;
    const std::vector<int64_t> steps(numbered.begin(), numbered.end());
    for (ReportPhaseCells &rc : out) {
        int64_t counted = 0;
        for (const auto &[key, cell] : rc.cells)
            counted = std::max(counted, key.first);
        if (!rc.counted || steps.empty() || counted != int64_t(steps.size()))
            continue;
        decltype(rc.cells) cells;
        decltype(rc.position) position;
        for (const auto &[key, cell] : rc.cells)
            cells[{steps[size_t(key.first - 1)], key.second}] = cell;
        for (const auto &[key, pos] : rc.position)
            position[{steps[size_t(key.first - 1)], key.second}] = pos;
        rc.cells = std::move(cells);
        rc.position = std::move(position);
        rc.counted = false;
    }
    return out;
}
// The columns and rows of reports whose cells are numbered alike, without stragglers.
PhaseTable rowsOf(const std::vector<trace::ReportPtr> &reports, const std::vector<ReportPhaseCells> &perReport,
                  const PhaseMapping &mapping)
{
    PhaseTable table;
    for (size_t i = 0; i < reports.size(); ++i) {
        table.columns.push_back(columnOf(*reports[i], i));
        table.stepsCounted = table.stepsCounted || perReport[i].counted;
        table.stepsByCapture =
            table.stepsByCapture || (perReport[i].counted && reports[i]->identity.stepIsCaptureIndex);
        if (table.stepsFrom.empty())
            table.stepsFrom = perReport[i].stepsFrom;
    }
    // Rows: every (step, phase) any report has, ordered by step, then by the earliest position
    // the phase takes in that step on any rank, then by the mapping's order.
    std::map<std::pair<int64_t, std::string>, size_t> firstPosition;
    for (const ReportPhaseCells &rc : perReport)
        for (const auto &[key, pos] : rc.position) {
            auto [it, fresh] = firstPosition.try_emplace(key, pos);
            if (!fresh)
                it->second = std::min(it->second, pos);
        }
    std::vector<std::pair<int64_t, std::string>> keys;
    for (const auto &[key, pos] : firstPosition)
        keys.push_back(key);
    std::sort(keys.begin(), keys.end(), [&](const auto &a, const auto &b) {
        if (a.first != b.first)
            return a.first < b.first;
        const size_t pa = firstPosition[a], pb = firstPosition[b];
        return pa != pb ? pa < pb : mapping.orderOf(a.second) < mapping.orderOf(b.second);
    });
    for (const auto &key : keys) {
        PhaseRow row;
        row.step = key.first;
        row.phase = key.second;
        for (const ReportPhaseCells &rc : perReport) {
            auto it = rc.cells.find(key);
            row.cells.push_back(it == rc.cells.end() ? PhaseCell{} : it->second);
        }
        rankRow(row);
        table.rows.push_back(std::move(row));
    }
    return table;
}

// Names a table's stragglers from its reports' cells, numbered alike (numberLikeTheOthers).
using StragglerNamer = std::function<void(PhaseTable &, const std::vector<ReportPhaseCells> &)>;

// The table of reports whose cells are known: rows, then stragglers (`name`, if any), then the
// profiled steps' numbers (after the stragglers: rows are matched to collectives by counted step).
PhaseTable assemble(const std::vector<trace::ReportPtr> &reports, const std::vector<ReportPhaseCells> &cells,
                    const PhaseMapping &mapping, const StragglerNamer &name)
{
    const std::vector<ReportPhaseCells> numbered = numberLikeTheOthers(cells);
    PhaseTable table = rowsOf(reports, numbered, mapping);
    if (name)
        name(table, numbered);
    numberProfiledSteps(table, reports, numbered);
    return table;
}

// Stragglers from the caller's matching of every input report (PhaseTableOptions::match), the
// columns' phases put in it; `columns[c]` is reports[inputIndex[c]].
StragglerNamer namedByCallersMatch(const decltype(PhaseTableOptions::match) &match,
                                   const std::vector<trace::ReportPtr> &reports,
                                   const std::vector<trace::ReportPtr> &columns, const std::vector<size_t> &inputIndex)
{
    return [&](PhaseTable &table, const std::vector<ReportPhaseCells> &numbered) {
        std::vector<int> columnOfInput(reports.size(), -1);
        for (size_t c = 0; c < inputIndex.size(); ++c)
            columnOfInput[inputIndex[c]] = int(c);
        const RunCollectives &run = match(reports, [&](size_t i) {
            return columnOfInput[i] < 0 ? std::vector<PhaseOccurrence>{}
                                        : phaseOccurrencesOf(numbered[size_t(columnOfInput[i])]);
        });
        std::vector<int> rankOfColumn;
        for (size_t i : inputIndex)
            rankOfColumn.push_back(i < run.analysis.reportRanks.size() ? run.analysis.reportRanks[i] : -1);
        nameStragglers(table, run, rankOfColumn, columns, numbered);
    };
}

// Stragglers from the columns' own collectives, matched here keeping no instance.
StragglerNamer namedByOwnMatch(const std::vector<trace::ReportPtr> &reports, const core::CancelToken *cancel)
{
    return [&reports, cancel](PhaseTable &table, const std::vector<ReportPhaseCells> &numbered) {
        nameStragglers(table, reports, numbered, cancel);
    };
}

} // namespace

PhaseTable computePhaseTable(const std::vector<trace::ReportPtr> &reports, const PhaseMapping &mapping,
                             const core::CancelToken *cancel, const PhaseTableOptions &options)
{
    std::vector<trace::ReportPtr> columns; // the reports that make the columns
    std::vector<size_t> inputIndex;        // each one's index into `reports`
    std::vector<ReportPhaseCells> perReport;
    std::vector<std::pair<size_t, std::string>> problems;
    bool fromSummaries = true;
    for (size_t i = 0; i < reports.size(); ++i) {
        std::string error;
        std::optional<ReportPhaseCells> cells;
        const bool ran = trace::analyseReport(*reports[i], error,
                                              [&] { cells = reportPhaseCells(*reports[i], mapping, error, cancel); });
        if (cancel && cancel->cancelled()) {
            PhaseTable table;
            table.cancelled = true;
            for (size_t k = 0; k < reports.size(); ++k)
                table.columns.push_back(columnOf(*reports[k], k));
            return table;
        }
        if (!ran || !cells) {
            problems.emplace_back(i, error);
            if (!options.keepUnanswered)
                continue;
        } else {
            fromSummaries = fromSummaries && !trace::hasEvents(*reports[i]);
        }
        columns.push_back(reports[i]);
        inputIndex.push_back(i);
        perReport.push_back(cells ? std::move(*cells) : ReportPhaseCells{});
    }
    StragglerNamer name;
    if (options.withStragglers)
        name = options.match ? namedByCallersMatch(options.match, reports, columns, inputIndex)
                             : namedByOwnMatch(columns, cancel);
    PhaseTable table = assemble(columns, perReport, mapping, name);
    for (PhaseColumn &c : table.columns)
        c.report = inputIndex[c.report];
    table.fromSummaries = fromSummaries && problems.size() < reports.size();
    table.problems = std::move(problems);
    return table;
}

PhaseTable assemblePhaseTable(const std::vector<trace::ReportPtr> &reports,
                              const std::vector<ReportPhaseCells> &cellsOfReports, const PhaseMapping &mapping,
                              const core::CancelToken *cancel, bool withStragglers)
{
    return assemble(reports, cellsOfReports, mapping, withStragglers ? namedByOwnMatch(reports, cancel) : nullptr);
}

} // namespace ps::core::analysis
