#include "core/trace/persist/digest.h"

#include "core/common/atomicfile.h"
#include "core/common/bytefields.h"
#include "core/common/jsonwriter.h"
#include "core/common/memorybudget.h"
#include "core/trace/persist/cachecodec.h"
#include "core/trace/persist/mappedfile.h"
#include "core/trace/persist/reportoutline.h"
#include "core/trace/persist/zstdcodec.h"
#include "core/trace/read/identity.h"
#include "core/trace/store/eventtimes.h"
#include "core/trace/store/namedcollectives.h"
#include "core/trace/tracesummary.h"

#include <simdjson.h>
#include <sys/stat.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <thread>

namespace ps::core::trace {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'P', 'S', 'D', 'I', 'G', 'E', 'S', 'T'};
constexpr size_t kFixedHeader = 24; // magic, version, section count, table checksum
constexpr size_t kEntrySize = 40;
constexpr uint32_t kMaxSections = 16;
// A hostile header could claim any decompressed size: no image is believed to be more than this
// many times its compressed size (real images compress 3-20x), so memory stays bounded by the
// file's size.
constexpr uint64_t kMaxRatio = 1024;

enum Codec : uint32_t { Raw = 0, Zstd = 1 };

constexpr uint32_t fourcc(std::string_view s)
{
    return s.size() != 4 ? 0
                         : uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
                               uint32_t(uint8_t(s[3])) << 24;
}
constexpr uint32_t kMeta = fourcc("META");

// A tag given as text: its first four characters (padded with spaces).
uint32_t tagOf(std::string_view text)
{
    char t[5] = "    ";
    for (size_t i = 0; i < 4 && i < text.size(); ++i)
        t[i] = text[i];
    return fourcc(t);
}
// "PYRD" of fourcc("PYRD").
std::string tagText(uint32_t tag)
{
    return {char(tag), char(tag >> 8), char(tag >> 16), char(tag >> 24)};
}
constexpr uint32_t kEvents = fourcc("EVTS");
constexpr uint32_t kOutline = fourcc("OUTL");
constexpr uint32_t kTracks = fourcc(kTrackExtentsTag);

struct Section
{
    uint32_t tag = 0;
    uint32_t codec = Raw;
    uint64_t offset = 0;
    uint64_t stored = 0;
    uint64_t raw = 0;
    uint64_t checksum = 0;
};

template <typename T> T get(const char *p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

std::string metaJson(const Report &r, const DigestOptions &options)
{
    JsonWriter w(0);
    w.beginObject().key("digest_version").value(int64_t(kDigestVersion));
    w.key("created_by").value(options.createdBy);
    w.key("source").beginObject();
    w.key("path").value(r.path).key("size").value(r.fileSize).key("mtime_ns").value(r.fileMtimeNs);
    w.key("format").value(traceFormatName(r.meta.format)).key("exporter_version").value(r.meta.exporterVersion);
    w.endObject();
    w.key("events").value(uint64_t(r.store->eventCount()));
    w.key("identity").beginObject();
    w.key("group").value(r.identity.group).key("rank").value(r.identity.rank).key("step").value(r.identity.step);
    w.key("host").value(r.identity.host.empty() ? r.meta.host : r.identity.host);
    w.key("world_size").value(r.identity.worldSize);
    // Which variable each recorded field came from ("RANK"), for tools that list digests.
    const LaunchIdentity &rec = r.identity.recorded;
    w.key("recorded").beginObject();
    for (const auto &[key, f] : {std::pair{"rank", &rec.rank}, std::pair{"world_size", &rec.worldSize},
                                 std::pair{"local_rank", &rec.localRank}, std::pair{"node_rank", &rec.nodeRank}})
        if (*f)
            w.key(key).beginObject().key("value").value(int64_t((*f)->value)).key("from").value((*f)->from).endObject();
    if (rec.group)
        w.key("group")
            .beginObject()
            .key("value")
            .value(rec.group->value)
            .key("from")
            .value(rec.group->from)
            .endObject();
    w.endObject();
    w.endObject();
    w.endObject();
    return w.str();
}

// Appends to `out` the zstd frame of the report's cache image, streamed from the store into the
// compressor: neither the image nor a buffer of the compressor's worst-case size is ever held.
// Returns the image's size, 0 when zstd fails.
uint64_t appendCompressedImage(const Report &report, const CacheKey &key, const DigestOptions &options,
                               std::string &out)
{
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, options.level);
    if (options.threads > 0) // refused by a libzstd built without threads: then it compresses alone
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, options.threads);
    std::string chunk(ZSTD_CStreamOutSize(), '\0');
    bool failed = false;
    const auto feed = [&](std::string_view piece, ZSTD_EndDirective mode) {
        ZSTD_inBuffer in{piece.data(), piece.size(), 0};
        for (;;) {
            ZSTD_outBuffer o{chunk.data(), chunk.size(), 0};
            const size_t left = ZSTD_compressStream2(cctx, &o, &in, mode);
            failed = failed || ZSTD_isError(left);
            if (failed)
                return;
            out.append(chunk.data(), o.pos);
            const bool done = mode == ZSTD_e_end ? left == 0 : in.pos == in.size;
            if (done)
                return;
        }
    };
    // The frame records the image's size, which the reader checks before it allocates.
    const auto pledge = [&](uint64_t size) { ZSTD_CCtx_setPledgedSrcSize(cctx, size); };
    const uint64_t size = streamCache(report, key, pledge, [&](std::string_view piece) {
        if (!failed && !piece.empty())
            feed(piece, ZSTD_e_continue);
    });
    feed({}, ZSTD_e_end);
    ZSTD_freeCCtx(cctx);
    return failed ? 0 : size;
}

