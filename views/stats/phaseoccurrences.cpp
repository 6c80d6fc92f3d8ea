#include "views/stats/phaseoccurrences.h"

#include <algorithm>
#include <limits>
#include <map>

namespace ps::views {

namespace an = core::analysis;

namespace {

// Own-clock window of an overlay entry's occurrence: from its start to the next occurrence of the
// same report, at most the longest occurrence long (the overlay's focus), as entries do not carry
// their ends.
std::pair<int64_t, int64_t> occurrenceWindow(const TimelineScene &scene, const std::vector<int> &entries, size_t i)
{
    const TimelineEntry &e = scene.entries[size_t(entries[i])];
    const int64_t start = -e.offset;
    int64_t end = scene.focus ? start + scene.focus->duration() : std::numeric_limits<int64_t>::max();
    for (int other : entries) {
        const TimelineEntry &o = scene.entries[size_t(other)];
        if (o.report == e.report && -o.offset > start)
            end = std::min(end, -o.offset);
    }
    return {start, end};
}

// The entry whose occurrence of report `report` overlaps [start, end) most; -1 when none does.
int occurrenceOf(const TimelineScene &scene, const std::vector<int> &entries, const std::vector<size_t> &reportOfEntry,
                 size_t report, int64_t start, int64_t end)
{
    int best = -1;
    int64_t bestOverlap = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
        if (reportOfEntry[i] != report)
            continue;
        const auto [s, e] = occurrenceWindow(scene, entries, i);
        const int64_t overlap = std::min(e, std::max(end, start + 1)) - std::max(s, start);
        if (overlap > bestOverlap) {
            best = int(i);
            bestOverlap = overlap;
        }
    }
    return best;
}

void nameSlowest(an::PhaseRow &row)
{
    std::vector<int64_t> walls;
    for (size_t c = 0; c < row.cells.size(); ++c)
        if (row.cells[c].present) {
            walls.push_back(row.cells[c].wallNs);
            if (row.straggler < 0 || row.cells[c].wallNs > row.cells[size_t(row.straggler)].wallNs)
                row.straggler = int(c);
        }
    if (walls.empty())
        return;
    std::sort(walls.begin(), walls.end());
    row.maxWallNs = walls.back();
    row.medianWallNs = walls[walls.size() / 2];
    row.lagNs = row.maxWallNs - row.medianWallNs;
}

} // namespace

an::PhaseTable phasesPerOccurrence(const an::PhaseTable &byReport, const TimelineScene &scene,
                                   const std::vector<int> &entries, const std::vector<size_t> &reportOfEntry)
{
    an::PhaseTable out;
    out.stepsCounted = byReport.stepsCounted;
    out.cancelled = byReport.cancelled;
    for (size_t i = 0; i < entries.size(); ++i) {
        an::PhaseColumn col;
        col.report = i;
        col.label = scene.entries[size_t(entries[i])].label.toStdString();
        out.columns.push_back(std::move(col));
    }
    std::map<std::string, size_t> rowOf; // phase -> row
    for (const an::PhaseRow &r : byReport.rows) {
        for (size_t c = 0; c < r.cells.size() && c < byReport.columns.size(); ++c) {
            const an::PhaseCell &cell = r.cells[c];
            if (!cell.present)
                continue;
            const int i = occurrenceOf(scene, entries, reportOfEntry, byReport.columns[c].report, cell.startNs,
                                       cell.startNs + cell.wallNs);
            if (i < 0)
                continue; // outside every occurrence
            auto [it, added] = rowOf.emplace(r.phase, out.rows.size());
            if (added) {
                an::PhaseRow row;
                row.step = r.step;
                row.phase = r.phase;
                row.cells.resize(entries.size());
                out.rows.push_back(std::move(row));
            }
            an::PhaseCell &target = out.rows[it->second].cells[size_t(i)];
            if (!target.present)
                target = cell;
            else { // a phase run twice in one occurrence: summed as the table sums retries
                target.wallNs += cell.wallNs;
                target.occurrences += cell.occurrences;
            }
        }
    }
    for (an::PhaseRow &row : out.rows)
        nameSlowest(row);
    return out;
}

} // namespace ps::views
