#pragma once
// One way to read a report, whether its events are in memory, memory-mapped from the cache, or
// only summarised in its digest (a report opened as an outline, reportoutline.h). Analyses and
// views ask here; only this file and the digest reader look at Report::outline.
//
//   const EventStore *ev = eventsOf(report, error);      // null with the reason: no events here
//   auto cells = summaryOf(report, kPhaseCells, error);  // null with the reason, never empty
//
// A summary kind is one analysis of a whole report that a digest can carry: a four-character tag
// (its digest section), how to compute it from the events, how to encode and decode the section,
// and (when partial answers add up, e.g. totals of two reports) how two merge. summaryOf() takes
// the digest's section when the report is an outline, computes from the events otherwise, and
// keeps the value with the report's layout (its store, or an outline's layoutOnly;
// EventStore::derived), so a report is summarised once.
// A question about a window (a view's visible range) asks for the whole report's summary and
// selects from it when the summary holds per-event detail (range occurrences); otherwise it needs
// the events (eventsOf) and says so when they are not there.
//
// Kinds today: SUMS range/kernel totals and range occurrences (tracesummary.h), TRKS track
// extents and PYRD track pyramids (here), PHAS phase cells (analysis/phasesummary.h), GPUB the
// GPU breakdown and BUSY each device's busy pyramid (analysis/digestsummary.h), COLL each
// collective record's communication time (analysis/collectivewait.h), MEMS each snapshot
// device's peak, what held it and its OOMs (analysis/memorysummary.h).
//
// Adding one (the collectives summary, say), all in the analysis's own files:
//   1. the value type (struct CollectiveSummary) and encode/decode between it and section bytes;
//   2. const SummaryKind<CollectiveSummary> kCollectiveSummary{kCollectiveSummaryTag, "collective
//      summary", &computeSummary, &encodeSummary, &decodeSummary};
//   3. add summarySection(report, kCollectiveSummary) to what addDigestSummaries() writes;
//   4. every caller, CLI and GUI alike, asks summaryOf(report, kCollectiveSummary, error).
// A digest made before the kind existed answers with an error naming the digest and the section.

#include "core/common/canceltoken.h"
#include "core/trace/persist/reportoutline.h"
#include "core/trace/store/collectiverecord.h"
#include "core/trace/store/report.h"
#include "core/trace/store/tracetypes.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::trace {

// Does the report hold its events (loaded, or mapped from the cache)? False for a digest opened
// without them: its store then has processes, threads, names and tracks, but no events.
bool hasEvents(const Report &report);
// The report's events; null with `error` naming the report when it has none here.
const EventStore *eventsOf(const Report &report, std::string &error);
// The digest a report without events was opened from (null for a report with events).
const ReportOutline *digestOutlineOf(const Report &report);
// The report without its events or store: path, file stamp, meta, identity and its extent, as an
// outline of the digest it came from (or of its own path). What a run matched report by report
// keeps of each report once its analysis has taken what it needs (collectivesOfOpened).
ReportPtr withoutEvents(const Report &report);
// Does the digest the report was opened from hold its events, so that they can be paged in?
bool digestHasEvents(const Report &report);
// The digest's section `tag`, decoded: nullopt with `error` when the report is not an outline,
// its digest lacks the section, or the section does not decode.
std::optional<std::string> digestSection(const Report &report, std::string_view tag, std::string_view what,
                                         std::string &error);

// A report's collective records (collectiverecord.h): its store's when it has its events, else
// decoded from its digest's CREC section. Not kept with the report: an analysis takes what it
// needs and lets them go, so 1024 outlines do not hold 17 k records each.
class CollectiveRecords
{
public:
    CollectiveRecords() = default;
    explicit CollectiveRecords(std::span<const CollectiveRecord> held) : m_held(held) {}
    explicit CollectiveRecords(std::vector<CollectiveRecord> decoded) : m_decoded(std::move(decoded)) {}
    std::span<const CollectiveRecord> records() const { return m_decoded.empty() ? m_held : m_decoded; }

private:
    std::span<const CollectiveRecord> m_held;
    std::vector<CollectiveRecord> m_decoded;
};
// Nullopt with `error` when the digest's section is absent or damaged.
std::optional<CollectiveRecords> collectiveRecordsOf(const Report &report, std::string &error);
// How many records the report has (a digest's section says it without decoding).
size_t collectiveRecordCount(const Report &report);

