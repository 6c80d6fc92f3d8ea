#include "core/trace/read/reportsource.h"

#include "core/common/canceltoken.h"
#include "core/trace/persist/reportoutline.h"
#include "core/trace/store/namedcollectives.h"
#include "core/trace/store/report.h"

namespace ps::core::trace {

bool hasEvents(const Report &report)
{
    return report.store && !report.outline;
}

const EventStore *eventsOf(const Report &report, std::string &error)
{
    if (hasEvents(report))
        return report.store.get();
    error = report.path + (digestHasEvents(report)
                               ? ": opened from its digest without its events (open the digest whole to read them)"
                               : ": a summary-only digest: its events were left out (digest the report again "
                                 "without --summary-only, or open the report)");
    return nullptr;
}

const ReportOutline *digestOutlineOf(const Report &report)
{
    return report.outline.get();
}

ReportPtr withoutEvents(const Report &report)
{
    auto shell = std::make_shared<Report>();
    shell->path = report.path;
    shell->fileSize = report.fileSize;
    shell->fileMtimeNs = report.fileMtimeNs;
    shell->meta = report.meta;
    shell->identity = report.identity;
    auto outline = std::make_shared<ReportOutline>();
    const ReportExtent extent = extentOf(report);
    outline->digestPath = report.outline ? report.outline->digestPath : report.path;
    outline->eventCount = extent.events;
    outline->firstStart = extent.firstStart;
    outline->lastEnd = extent.lastEnd;
    shell->outline = std::move(outline);
    return shell;
}

bool digestHasEvents(const Report &report)
{
    return report.outline && report.outline->hasEvents;
}

std::optional<std::string> digestSection(const Report &report, std::string_view tag, std::string_view what,
                                         std::string &error)
{
    if (!report.outline) {
        error = report.path + ": not opened from a digest's summaries";
        return std::nullopt;
    }
    std::string why;
    std::optional<std::string> bytes = report.outline->section(tag, why);
    if (!bytes)
        error = !why.empty() ? why
                             : report.path + ": the digest has no " + std::string(what) + " (" + std::string(tag) + ")";
    return bytes;
}

std::optional<CollectiveRecords> collectiveRecordsOf(const Report &report, std::string &error)
{
    if (hasEvents(report))
        return CollectiveRecords(collectivesOf(*report.store));
    const std::optional<std::string> bytes = digestSection(report, kCollectiveRecordsTag, "collective records", error);
    if (!bytes)
        return std::nullopt;
    std::string why;
    std::optional<std::vector<CollectiveRecord>> records = decodeCollectiveRecords(*bytes, why);
    if (!records) {
        error = report.path + ": damaged digest: section " + std::string(kCollectiveRecordsTag) + ": " + why;
        return std::nullopt;
    }
    return CollectiveRecords(std::move(*records));
}

size_t collectiveRecordCount(const Report &report)
{
    if (hasEvents(report))
        return collectivesOf(*report.store).size();
    const StoredSection *s = report.outline ? report.outline->stored(kCollectiveRecordsTag) : nullptr;
    return s ? size_t(s->rawSize / sizeof(CollectiveRecord)) : 0;
}

namespace detail {

bool cancelled(const CancelToken *cancel)
{
    return cancel && cancel->cancelled();
}

std::shared_ptr<const void> keptSummary(const Report &report, const void *key)
{
    // derived() keeps what `make` returns unless it is null: a lookup that adds nothing.
    const auto &kept = report.layoutPtr(); // an outline's summaries are kept with its layout
    return kept ? kept->derived(key, [] { return std::shared_ptr<const void>(); }) : nullptr;
}

std::shared_ptr<const void> keepSummary(const Report &report, const void *key, std::shared_ptr<const void> value)
{
    // Made outside derived()'s lock (a summary may ask for another, e.g. the activity index);
    // when two threads made it, the first kept wins.
    const auto &kept = report.layoutPtr();
    return kept ? kept->derived(key, [&] { return value; }) : value;
}

} // namespace detail

ReportExtent extentOf(const Report &report)
{
    if (const ReportOutline *o = digestOutlineOf(report))
        return {o->eventCount, o->firstStart, o->lastEnd};
    if (!report.store)
        return {};
    return {report.store->eventCount(), report.store->firstStart(), report.store->lastEnd()};
}

TrackExtent trackExtentOf(const Report &report, uint32_t track)
{
    if (const ReportOutline *o = digestOutlineOf(report))
        return track < o->tracks.size() ? o->tracks[track] : TrackExtent{};
    if (!report.store || track >= report.store->tracks().size())
        return {};
    const Track &t = report.store->track(track);
    return {t.size(), t.firstStart(), t.lastEnd()};
}

std::optional<TrackPyramids> trackPyramidsOf(const Report &report, std::string &error)
{
    if (const ReportOutline *o = digestOutlineOf(report); o && !o->stored(kTrackPyramids.tag))
        return TrackPyramids{}; // a digest without pyramids draws its tracks empty
    std::optional<TrackPyramids> p = readSummary(report, kTrackPyramids, error);
    const size_t tracks = report.hasLayout() ? report.layout().tracks().size() : 0;
    if (p && p->size() != tracks) {
        error = report.path + ": damaged digest: section PYRD: its track count does not match";
        return std::nullopt;
    }
    return p;
}

} // namespace ps::core::trace
