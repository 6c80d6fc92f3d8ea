#pragma once
// Summaries with `nsys stats` semantics, computed in memory over the EventStores:
//   nvtx_sum    per NVTX range name (push/pop and start/end ranges; marks excluded)
//   kernel_sum  per kernel (demangled) name
// Each row: count, total, average, median (mean of the two middle values for even counts),
// min, max and sample standard deviation (n-1; 0 for a single instance), all in ns. Rows are
// ordered by total time, descending, then by name.

#include "core/trace/report.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ps::core::trace {

enum class StatsKind { NvtxSum, KernelSum };

struct StatRow
{
    std::string name;
    std::optional<size_t> report; // index into the input; nullopt = over all reports
    uint64_t count = 0;
    int64_t totalNs = 0;
    double avgNs = 0;
    double medNs = 0;
    int64_t minNs = 0;
    int64_t maxNs = 0;
    double stddevNs = 0;
};

struct StatsResult
{
    std::vector<StatRow> overall;   // over all reports together
    std::vector<StatRow> perReport; // grouped by report (input order), each group by total
};

StatsResult summarize(std::span<const ReportPtr> reports, StatsKind kind);

// compare: names x reports. For each name (ordered by overall total), one cell per report
// (count 0 where the report lacks the name) and the report with the largest total — the
// straggler for that name.
struct CompareRow
{
    std::string name;
    std::vector<StatRow> cells; // one per report, in input order
    std::optional<size_t> slowest;
};
std::vector<CompareRow> compareReports(std::span<const ReportPtr> reports, StatsKind kind);

} // namespace ps::core::trace