// The report as its outline image holds it: every track kept, with no events, and no collective
// records (section CREC has them, read when an analysis asks: 1024 outlines of 17 k records
// each would hold 1.6 GB).
Report outlineOf(const Report &report)
{
    StoreParts parts = report.store->parts();
    parts.collectives = {};
    for (Track &t : parts.tracks) {
        TrackColumns none;
        none.uniformAttr = t.columns().uniformAttr;
        t = Track(t.key(), t.label(), t.levelCount(), t.auxSorted(), none);
    }
    Report outline;
    outline.path = report.path;
    outline.meta = report.meta;
    outline.identity = report.identity;
    outline.store = std::make_shared<EventStore>(std::move(parts));
    return outline;
}

void alignTo8(std::string &out)
{
    out.append((8 - out.size() % 8) % 8, '\0');
}

// Writes a table entry for the section now at [offset, out.size()).
void setEntry(std::string &out, size_t index, uint32_t tag, uint32_t codec, size_t offset, uint64_t raw)
{
    std::string e;
    appendField(e, tag);
    appendField(e, codec);
    appendField(e, uint64_t(offset));
    appendField(e, uint64_t(out.size() - offset));
    appendField(e, raw);
    appendField(e, cacheHash(out.data() + offset, out.size() - offset));
    std::memcpy(out.data() + kFixedHeader + kEntrySize * index, e.data(), kEntrySize);
}

} // namespace

bool isDigestPath(std::string_view path)
{
    return path.size() > kDigestSuffix.size() && path.substr(path.size() - kDigestSuffix.size()) == kDigestSuffix;
}

std::string digestSourcePath(std::string_view digestPath)
{
    return std::string(isDigestPath(digestPath) ? digestPath.substr(0, digestPath.size() - kDigestSuffix.size())
                                                : digestPath);
}

namespace {

// Every section but the events: the trace layer's, then those given, then the deferred ones.
std::vector<DigestSection> sectionsOf(const Report &report, const CacheKey &key, const DigestOptions &options)
{
    std::vector<DigestSection> sections = {
        {"META", metaJson(report, options), false},
        {"OUTL", encodeCache(outlineOf(report), key), true},
        {std::string(kTrackExtentsTag), encodeTrackExtents(*report.store), false},
        {std::string(kTrackPyramidsTag), encodeTrackPyramids(*report.store), true},
        {std::string(kCollectiveRecordsTag), encodeCollectiveRecords(collectivesOf(*report.store)), true},
        {std::string(kTraceSummaryTag), encodeTraceSummary(summarizeForDigest(report)), true}};
    sections.insert(sections.end(), options.extraSections.begin(), options.extraSections.end());
    for (const auto &make : options.deferredSections)
        for (DigestSection &s : make())
            sections.push_back(std::move(s));
    return sections;
}

} // namespace

