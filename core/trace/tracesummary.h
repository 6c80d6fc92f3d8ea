#pragma once
// The statistics a digest carries so that a run can be compared and its stragglers charted
// without its events (section SUMS, docs/digest-format.md): per report, the kernel_sum and
// nvtx_sum totals per name (what run-against-run compare reads, styles summed) and every range's
// occurrences (what the cross-rank chart draws), computed when the report is digested.

#include "core/trace/read/reportsource.h"
#include "core/trace/store/report.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ps::core::trace {

inline constexpr std::string_view kTraceSummaryTag = "SUMS";
// Occurrences kept per range and style; a range seen more often keeps its count and total only.
inline constexpr size_t kMaxRangeOccurrences = 16384;

struct RangeOccurrence
{
    int64_t start = 0;
    int64_t duration = 0;
    uint32_t track = 0;
    uint32_t index = 0;
};

struct RangeSummary
{
    std::string name;  // as nvtxRangeName() gives it: "domain:text" for a named domain
    std::string text;  // the ranges' own text (what a range search and the align spec name)
    std::string style; // "PushPop", "StartEnd"
    size_t count = 0;
    int64_t totalNs = 0;
    std::vector<RangeOccurrence> occurrences; // in start order; all of them unless count > the cap
};

struct TraceSummary
{
    std::map<std::string, int64_t> kernelTotals; // totalsByName(KernelSum) of the report
    std::map<std::string, int64_t> rangeTotals;  // totalsByName(NvtxSum) of the report
    std::vector<RangeSummary> ranges;            // by name, then style
};

// From a report with its events.
TraceSummary summarizeForDigest(const Report &report);
// JSON: {"version": 1, "kernels": {name: ns}, "ranges_total": {name: ns}, "ranges": [{"name",
// "text", "style", "count", "total_ns", "occurrences": [[start, duration, track, index], ...]}]}.
std::string encodeTraceSummary(const TraceSummary &summary);
bool decodeTraceSummary(std::string_view json, TraceSummary &summary, std::string &error);
// The statistics summary as a summary kind (reportsource.h): SUMS.
extern const SummaryKind<TraceSummary> kTraceSummary;

} // namespace ps::core::trace
