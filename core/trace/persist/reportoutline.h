#pragma once
// A report opened from its digest without its events (read it through reportsource.h): what the
// desktop needs to show a 1024-rank run at once. The report has no store: its layout
// (Report::layoutOnly, read through Report::layout()) keeps its processes, threads, names and
// tracks with no events (so that rows, labels and grouping work as usual); the outline says how
// many events each track has and where they lie, and holds the digest's other sections as stored
// (compressed), decoded on demand: the level-of-detail pyramids the timeline draws from (lodpyramid.h) and the
// summaries analyses read instead of the events (analysis/digestsummary.h, phasesummary.h).
// When the digest has its events (not --summary-only), they can be paged in with readDigest().

#include "core/trace/store/lodpyramid.h"
#include "core/trace/store/tracetypes.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::trace {

struct TrackExtent
{
    size_t events = 0;
    int64_t firstStart = 0;
    int64_t lastEnd = 0;
};

// A section as the digest stores it (codec 0: as is, 1: zstd). Small ones are held; large ones
// (pyramids of big reports) stay in the file and are read again when decoded, so that a run of
// 1024 outlines holds a few KB each.
struct StoredSection
{
    std::string tag;
    uint32_t codec = 0;
    uint64_t rawSize = 0;
    std::string bytes;     // held, unless inFile
    bool inFile = false;   // read from the digest at `offset` when decoded
    uint64_t offset = 0;   // in the digest
    uint64_t stored = 0;   // bytes in the digest
    uint64_t checksum = 0; // of the stored bytes (cacheHash), checked when read from the file
};
inline constexpr uint64_t kHeldSectionBytes = 64 * 1024;

struct ReportOutline
{
    std::string digestPath;
    bool hasEvents = false;          // the digest holds its events (readDigest pages them in)
    std::vector<TrackExtent> tracks; // per track of the report's store
    std::array<size_t, kTrackKindCount> counts{};
    size_t eventCount = 0;
    int64_t firstStart = 0; // over all tracks; 0, 0 when there are no events
    int64_t lastEnd = 0;
    std::vector<StoredSection> sections; // every section but META, EVTS and OUTL

    const StoredSection *stored(std::string_view tag) const;
    // The section's bytes decoded; nullopt when absent, or (with `error`) when it does not decode.
    std::optional<std::string> section(std::string_view tag, std::string &error) const;
};

// The digest sections of a report's outline, spelled once (the kinds below and the writer use them).
inline constexpr std::string_view kTrackExtentsTag = "TRKS";
inline constexpr std::string_view kTrackPyramidsTag = "PYRD";

// PYRD's content for a store: per track, u64 lane count then each lane's pyramid (lodpyramid.h).
// Lanes are the track's levels, at most kMaxPyramidLanes (deeper levels are not drawn folded).
inline constexpr uint16_t kMaxPyramidLanes = 8;
class EventStore;
std::string encodeTrackPyramids(const EventStore &store);
// The TRKS section: u64 track count, then per track u64 events, i64 first start, i64 last end.
std::string encodeTrackExtents(const EventStore &store);
bool decodeTrackExtents(std::string_view bytes, std::vector<TrackExtent> &tracks, std::string &error);

} // namespace ps::core::trace
