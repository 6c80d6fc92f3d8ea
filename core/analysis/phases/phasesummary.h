#pragma once
// The phase summary a digest carries (section PHAS, docs/digest-format.md): one report's phase
// cells (phases.h) with the built-in phase mapping, computed when the report is digested, so that
// the phase table and its stragglers of a run of digests come from these few KB per report
// instead of its events.

#include "core/analysis/phases/phases.h"
#include "core/trace/persist/digest.h"
#include "core/trace/read/reportsource.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::analysis {

inline constexpr std::string_view kPhaseSummaryTag = "PHAS";

// JSON: {"version": 1, "rank", "counted", "cells": [{"step", "phase", "position", "occurrences",
// "wall_ns", "start_ns", "track", "index", "gpu": {"events", "first_ns", "last_ns", "span_ns",
// "busy_ns", "idle_ns", "overlap_ns", "union_ns": [6], "exclusive_ns": [6]}}]}.
std::string encodePhaseSummary(const ReportPhaseCells &cells, std::optional<int> rank);
// False with `error` when the text is not such a summary.
bool decodePhaseSummary(std::string_view json, ReportPhaseCells &cells, std::optional<int> &rank, std::string &error);

// One GPU breakdown as JSON, {"gpu": {...}} as in a phase cell (the digest's GPUB section).
std::string encodeBreakdown(const GpuBreakdown &b);
bool decodeBreakdown(std::string_view json, GpuBreakdown &b, std::string &error);
// The phase cells with the built-in mapping as a summary kind (trace/reportsource.h): PHAS.
extern const trace::SummaryKind<ReportPhaseCells> kPhaseCells;
// The report's phase summary (built-in mapping) as a digest section.
trace::DigestSection phaseSummarySection(const trace::Report &report);

} // namespace ps::core::analysis