std::string encodeDigest(const Report &report, const DigestOptions &options)
{
    std::error_code ec;
    const CacheKey key{fs::absolute(report.path, ec).lexically_normal().string(), report.fileSize, report.fileMtimeNs};
    std::string events;
    uint64_t imageSize = 0;
    std::jthread compressor; // the events compress while the summaries are made (joined on any exit)
    if (!options.summaryOnly)
        compressor = std::jthread([&] { imageSize = appendCompressedImage(report, key, options, events); });
    std::vector<DigestSection> sections = sectionsOf(report, key, options);
    std::vector<uint64_t> rawSizes;
    for (DigestSection &s : sections) {
        rawSizes.push_back(s.bytes.size());
        if (s.compress)
            s.bytes = zstdCompress(s.bytes, options.level);
    }
    if (compressor.joinable())
        compressor.join();
    if (!options.summaryOnly && imageSize == 0)
        return {};
    const uint32_t count = uint32_t(sections.size()) + (options.summaryOnly ? 0 : 1);
    std::string out(kMagic, sizeof kMagic);
    out.reserve(kFixedHeader + kEntrySize * count + 4096 + events.size());
    appendField(out, kDigestVersion);
    appendField(out, count);
    appendField(out, uint64_t(0));        // table checksum, set last
    out.append(kEntrySize * count, '\0'); // the table, set as the sections are written
    for (size_t i = 0; i < sections.size(); ++i) {
        alignTo8(out);
        const size_t at = out.size();
        out += sections[i].bytes;
        setEntry(out, i, tagOf(sections[i].tag), sections[i].compress ? Zstd : Raw, at, rawSizes[i]);
    }
    if (!options.summaryOnly) {
        alignTo8(out);
        const size_t eventsAt = out.size();
        out += events;
        setEntry(out, sections.size(), kEvents, Zstd, eventsAt, imageSize);
    }
    const uint64_t tableSum = cacheHash(out.data() + kFixedHeader, kEntrySize * count);
    std::memcpy(out.data() + 16, &tableSum, sizeof tableSum);
    return out;
}

