#include "views/overview/overviewphases.h"

#include <algorithm>
#include <map>

namespace ps::views {

OverviewPhases overviewPhases(const core::analysis::PhaseTable &table, const std::vector<int> &entries,
                              const TimelineScene &scene)
{
    OverviewPhases out;
    std::map<int, int> stragglerCount; // by entry
    for (const core::analysis::PhaseRow &row : table.rows) {
        const QString phase = QString::fromStdString(row.phase);
        if (!out.names.contains(phase))
            out.names << phase;
        for (size_t c = 0; c < row.cells.size() && c < table.columns.size(); ++c) {
            const core::analysis::PhaseCell &cell = row.cells[c];
            const size_t report = table.columns[c].report;
            if (!cell.present || report >= entries.size())
                continue;
            const int entry = entries[report];
            if (entry < 0 || size_t(entry) >= scene.entries.size())
                continue;
            const int64_t offset = scene.entries[size_t(entry)].offset;
            out.spans.push_back({entry, cell.startNs + offset, cell.startNs + offset + cell.wallNs, phase});
            if (int(c) == row.straggler)
                ++stragglerCount[entry];
        }
    }
    std::sort(out.spans.begin(), out.spans.end(), [](const OverviewPhase &a, const OverviewPhase &b) {
        return a.entry != b.entry ? a.entry < b.entry : a.start < b.start;
    });
    for (const auto &[entry, count] : stragglerCount)
        if (count > out.stragglerRows) {
            out.stragglerEntry = entry;
            out.stragglerRows = count;
        }
    return out;
}

} // namespace ps::views
