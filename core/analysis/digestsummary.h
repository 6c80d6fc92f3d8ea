#pragma once
// What the analyses add to a digest so that the desktop and the CLI answer without the events
// (docs/digest-format.md): the phase summary (PHAS, phasesummary.h), the whole report's GPU
// breakdown (GPUB, JSON) and each device's busy time as a level-of-detail pyramid (BUSY), which
// the timeline draws utilization and a collapsed report's density row from, and the collective
// summary (COLL, collectivewait.h) that splits communication into wait and transfer. The statistics
// summary (SUMS, trace/tracesummary.h) and the tracks' pyramids (PYRD) are the trace layer's.

#include "core/analysis/breakdown/breakdown.h"
#include "core/trace/persist/digest.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/store/lodpyramid.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::analysis {

inline constexpr std::string_view kBreakdownTag = "GPUB";
inline constexpr std::string_view kDeviceBusyTag = "BUSY";

// Adds PHAS, GPUB, BUSY, COLL and MEMS for `report` (with its events) to the digest's sections, made while
// encodeDigest() compresses the events (`report` must outlive that call).
void addDigestSummaries(const trace::Report &report, trace::DigestOptions &options);

// writeDigest() with these summaries: the digest as `trace digest` writes it. "" or the reason.
std::string writeDigestWithSummaries(const trace::Report &report, const std::string &path,
                                     trace::DigestOptions options = {});

// The whole report's GPU breakdown (GPUB) and each device's busy time (BUSY) as summary kinds
// (trace/reportsource.h).
struct DeviceBusyPyramid
{
    uint32_t device = 0;
    trace::LodPyramid pyramid;
};
using DeviceBusyPyramids = std::vector<DeviceBusyPyramid>;
extern const trace::SummaryKind<GpuBreakdown> kWholeBreakdown;
extern const trace::SummaryKind<DeviceBusyPyramids> kDeviceBusy;

// The whole report's breakdown, from the events or from its digest (summaryOf(kWholeBreakdown));
// nullopt with `error` when a digest has none.
std::optional<GpuBreakdown> wholeBreakdown(const trace::Report &report, std::string &error,
                                           const core::CancelToken *cancel = nullptr);

// BUSY of a report (empty for a digest without one; `error` when it does not decode). Not kept:
// the views keep the pyramids they draw.
std::vector<DeviceBusyPyramid> deviceBusyPyramids(const trace::Report &report, std::string &error);

} // namespace ps::core::analysis