template <class T> struct SummaryKind
{
    std::string_view tag;  // the digest section
    std::string_view what; // in messages: "phase summary"
    // From the events (`events` is the report's store); nullopt with `error` (or cancelled).
    std::optional<T> (*compute)(const Report &report, const EventStore &events, const CancelToken *cancel,
                                std::string &error);
    std::string (*encode)(const T &value);
    bool (*decode)(std::string_view bytes, T &value, std::string &error);
    // Adds `part` to `into`, for kinds whose values add up over reports; null otherwise.
    void (*merge)(T &into, const T &part) = nullptr;
};

namespace detail {
bool cancelled(const CancelToken *cancel);
// The value kept under `key` with the report's layout, or null.
std::shared_ptr<const void> keptSummary(const Report &report, const void *key);
// Keeps `value` under `key` unless one is there already; returns the one kept.
std::shared_ptr<const void> keepSummary(const Report &report, const void *key, std::shared_ptr<const void> value);
} // namespace detail

// This summary of this report, not kept: from the digest's section for a report without
// events, from the events otherwise. Nullopt with `error` (naming the report and the section)
// when neither gives it, or when cancelled.
template <class T>
std::optional<T> readSummary(const Report &report, const SummaryKind<T> &kind, std::string &error,
                             const CancelToken *cancel = nullptr)
{
    if (hasEvents(report)) {
        std::optional<T> made = kind.compute(report, *report.store, cancel, error);
        return detail::cancelled(cancel) ? std::nullopt : made;
    }
    const std::optional<std::string> bytes = digestSection(report, kind.tag, kind.what, error);
    if (!bytes)
        return std::nullopt;
    T value{};
    std::string why;
    if (!kind.decode(*bytes, value, why)) {
        error = report.path + ": damaged digest: section " + std::string(kind.tag) + ": " + why;
        return std::nullopt;
    }
    return value;
}

// readSummary(), computed or decoded once and kept with the report's layout.
template <class T>
std::shared_ptr<const T> summaryOf(const Report &report, const SummaryKind<T> &kind, std::string &error,
                                   const CancelToken *cancel = nullptr)
{
    if (auto kept = detail::keptSummary(report, &kind))
        return std::static_pointer_cast<const T>(kept);
    std::optional<T> value = readSummary(report, kind, error, cancel);
    if (!value)
        return nullptr; // errors and cancelled answers are not kept
    return std::static_pointer_cast<const T>(
        detail::keepSummary(report, &kind, std::make_shared<const T>(std::move(*value))));
}

// The section a digest stores for this kind, computed from the report's events.
template <class T>
std::optional<std::string> summarySection(const Report &report, const SummaryKind<T> &kind, std::string &error)
{
    const EventStore *events = eventsOf(report, error);
    if (!events)
        return std::nullopt;
    std::optional<T> value = kind.compute(report, *events, nullptr, error);
    return value ? std::optional<std::string>(kind.encode(*value)) : std::nullopt;
}

// Track extents (TRKS): per track of the report's store, how many events and where they lie.
using TrackExtents = std::vector<TrackExtent>;
extern const SummaryKind<TrackExtents> kTrackExtents;

// The report's event count and extent, from the events or its digest's outline (never fails:
// an outline always has its tracks' extents).
struct ReportExtent
{
    size_t events = 0;
    int64_t firstStart = 0; // 0, 0 when there are no events
    int64_t lastEnd = 0;
};
ReportExtent extentOf(const Report &report);
// One track's extent, the same way (zeros for a track the report does not have).
TrackExtent trackExtentOf(const Report &report, uint32_t track);

// Track pyramids (PYRD): per track, each lane's level-of-detail pyramid (lodpyramid.h). Large:
// callers that draw them keep the few they draw (readSummary, not summaryOf).
using TrackPyramids = std::vector<std::vector<LodPyramid>>;
extern const SummaryKind<TrackPyramids> kTrackPyramids;
// The pyramids of every track of the report, one entry per track of its store.
std::optional<TrackPyramids> trackPyramidsOf(const Report &report, std::string &error);

} // namespace ps::core::trace