namespace {

// When this process began: a digest temporary older than that is no live write of ours.
const int64_t kRunStartNs = [] {
    timespec ts{};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}();

// "<anything>.psdigest.XXXXXX": a temporary of writeFileAtomically for a digest.
bool isDigestTemporary(std::string_view name)
{
    const size_t dot = name.size() >= 7 ? name.size() - 7 : std::string_view::npos;
    if (dot == std::string_view::npos || name[dot] != '.' || !isDigestPath(name.substr(0, dot)))
        return false;
    return std::all_of(name.begin() + std::ptrdiff_t(dot) + 1, name.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
}

// Removes, once per folder and process, the digest temporaries a killed run left there: those
// last written before this run began (by more than a few seconds, so that another run's write in
// progress keeps its file), as the trace cache removes its stale temporaries.
void removeStaleTemporaries(const fs::path &folder)
{
    static std::mutex mutex;
    static std::set<std::string> done;
    {
        std::lock_guard lock(mutex);
        if (!done.insert(folder.string()).second)
            return;
    }
    std::error_code ec;
    for (fs::directory_iterator it(folder.empty() ? fs::path(".") : folder, ec), end; !ec && it != end;
         it.increment(ec)) {
        struct stat st
        {
        };
        const std::string name = it->path().filename().string();
        if (!isDigestTemporary(name) || ::lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        const int64_t mtimeNs = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
        if (mtimeNs < kRunStartNs - int64_t(5) * 1000000000)
            ::unlink(it->path().c_str());
    }
}

} // namespace

std::string writeDigest(const Report &report, const std::string &path, const DigestOptions &options)
{
    const std::string bytes = encodeDigest(report, options);
    if (bytes.empty())
        return path + ": cannot compress the events";
    std::error_code ec;
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty())
        fs::create_directories(parent, ec);
    removeStaleTemporaries(parent);
    return writeFileAtomically(path, bytes);
}

namespace {

// A digest mapped, with its section table: every entry lies inside the file and the table
// matches its checksum. A section's own checksum is checked when it is used (sectionAt), so that
// reading the small phase summary does not hash the events.
struct OpenDigest
{
    Mapping map;
    std::vector<Section> sections;
};

// "" or why the file is not a sound digest.
std::string readTable(const Mapping &f, std::vector<Section> &sections)
{
    if (f.size < kFixedHeader || std::memcmp(f.data(), kMagic, sizeof kMagic) != 0)
        return "not a ProfStudio digest (no PSDIGEST header)";
    const uint32_t version = get<uint32_t>(f.data() + 8), count = get<uint32_t>(f.data() + 12);
    if (version != kDigestVersion)
        return "digest format " + std::to_string(version) + ", this build reads format " +
               std::to_string(kDigestVersion) + " (digest the report again with this version)";
    if (count > kMaxSections || f.size < kFixedHeader + kEntrySize * count)
        return "damaged digest: the section table is cut short";
    if (cacheHash(f.data() + kFixedHeader, kEntrySize * count) != get<uint64_t>(f.data() + 16))
        return "damaged digest: the section table's checksum does not match";
    for (uint32_t i = 0; i < count; ++i) {
        const char *e = f.data() + kFixedHeader + kEntrySize * i;
        Section s{get<uint32_t>(e),      get<uint32_t>(e + 4),  get<uint64_t>(e + 8),
                  get<uint64_t>(e + 16), get<uint64_t>(e + 24), get<uint64_t>(e + 32)};
        if (s.offset > f.size || s.stored > f.size - s.offset)
            return "damaged digest: a section ends past the end of the file (truncated?)";
        sections.push_back(s);
    }
    return {};
}

bool openDigest(const std::string &path, OpenDigest &d, std::string &error)
{
    std::string why;
    switch (mapFile(path, d.map, why)) {
    case MapStatus::Mapped:
        why = readTable(d.map, d.sections);
        break;
    case MapStatus::Empty:
        why = "not a ProfStudio digest (empty file)";
        break;
    case MapStatus::CannotOpen:
    case MapStatus::CannotMap:
        break;
    }
    if (!why.empty())
        error = path + ": " + why;
    return why.empty();
}

// The section tagged `tag` once its checksum holds; null when there is none or (with `error`)
// when it is damaged.
const Section *sectionAt(const OpenDigest &d, uint32_t tag, std::string &error)
{
    for (const Section &s : d.sections) {
        if (s.tag != tag)
            continue;
        if (cacheHash(d.map.data() + s.offset, s.stored) == s.checksum)
            return &s;
        error = "damaged digest: the checksum of section " + tagText(tag) + " does not match";
        return nullptr;
    }
    return nullptr;
}

// What is wrong with the cache image header at the start of a compressed section, inflating only
// that header: a lying or stale image is refused before memory for the whole is allocated.
std::string imageHeaderProblem(const Mapping &f, const Section &s)
{
    std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx *)> dctx(ZSTD_createDCtx(), &ZSTD_freeDCtx);
    if (!dctx)
        throw std::bad_alloc();
    char head[kCacheHeaderSize];
    ZSTD_inBuffer in{f.data() + s.offset, size_t(s.stored), 0};
    ZSTD_outBuffer out{head, sizeof head, 0};
    while (out.pos < out.size && in.pos < in.size) {
        const size_t rc = ZSTD_decompressStream(dctx.get(), &out, &in);
        if (ZSTD_isError(rc))
            return std::string("damaged digest: the events do not decompress (") + ZSTD_getErrorName(rc) + ")";
        if (rc == 0)
            break; // the frame ended
    }
    std::string reason;
    if (checkCacheHeader({head, out.pos}, s.raw, reason))
        return {};
    return reason.rfind("stale", 0) == 0
               ? "made by another ProfStudio version (" + reason + "); digest the report again"
               : "damaged digest: its events do not decode (" + reason + ")";
}

// The decompressed cache image of the EVTS or OUTL section, in 8-aligned memory (left
// uninitialised: the decompressor writes every byte).
std::shared_ptr<uint64_t[]> inflateImage(const Mapping &f, const Section &s, std::string &error)
{
    const uint64_t frameSize = ZSTD_getFrameContentSize(f.data() + s.offset, s.stored);
    if (s.codec != Zstd || frameSize != s.raw || s.raw > s.stored * kMaxRatio + 4096) {
        error = "damaged digest: the events' compressed size and stated size disagree";
        return nullptr;
    }
    if (std::string why = imageHeaderProblem(f, s); !why.empty()) {
        error = why;
        return nullptr;
    }
    std::shared_ptr<uint64_t[]> buf(new uint64_t[(s.raw + 7) / 8]);
    const size_t n = ZSTD_decompress(buf.get(), s.raw, f.data() + s.offset, s.stored);
    if (ZSTD_isError(n) || n != s.raw) {
        error = std::string("damaged digest: the events do not decompress (") +
                (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short") + ")";
        return nullptr;
    }
    return buf;
}

// What the digest recorded of its report's identity (META) when it was made; empty when it has
// no readable META.
ReportIdentity recordedIdentity(const OpenDigest &d)
{
    ReportIdentity id;
    std::string why;
    const Section *meta = sectionAt(d, kMeta, why);
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (!meta || parser.parse(d.map.data() + meta->offset, size_t(meta->stored)).get(doc) != simdjson::SUCCESS)
        return id;
    std::string_view text;
    int64_t number = 0;
    if (doc.at_pointer("/identity/group").get(text) == simdjson::SUCCESS)
        id.group = std::string(text);
    if (doc.at_pointer("/identity/rank").get(number) == simdjson::SUCCESS && number >= 0 && number <= INT32_MAX)
        id.rank = int(number);
    if (doc.at_pointer("/identity/step").get(number) == simdjson::SUCCESS && number >= 0 && number <= INT32_MAX)
        id.step = int(number);
    if (doc.at_pointer("/source/path").get(text) == simdjson::SUCCESS)
        id.pid = identityFromPath(text).pid;
    return id;
}

// The recorded identity wins over the digest's file name (identity.h), with a warning naming
// both when they disagree.
void useRecordedIdentity(const OpenDigest &d, Report &report)
{
    const std::string differs = applyRecordedIdentity(report.identity, recordedIdentity(d));
    if (!differs.empty())
        report.meta.warnings.push_back(std::string(kInvalidDataWarning) +
                                       "the digest's name disagrees with the identity it recorded (" + differs +
                                       "): the recorded one is used");
}

// A report from a decoded cache image (the events' or the outline's), its identity from the
// digest's own path.
std::shared_ptr<Report> reportFromImage(const std::string &path, const OpenDigest &d,
                                        const std::shared_ptr<uint64_t[]> &image, uint64_t size, std::string &error)
{
    const std::span<const char> bytes(reinterpret_cast<const char *>(image.get()), size);
    auto report = std::make_shared<Report>();
    CacheKey key;
    std::string reason;
    if (!readCacheKey(bytes, key, reason) || !decodeCache(bytes, key, image, *report, reason)) {
        error = path + (reason.rfind("stale", 0) == 0
                            ? ": made by another ProfStudio version (" + reason + "); digest the report again"
                            : ": damaged digest: its events do not decode (" + reason + ")");
        return nullptr;
    }
    report->path = path;
    std::error_code ec;
    report->identity = identityOfFile(digestSourcePath(fs::absolute(path, ec).lexically_normal().string()));
    useRecordedIdentity(d, *report);
    finishReport(*report, fileStamp(path));
    return report;
}

bool hasSection(const OpenDigest &d, uint32_t tag)
{
    return std::any_of(d.sections.begin(), d.sections.end(), [tag](const Section &s) { return s.tag == tag; });
}

// The outline's track table and its summaries from the digest's other sections.
bool fillOutline(const OpenDigest &d, const EventStore &store, ReportOutline &o, std::string &why)
{
    const Section *trks = sectionAt(d, kTracks, why);
    if (!trks || !decodeTrackExtents({d.map.data() + trks->offset, trks->stored}, o.tracks, why) ||
        o.tracks.size() != store.tracks().size()) {
        why = why.empty() ? "damaged digest: its track table does not match its tracks" : "damaged digest: " + why;
        return false;
    }
    o.firstStart = std::numeric_limits<int64_t>::max();
    for (size_t i = 0; i < o.tracks.size(); ++i) {
        const TrackExtent &t = o.tracks[i];
        o.counts[size_t(store.track(uint32_t(i)).kind())] += t.events;
        o.eventCount += t.events;
        o.firstStart = t.events ? std::min(o.firstStart, t.firstStart) : o.firstStart;
        o.lastEnd = t.events ? std::max(o.lastEnd, t.lastEnd) : o.lastEnd;
    }
    if (o.eventCount == 0)
        o.firstStart = o.lastEnd = 0;
    for (const Section &s : d.sections) {
        if (s.tag == kMeta || s.tag == kEvents || s.tag == kOutline || s.tag == kTracks)
            continue;
        if (!sectionAt(d, s.tag, why))
            return false;
        StoredSection kept{tagText(s.tag), s.codec,  s.raw,     {}, s.stored > kHeldSectionBytes,
                           s.offset,       s.stored, s.checksum};
        if (!kept.inFile)
            kept.bytes.assign(d.map.data() + s.offset, s.stored);
        o.sections.push_back(std::move(kept));
    }
    return true;
}

} // namespace

