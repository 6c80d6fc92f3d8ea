#include "core/trace/persist/reportoutline.h"

#include "core/common/bytefields.h"
#include "core/trace/persist/cachecodec.h"
#include "core/trace/persist/zstdcodec.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/store/eventstore.h"

#include <fstream>

namespace ps::core::trace {

namespace {

// The pyramids of one track's lanes: one pass over its events, each level into its own builder.
std::vector<LodPyramid> lanePyramids(const Track &t)
{
    const size_t lanes = std::min<size_t>(t.levelCount(), kMaxPyramidLanes);
    std::vector<size_t> perLane(lanes, 0);
    for (size_t i = 0; i < t.size(); ++i)
        if (t.level(i) < lanes)
            ++perLane[t.level(i)];
    std::vector<LodPyramidBuilder> builders;
    for (size_t l = 0; l < lanes; ++l)
        builders.emplace_back(t.firstStart(), t.lastEnd(), perLane[l]);
    for (size_t i = 0; i < t.size(); ++i)
        if (const uint16_t l = t.level(i); l < lanes)
            builders[l].add(t.start(i), t.end(i), t.name(i));
    std::vector<LodPyramid> out;
    for (LodPyramidBuilder &b : builders)
        out.push_back(b.finish());
    return out;
}

// A section left in the file, read back and checked against the checksum it had when opened.
bool readStored(const std::string &path, const StoredSection &s, std::string &out)
{
    std::ifstream in(path, std::ios::binary);
    out.assign(s.stored, '\0');
    in.seekg(std::streamoff(s.offset));
    in.read(out.data(), std::streamsize(s.stored));
    return in && cacheHash(out.data(), out.size()) == s.checksum;
}

} // namespace

const StoredSection *ReportOutline::stored(std::string_view tag) const
{
    for (const StoredSection &s : sections)
        if (s.tag == tag)
            return &s;
    return nullptr;
}

std::optional<std::string> ReportOutline::section(std::string_view tag, std::string &error) const
{
    const StoredSection *s = stored(tag);
    if (!s)
        return std::nullopt;
    std::string fromFile;
    if (s->inFile && !readStored(digestPath, *s, fromFile)) {
        error = digestPath + ": section " + s->tag + " can no longer be read, or changed since it was opened";
        return std::nullopt;
    }
    const std::string &bytes = s->inFile ? fromFile : s->bytes;
    if (s->codec == 0)
        return bytes;
    std::string why;
    std::optional<std::string> out = zstdDecompress(bytes, s->rawSize, why);
    if (!out)
        error = digestPath + ": damaged digest: section " + s->tag + ": " + why;
    return out;
}

namespace {

std::optional<TrackPyramids> computePyramids(const Report &, const EventStore &events, const CancelToken *,
                                             std::string &)
{
    TrackPyramids out;
    for (const Track &t : events.tracks())
        out.push_back(lanePyramids(t));
    return out;
}

std::string encodePyramids(const TrackPyramids &tracks)
{
    std::string out;
    appendField(out, uint64_t(tracks.size()));
    for (const std::vector<LodPyramid> &lanes : tracks) {
        appendField(out, uint64_t(lanes.size()));
        for (const LodPyramid &p : lanes)
            appendPyramid(out, p);
    }
    return out;
}

bool decodePyramids(std::string_view bytes, TrackPyramids &out, std::string &why)
{
    size_t pos = 0;
    uint64_t count = 0;
    // Each track takes at least its lane count's 8 bytes: a count beyond that is a lie.
    if (!takeField(bytes, pos, count) || count > bytes.size() / 8) {
        why = "its track count does not match";
        return false;
    }
    out.resize(size_t(count));
    for (std::vector<LodPyramid> &lanes : out) {
        uint64_t n = 0;
        if (!takeField(bytes, pos, n) || n > kMaxPyramidLanes) {
            why = "a track's lane count is out of range";
            return false;
        }
        lanes.resize(size_t(n));
        for (LodPyramid &p : lanes)
            if (!readPyramid(bytes, pos, p, why))
                return false;
    }
    return true;
}

std::optional<TrackExtents> computeExtents(const Report &, const EventStore &events, const CancelToken *, std::string &)
{
    TrackExtents out;
    for (const Track &t : events.tracks())
        out.push_back({t.size(), t.firstStart(), t.lastEnd()});
    return out;
}

std::string encodeExtents(const TrackExtents &tracks)
{
    std::string out;
    appendField(out, uint64_t(tracks.size()));
    for (const TrackExtent &t : tracks) {
        appendField(out, uint64_t(t.events));
        appendField(out, t.firstStart);
        appendField(out, t.lastEnd);
    }
    return out;
}

} // namespace

const SummaryKind<TrackPyramids> kTrackPyramids{kTrackPyramidsTag, "track pyramids", &computePyramids, &encodePyramids,
                                                &decodePyramids};
const SummaryKind<TrackExtents> kTrackExtents{kTrackExtentsTag, "track extents", &computeExtents, &encodeExtents,
                                              &decodeTrackExtents};

std::string encodeTrackPyramids(const EventStore &store)
{
    std::string unused;
    return encodePyramids(*computePyramids({}, store, nullptr, unused));
}

std::string encodeTrackExtents(const EventStore &store)
{
    std::string unused;
    return encodeExtents(*computeExtents({}, store, nullptr, unused));
}

bool decodeTrackExtents(std::string_view bytes, std::vector<TrackExtent> &tracks, std::string &error)
{
    size_t pos = 0;
    uint64_t count = 0;
    if (!takeField(bytes, pos, count) || count != (bytes.size() - pos) / 24 || (bytes.size() - pos) % 24 != 0) {
        error = "the track table's size does not match its count";
        return false;
    }
    tracks.resize(size_t(count));
    // Times as far as 2^62 ns either way (146 years), so that offsets added later cannot overflow.
    constexpr int64_t kFar = int64_t(1) << 62;
    for (TrackExtent &t : tracks) {
        uint64_t events = 0;
        takeField(bytes, pos, events);
        takeField(bytes, pos, t.firstStart);
        takeField(bytes, pos, t.lastEnd);
        t.events = size_t(events);
        if (t.lastEnd < t.firstStart || t.firstStart < -kFar || t.lastEnd > kFar) {
            error = "a track's extent is out of range";
            return false;
        }
    }
    return true;
}

} // namespace ps::core::trace
