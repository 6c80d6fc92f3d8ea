#pragma once
// Putting reports on one time axis. Alignment is one offset per report, added to the report's
// own timestamps (stored timestamps are never rewritten): shared = own + offset.
//
//   utc          offset = utcStart(report) - min over reports of utcStart (default when every
//                report has a UTC origin; otherwise falls back to `start` with a warning)
//   start        each report's first event at 0: offset = -firstStart
//   range:N[#K]  the start of the K-th (1-based) occurrence of NVTX range N (by start time,
//                over all threads of the report) at 0; a report without it falls back to utc
//                (or start) with a warning. With an AnchorFinder that knows phases
//                (analysis/phases/phaseanchor.h), N may also be an RL phase: update_actor#2.
//   manual       offsets given per report (missing ones 0); also applied on top of any mode
//
// Residual: the spread (max - min) of an anchor over the reports after alignment, which shows
// clock skew. With `range:` it is the spread of the anchor's end; with another mode and an
// `anchor` set, the spread of the anchor's start. Null when no anchor is known in >= 2 reports.

#include "core/trace/store/report.h"

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::trace {

enum class AlignMode { Utc, Start, Range, Manual };

struct RangeAnchor
{
    std::string name;
    int occurrence = 1; // 1-based
};

struct AlignSpec
{
    AlignMode mode = AlignMode::Utc;
    std::optional<RangeAnchor> anchor;  // required for Range; optional residual probe otherwise
    std::vector<int64_t> manualOffsets; // per report, in input order; added on top of the mode
};

// Parses "utc", "start", "manual", "range:NAME" or "range:NAME#K". Returns nullopt and sets
// `error` on bad syntax (K must be a positive integer).
std::optional<AlignSpec> parseAlignSpec(std::string_view text, std::string &error);
// "utc", "start", "range:NAME#K", "manual".
std::string alignSpecText(const AlignSpec &spec);

struct AlignResult
{
    AlignMode used = AlignMode::Utc; // the mode actually used after fallbacks
    std::vector<int64_t> offsets;    // per report, ns
    std::optional<int64_t> residualNs;
    std::optional<int64_t> utcOriginNs; // used == Utc: the earliest report's UTC origin, at offset 0
    std::vector<std::string> warnings;
};

// Where an anchor lies in one report, on its own clock ({start, end}), or nullopt when it has none.
using AnchorFinder = std::function<std::optional<std::pair<int64_t, int64_t>>(const Report &, const RangeAnchor &)>;

// `find` locates the anchor in each report; empty: the K-th occurrence of the range so named
// (rangeOccurrenceOf, rangeoccurrences.h).
AlignResult alignReports(std::span<const ReportPtr> reports, const AlignSpec &spec, const AnchorFinder &find = {});

} // namespace ps::core::trace
