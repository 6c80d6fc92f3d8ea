#pragma once
// A report whose own tables disagree about when things happened: the rows of some tables on one
// day, those of others hundreds of days later (the Ascend msprof sample: TASK and CANN_API on
// 2023-10-25, MSTX_EVENTS on 2025-07-25). No row is impossible on its own, so nothing is dropped
// or clipped (eventtimes.h); the timeline stretches over the gap. The report gets one warning
// naming the tables on each side, so the user knows why its events do not line up.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::core::trace {

// Tables whose rows start within this of each other's agree.
inline constexpr int64_t kTableSpreadNs = 86'400'000'000'000; // one day

// The first and last row start of one table, on the report's own clock.
struct TableSpan
{
    std::string table;
    int64_t first = 0;
    int64_t last = 0;
};

// Tables group by overlap or a gap of at most kTableSpreadNs; with two groups or more, the
// warning ("its tables' rows lie 639.0 days apart: CANN_API, TASK from 2023-10-25 08:00:11 UTC;
// MSTX_EVENTS from 2025-07-25 08:13:38 UTC ..."), else "". With `utcOriginNs` (the report's
// clock is that many ns after the Unix epoch) the times are UTC dates, else seconds on the
// report's clock.
std::string tableSpreadWarning(std::vector<TableSpan> tables, std::optional<int64_t> utcOriginNs);

} // namespace ps::core::trace