ReportPtr readDigest(const std::string &path, std::string &error)
{
    OpenDigest d;
    if (!openDigest(path, d, error))
        return nullptr;
    std::string why;
    const Section *events = sectionAt(d, kEvents, why);
    if (!events && why.empty() && hasSection(d, kOutline))
        why = "a summary-only digest (trace digest --summary-only): it has no events to read; digest the "
              "report without --summary-only, or use what works from summaries (trace phases, the desktop)";
    // Until the image is decoded (or refused): a header bomb then costs this load alone.
    const MemoryBudget::Lease lease = MemoryBudget::inflation().lease(events ? events->raw : 0);
    std::shared_ptr<uint64_t[]> image = events ? inflateImage(d.map, *events, why) : nullptr;
    if (!image) {
        error = path + ": " + (why.empty() ? std::string("the digest holds no events section") : why);
        return nullptr;
    }
    return reportFromImage(path, d, image, events->raw, error);
}

ReportPtr readDigestOutline(const std::string &path, std::string &error)
{
    error.clear();
    OpenDigest d;
    if (!openDigest(path, d, error))
        return nullptr;
    std::string why;
    const Section *outl = sectionAt(d, kOutline, why);
    const MemoryBudget::Lease lease = MemoryBudget::inflation().lease(outl ? outl->raw : 0);
    std::shared_ptr<uint64_t[]> image = outl ? inflateImage(d.map, *outl, why) : nullptr;
    if (!image) {
        if (!why.empty())
            error = path + ": " + why;
        return nullptr;
    }
    std::shared_ptr<Report> report = reportFromImage(path, d, image, outl->raw, error);
    if (!report)
        return nullptr;
    report->layoutOnly = std::move(report->store); // no events here: the report says so
    auto outline = std::make_shared<ReportOutline>();
    outline->digestPath = path;
    outline->hasEvents = hasSection(d, kEvents);
    if (!fillOutline(d, *report->layoutOnly, *outline, why)) {
        error = path + ": " + why;
        return nullptr;
    }
    report->outline = std::move(outline);
    return report;
}

std::optional<std::string> readDigestSection(const std::string &path, std::string_view tag, std::string &error)
{
    error.clear();
    OpenDigest d;
    if (!openDigest(path, d, error))
        return std::nullopt;
    std::string why;
    const Section *s = sectionAt(d, tagOf(tag), why);
    if (!s) {
        if (!why.empty())
            error = path + ": " + why;
        return std::nullopt;
    }
    const std::string_view stored(d.map.data() + s->offset, s->stored);
    if (s->codec == Raw)
        return std::string(stored);
    std::optional<std::string> bytes = zstdDecompress(stored, s->raw, why, kMaxRatio);
    if (!bytes)
        error = path + ": damaged digest: section " + std::string(tag) + ": " + why;
    return bytes;
}

} // namespace ps::core::trace
