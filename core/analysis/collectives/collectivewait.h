#pragma once
// The GPU breakdown's communication split in two (breakdown.h):
//   communication_wait      the part of each matched collective kernel before its instance's last
//                           arrival (collectives.h: the member's wait), where the rank sat in the
//                           kernel waiting for a slower one;
//   communication_transfer  the rest: after the last arrival, and every collective kernel that is
//                           not matched (an incomplete instance, bad input, a report without
//                           collective records, or a communication task that is no collective).
// Their sum is the breakdown's communication exactly: the wait is measured on the time the
// breakdown counts as communication (GPU communication work not under compute, priority compute >
// communication), so wait <= communication and transfer = communication - wait.
//
// A digest carries what the wait needs without its events: the COLL summary holds, per collective
// record of the report's store, the parts of its kernel the breakdown counts as communication.
// The waits come from matching the run's records (they travel in the digest's CREC), so a run of
// summary-only digests splits its communication as its reports do.

#include "core/analysis/breakdown/breakdown.h"
#include "core/analysis/breakdown/intervals.h"
#include "core/analysis/collectives/collectives.h"
#include "core/trace/read/reportsource.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::analysis {

struct CollectiveSummary
{
    // Per record of trace::collectivesOf(store): pieces[first[i], first[i + 1]) are the parts of its
    // kernel counted as communication, ascending and disjoint (usually the whole kernel).
    std::vector<uint64_t> first{0};
    std::vector<Interval> pieces;

    size_t records() const { return first.size() - 1; }
    std::span<const Interval> of(size_t record) const;
};

inline constexpr std::string_view kCollectiveSummaryTag = "COLL";
extern const trace::SummaryKind<CollectiveSummary> kCollectiveSummary;

// From the events, under the breakdown's filter (a window, a device or a stream): records on
// tracks the filter leaves out get no pieces. Nullopt when cancelled.
std::optional<CollectiveSummary> collectiveSummaryOf(const trace::EventStore &store, const WorkClassTable &classes,
                                                     const BreakdownFilter &filter,
                                                     const core::CancelToken *cancel = nullptr);

// A member's wait on its report's own clock: [arrival, arrival + wait), and its record.
struct MemberWait
{
    size_t record = 0;
    int64_t start = 0;
    int64_t end = 0;
};

struct CommunicationSplit
{
    int64_t waitNs = 0;
    int64_t transferNs = 0;
};

// wait = the summary's pieces under the report's members' waits (their union), at most
// `communicationNs`; transfer = communicationNs - wait.
CommunicationSplit splitCommunication(int64_t communicationNs, const CollectiveSummary &summary,
                                      std::span<const MemberWait> waits);

struct RunWaits
{
    std::vector<std::vector<MemberWait>> byReport; // per report given, its members of complete instances
    std::vector<std::string> problems;             // why nothing could be matched (bad input), if so
    bool cancelled = false;
};
// The reports' collectives matched (clock-aligned as trace collectives does) and each member's
// wait put back on its report's own clock.
RunWaits collectiveWaitsOfRun(std::span<const trace::ReportPtr> reports, const core::CancelToken *cancel = nullptr);
// The same from an analysis already made with these offsets.
std::vector<std::vector<MemberWait>> memberWaitsByReport(const CollectiveAnalysis &a, std::span<const int64_t> offsets,
                                                         size_t reports);

// The whole report's communication split (its GPU breakdown and COLL summary, from the events or
// its digest); nullopt with `error` when the digest lacks them.
std::optional<CommunicationSplit> wholeCommunicationSplit(const trace::Report &report, int64_t communicationNs,
                                                          std::span<const MemberWait> waits, std::string &error,
                                                          const core::CancelToken *cancel = nullptr);

} // namespace ps::core::analysis
