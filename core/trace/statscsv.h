#pragma once
// The rows of every stats report as CSV, one format for `profstudio-cli trace stats --format csv`
// and the Stats pane's Copy CSV: counts and ns as integers, averages, median, stddev and Time (%)
// with one decimal, the style column last (nvtx_sum only) so that scripts reading the older
// columns by position keep working, and RFC 4180 quoting (core/common/csvfield.h) of names whose
// control characters are escaped;
// the size report (gpu_mem_size_sum) has bytes where the others have ns, and no Time (%).

#include "core/trace/tracestats.h"

#include <string>
#include <string_view>

namespace ps::core::trace {

struct StatsCsvColumns
{
    bool report = false; // a first "report" column (the CLI: the report's path, or "(all)")
    bool style = false;  // a last "style" column (nvtx_sum)
    bool bytes = false;  // gpu_mem_size_sum: *_bytes columns for the *_ns ones, and no time_pct
};

// The header line, "\n" included.
std::string statsCsvHeader(StatsCsvColumns columns);
// One row, "\n" included; `report` fills the report column when there is one.
std::string statsCsvLine(const StatRow &row, StatsCsvColumns columns, std::string_view report = {});

} // namespace ps::core::trace
