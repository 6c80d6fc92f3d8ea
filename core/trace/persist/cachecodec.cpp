#include "core/trace/persist/cachecodec.h"

#include "core/trace/store/eventtimes.h"

#include "core/trace/read/identity.h"

#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

namespace ps::core::trace {

namespace {

constexpr char kMagic[8] = {'P', 'S', 'T', 'R', 'A', 'C', 'E', '\x01'};
constexpr uint64_t kVersion = 12; // 2: process streams, 3: rank, 4: uniform level/attr columns elided,
                                  // 5: readers other than nsys give categories, not domains,
                                  // 6: device memory series, 7: Ascend HCCL lanes named "HCCL <ip:port>" and
                                  // Ascend device tasks in MindStudio's classes, 8: XXH3 checksums,
                                  // 9: collective records and process groups after the short names,
                                  // 10: NCCL/RCCL kernels known by name have records too,
                                  // 11: a track class after each track's kind (Ascend device tasks
                                  // and HCCL lanes no longer told by attr ids and a name prefix)
                                  // and memory snapshots' peaks (ReportMeta::memoryPeaks),
                                  // 12: each process's recorded identity (ReportMeta::processIdentities)
constexpr size_t kHeaderSize = kCacheHeaderSize;

struct Header
{
    char magic[8];
    uint64_t version;
    uint64_t bodySize;
    uint64_t bodyHash;
    uint64_t headerHash; // over the fields above
    uint64_t reserved[3];
};
static_assert(sizeof(Header) == kHeaderSize);

// Writes the body of an image, piece by piece, to a sink: a string (the cache file), a size
// count, a hash or a compressor (a digest), so that a digest never holds the whole image.
class Out
{
public:
    explicit Out(const CacheSink &sink) : m_sink(sink) {}
    void u64(uint64_t v) { m_sink(std::string_view(reinterpret_cast<const char *>(&v), 8)); }
    template <typename T> void array(std::span<const T> a)
    {
        static constexpr char kZeros[8] = {};
        u64(a.size());
        m_sink(std::string_view(reinterpret_cast<const char *>(a.data()), a.size_bytes()));
        m_sink(std::string_view(kZeros, (8 - a.size_bytes() % 8) % 8));
    }
    void str(std::string_view s) { array(std::span<const char>(s.data(), s.size())); }

private:
    const CacheSink &m_sink;
};

class In
{
public:
    explicit In(std::span<const char> b) : m_b(b) {}
    bool ok = true;
    uint64_t u64()
    {
        if (!ok || m_pos + 8 > m_b.size()) {
            ok = false;
            return 0;
        }
        uint64_t v;
        std::memcpy(&v, m_b.data() + m_pos, 8);
        m_pos += 8;
        return v;
    }
    template <typename T> std::span<const T> array()
    {
        const uint64_t n = u64();
        if (!ok || n > (m_b.size() - m_pos) / sizeof(T)) {
            ok = false;
            return {};
        }
        const size_t bytes = size_t(n) * sizeof(T);
        const char *p = m_b.data() + m_pos;
        m_pos += bytes + (8 - bytes % 8) % 8;
        if (m_pos > m_b.size() || reinterpret_cast<uintptr_t>(p) % alignof(T) != 0) {
            ok = false;
            return {};
        }
        return {reinterpret_cast<const T *>(p), size_t(n)};
    }
    std::string str()
    {
        auto a = array<char>();
        return std::string(a.begin(), a.end());
    }
    bool atEnd() const { return m_pos == m_b.size(); }

private:
    std::span<const char> m_b;
    size_t m_pos = 0;
};

// XXH3 (libxxhash) over every byte: any flipped bit anywhere changes the result with
// probability 1 - 2^-64, and it runs at memory speed, so validating a mapped cache stays a small
// part of a warm open. (Formats up to cache 7 / digest 1 folded a tail of < 32 bytes with a plain
// XOR, which let two bit flips 8 bytes apart there cancel.) Fed in pieces of any size, it gives
// what one call over the whole gives.
class StreamHash
{
public:
    StreamHash() : m_state(XXH3_createState(), &XXH3_freeState)
    {
        if (!m_state)
            throw std::bad_alloc();
        XXH3_64bits_reset(m_state.get());
    }
    void add(std::string_view piece) { XXH3_64bits_update(m_state.get(), piece.data(), piece.size()); }
    uint64_t finish() const { return XXH3_64bits_digest(m_state.get()); }

private:
    std::unique_ptr<XXH3_state_t, XXH_errorcode (*)(XXH3_state_t *)> m_state;
};

uint64_t hashBytes(const void *data, size_t size)
{
    return XXH3_64bits(data, size);
}

Header makeHeader(uint64_t bodySize, uint64_t bodyHash)
{
    Header h{};
    std::memcpy(h.magic, kMagic, 8);
    h.version = kVersion;
    h.bodySize = bodySize;
    h.bodyHash = bodyHash;
    h.headerHash = hashBytes(&h, offsetof(Header, headerHash));
    return h;
}

// Fills the header of a buffer whose body follows kHeaderSize bytes.
void writeHeader(std::string &buf)
{
    const uint64_t size = buf.size() - kHeaderSize;
    const Header h = makeHeader(size, hashBytes(buf.data() + kHeaderSize, size));
    std::memcpy(buf.data(), &h, sizeof h);
}

// A recorded field: present, value, what it came from.
void writeRecorded(Out &o, const std::optional<Recorded<int>> &f)
{
    o.u64(f ? 1 : 0);
    o.u64(uint64_t(int64_t(f ? f->value : 0)));
    o.str(f ? std::string_view(f->from) : std::string_view());
}

void writeRecorded(Out &o, const std::optional<Recorded<std::string>> &f)
{
    o.u64(f ? 1 : 0);
    o.str(f ? std::string_view(f->value) : std::string_view());
    o.str(f ? std::string_view(f->from) : std::string_view());
}

void writeProcessIdentities(Out &o, const std::vector<ProcessIdentity> &processes)
{
    o.u64(processes.size());
    for (const ProcessIdentity &p : processes) {
        o.u64(p.pid);
        o.str(p.where);
        for (const auto *f : {&p.launch.rank, &p.launch.worldSize, &p.launch.localRank, &p.launch.nodeRank})
            writeRecorded(o, *f);
        writeRecorded(o, p.launch.group);
    }
}

} // namespace

uint64_t cacheHash(const void *data, size_t size)
{
    return hashBytes(data, size);
}

namespace {

void writeBody(const Report &report, const CacheKey &key, const CacheSink &sink)
{
    Out o(sink);
    o.str(key.path);
    o.u64(key.size);
    o.u64(uint64_t(key.mtimeNs));
    const ReportMeta &m = report.meta;
    o.u64(uint64_t(m.format));
    o.str(m.exporterVersion);
    o.str(m.schemaVersion);
    o.u64(m.utcStartNs ? 1 : 0);
    o.u64(uint64_t(m.utcStartNs.value_or(0)));
    o.str(m.host);
    o.u64(m.rank ? 1 : 0);
    o.u64(uint64_t(int64_t(m.rank.value_or(0))));
    o.u64(m.gpus.size());
    for (const GpuInfo &g : m.gpus) {
        o.u64(g.id);
        o.str(g.name);
        o.str(g.busLocation);
        o.str(g.uuid);
    }
    o.array(std::span<const uint32_t>(m.pids));
    std::array<uint64_t, kTrackKindCount> counts{};
    for (int k = 0; k < kTrackKindCount; ++k)
        counts[size_t(k)] = m.fileCounts[size_t(k)];
    o.array(std::span<const uint64_t>(counts));
    o.u64(m.warnings.size());
    for (const std::string &w : m.warnings)
        o.str(w);
    o.u64(m.processStreams.size());
    for (const ProcessStreamInfo &ps : m.processStreams) {
        o.u64(ps.pid);
        o.str(ps.file);
        o.str(ps.content);
    }
    o.u64(m.memory.size());
    for (const MemorySeries &ms : m.memory) {
        o.u64(ms.device);
        o.str(ms.source);
        o.array(std::span<const int64_t>(ms.timeNs));
        o.array(std::span<const int64_t>(ms.bytes));
    }
    o.str(encodeMemoryPeaks(m.memoryPeaks));
    writeProcessIdentities(o, m.processIdentities);

    const EventStore &s = *report.store;
    o.array(s.names().offsets());
    o.array(s.names().chars());
    o.array(s.processes());
    o.array(s.threads());
    o.array(s.launchConfigs());
    o.array(s.nvtxScopes());
    o.array(s.shortNames());
    o.array(s.collectives());
    o.array(s.processGroups());
    o.u64(s.tracks().size());
    for (const Track &t : s.tracks()) {
        o.u64(uint64_t(t.kind()));
        o.u64(uint64_t(t.trackClass()));
        o.u64(t.pid());
        o.u64(t.key().id);
        o.u64(t.deviceId());
        o.u64(t.label());
        o.u64(t.levelCount());
        o.u64(t.auxSorted() ? 1 : 0);
        const TrackColumns &c = t.columns();
        o.u64(c.uniformAttr);
        o.array(c.start);
        o.array(c.duration);
        o.array(c.name);
        o.array(c.aux);
        o.array(c.level);
        o.array(c.attr);
        o.array(c.bytes);
        o.array(c.longDurations);
        o.array(c.crossThreadEnds);
        o.array(c.blockMaxEnd);
    }
}

} // namespace

std::string encodeCache(const Report &report, const CacheKey &key)
{
    std::string buf(kHeaderSize, '\0');
    // One allocation for the image: growing a buffer of the store's size by doubling copies it
    // and faults its pages in twice.
    buf.reserve(kHeaderSize + report.store->residentBytes() + 4096);
    writeBody(report, key, [&](std::string_view piece) { buf.append(piece); });
    writeHeader(buf);
    return buf;
}

uint64_t streamCache(const Report &report, const CacheKey &key, const std::function<void(uint64_t)> &onSize,
                     const CacheSink &sink)
{
    // The header comes first and holds the body's size and hash: two passes over the events
    // find them before the third writes the body.
    uint64_t size = 0;
    writeBody(report, key, [&](std::string_view piece) { size += piece.size(); });
    StreamHash hash;
    writeBody(report, key, [&](std::string_view piece) { hash.add(piece); });
    const Header h = makeHeader(size, hash.finish());
    onSize(kHeaderSize + size);
    sink(std::string_view(reinterpret_cast<const char *>(&h), sizeof h));
    writeBody(report, key, sink);
    return kHeaderSize + size;
}

std::string sealCacheBody(std::string_view body)
{
    std::string out(kHeaderSize, '\0');
    out.append(body);
    writeHeader(out);
    return out;
}

bool checkCacheHeader(std::span<const char> bytes, uint64_t imageSize, std::string &reason)
{
    if (bytes.size() < kHeaderSize || imageSize < kHeaderSize) {
        reason = "corrupt: shorter than its header";
        return false;
    }
    Header h;
    std::memcpy(&h, bytes.data(), sizeof h);
    std::string problem;
    if (std::memcmp(h.magic, kMagic, 8) != 0)
        problem = "corrupt: bad magic";
    else if (h.headerHash != cacheHash(&h, offsetof(Header, headerHash)))
        problem = "corrupt: header checksum mismatch";
    else if (h.version != kVersion)
        problem = "stale: cache format " + std::to_string(h.version);
    else if (h.bodySize != imageSize - kHeaderSize)
        problem = "corrupt: truncated";
    if (problem.empty())
        return true;
    reason = std::move(problem);
    return false;
}

namespace {
// Checks the header and reads the key that opens the body; `in` is left after the key.
bool readHeaderAndKey(std::span<const char> bytes, Header &h, In &in, CacheKey &stored, std::string &reason)
{
    if (!checkCacheHeader(bytes, bytes.size(), reason))
        return false;
    std::memcpy(&h, bytes.data(), sizeof h);
    stored.path = in.str();
    stored.size = in.u64();
    stored.mtimeNs = int64_t(in.u64());
    if (!in.ok) {
        reason = "corrupt: layout";
        return false;
    }
    return true;
}
} // namespace

bool readCacheKey(std::span<const char> bytes, CacheKey &key, std::string &reason)
{
    Header h;
    In in(bytes.size() >= kHeaderSize ? bytes.subspan(kHeaderSize) : std::span<const char>());
    return readHeaderAndKey(bytes, h, in, key, reason);
}

namespace {

// Key first, so a stale cache is rejected before hashing the whole body.
bool keyMatches(const CacheKey &stored, const CacheKey &key, std::string &reason)
{
    const char *stale = stored.path != key.path         ? "stale: different path"
                        : stored.size != key.size       ? "stale: size changed"
                        : stored.mtimeNs != key.mtimeNs ? "stale: modification time changed"
                                                        : nullptr;
    if (stale)
        reason = stale;
    return !stale;
}

void readRecorded(In &in, std::optional<Recorded<int>> &f)
{
    const bool present = in.u64() != 0;
    const int64_t value = int64_t(in.u64());
    std::string from = in.str();
    if (present && value >= 0 && value <= INT32_MAX)
        f = Recorded<int>{int(value), std::move(from)};
    else if (present)
        in.ok = false;
}

void readRecorded(In &in, std::optional<Recorded<std::string>> &f)
{
    const bool present = in.u64() != 0;
    std::string value = in.str();
    std::string from = in.str();
    if (present)
        f = Recorded<std::string>{std::move(value), std::move(from)};
}

void readProcessIdentities(In &in, std::vector<ProcessIdentity> &out)
{
    const uint64_t n = in.u64();
    for (uint64_t i = 0; in.ok && i < n && i < 65536; ++i) {
        ProcessIdentity p;
        p.pid = uint32_t(in.u64());
        p.where = in.str();
        for (auto *f : {&p.launch.rank, &p.launch.worldSize, &p.launch.localRank, &p.launch.nodeRank})
            readRecorded(in, *f);
        readRecorded(in, p.launch.group);
        out.push_back(std::move(p));
    }
    in.ok = in.ok && n <= 65536;
}

// The GPUs, processes, counts, warnings and process streams of ReportMeta after its scalars.
void readMetaLists(In &in, ReportMeta &m)
{
    const uint64_t gpus = in.u64();
    for (uint64_t g = 0; in.ok && g < gpus && g < 4096; ++g) {
        GpuInfo gi;
        gi.id = uint32_t(in.u64());
        gi.name = in.str();
        gi.busLocation = in.str();
        gi.uuid = in.str();
        m.gpus.push_back(std::move(gi));
    }
    auto pids = in.array<uint32_t>();
    m.pids.assign(pids.begin(), pids.end());
    auto counts = in.array<uint64_t>();
    for (size_t k = 0; k < counts.size() && k < size_t(kTrackKindCount); ++k)
        m.fileCounts[k] = size_t(counts[k]);
    const uint64_t warnings = in.u64();
    for (uint64_t w = 0; in.ok && w < warnings && w < 4096; ++w)
        m.warnings.push_back(in.str());
    const uint64_t streams = in.u64();
    for (uint64_t i = 0; in.ok && i < streams && i < 65536; ++i) {
        ProcessStreamInfo ps;
        ps.pid = uint32_t(in.u64());
        ps.file = in.str();
        ps.content = in.str();
        m.processStreams.push_back(std::move(ps));
    }
    const uint64_t memory = in.u64();
    for (uint64_t i = 0; in.ok && i < memory && i < 65536; ++i) {
        MemorySeries ms;
        ms.device = uint32_t(in.u64());
        ms.source = in.str();
        const auto times = in.array<int64_t>();
        const auto bytes = in.array<int64_t>();
        if (times.size() != bytes.size()) {
            in.ok = false;
            return;
        }
        ms.timeNs.assign(times.begin(), times.end());
        ms.bytes.assign(bytes.begin(), bytes.end());
        m.memory.push_back(std::move(ms));
    }
    const std::string peaks = in.str();
    std::string peaksError;
    in.ok = in.ok && decodeMemoryPeaks(peaks, m.memoryPeaks, peaksError);
    readProcessIdentities(in, m.processIdentities);
}

bool readMeta(In &in, ReportMeta &m, std::string &reason)
{
    const uint64_t format = in.u64();
    if (format > uint64_t(TraceFormat::TorchMemory)) { // the last format (report.h)
        reason = "corrupt: bad format";
        return false;
    }
    m.format = TraceFormat(format);
    m.exporterVersion = in.str();
    m.schemaVersion = in.str();
    const bool hasUtc = in.u64() != 0;
    const int64_t utc = int64_t(in.u64());
    if (hasUtc)
        m.utcStartNs = utc;
    m.host = in.str();
    const bool hasRank = in.u64() != 0;
    const int64_t rank = int64_t(in.u64());
    if (hasRank)
        m.rank = int(rank);
    readMetaLists(in, m);
    return true;
}

TrackColumns readColumns(In &in)
{
    TrackColumns c;
    c.start = in.array<int64_t>();
    c.duration = in.array<uint32_t>();
    c.name = in.array<NameId>();
    c.aux = in.array<uint32_t>();
    c.level = in.array<uint16_t>();
    c.attr = in.array<uint16_t>();
    c.bytes = in.array<uint64_t>();
    c.longDurations = in.array<LongDuration>();
    c.crossThreadEnds = in.array<CrossThreadEnd>();
    c.blockMaxEnd = in.array<int64_t>();
    return c;
}

// One track: its key, label and flags, then its columns, which must agree in size.
// Starts and ends within kMaxEventTimeNs (eventtimes.h), as every reader makes them, so that an
// end (start + duration) can never overflow: one pass over the starts, at memory speed.
bool timesPlausible(const TrackColumns &c)
{
    int64_t lo = 0, hi = 0;
    for (const int64_t t : c.start) {
        lo = std::min(lo, t);
        hi = std::max(hi, t);
    }
    if (!isPlausibleTime(lo) || !isPlausibleTime(hi))
        return false;
    // Ends, too, lie within the range (a reader clips both), so a long duration stops short of it.
    return std::all_of(c.longDurations.begin(), c.longDurations.end(), [&](const LongDuration &d) {
        return d.index < c.start.size() && d.duration >= 0 && d.duration < kMaxEventTimeNs - c.start[d.index];
    });
}

bool readTrack(In &in, StoreParts &p, std::string &reason)
{
    TrackKey k;
    const uint64_t kind = in.u64();
    const uint64_t trackClass = in.u64();
    k.pid = uint32_t(in.u64());
    k.id = uint32_t(in.u64());
    k.deviceId = uint32_t(in.u64());
    const NameId label = NameId(in.u64());
    const uint16_t levels = uint16_t(in.u64());
    const bool auxSorted = in.u64() != 0;
    const uint64_t uniformAttr = in.u64();
    if (kind >= uint64_t(kTrackKindCount)) {
        reason = "corrupt: bad track kind";
        return false;
    }
    k.kind = TrackKind(kind);
    if (trackClass >= uint64_t(kTrackClassCount)) {
        reason = "corrupt: bad track class";
        return false;
    }
    k.trackClass = TrackClass(trackClass);
    if (uniformAttr > 0xFFFF) {
        reason = "corrupt: bad uniform attr";
        return false;
    }
    TrackColumns c = readColumns(in);
    c.uniformAttr = uint16_t(uniformAttr);
    const size_t n = c.start.size();
    // level may be absent only for a track of one level; attr and bytes may be absent.
    const bool levelOk = c.level.size() == n || (c.level.empty() && levels <= 1);
    if (c.duration.size() != n || c.name.size() != n || c.aux.size() != n || !levelOk ||
        (!c.attr.empty() && c.attr.size() != n) || (!c.bytes.empty() && c.bytes.size() != n) ||
        c.blockMaxEnd.size() != (n + Track::kBlock - 1) / Track::kBlock) {
        reason = "corrupt: column sizes disagree";
        return false;
    }
    if (!timesPlausible(c)) {
        reason = "corrupt: an event time beyond any clock";
        return false;
    }
    p.tracks.emplace_back(k, label, levels, auxSorted, c);
    return true;
}

bool readStoreParts(In &in, size_t bodySize, StoreParts &p, std::string &reason)
{
    const auto offsets = in.array<uint32_t>();
    const auto chars = in.array<char>();
    p.names = NameTable(offsets, chars);
    p.processes = in.array<ProcessInfo>();
    p.threads = in.array<ThreadInfo>();
    p.launchConfigs = in.array<LaunchConfig>();
    p.nvtxScopes = in.array<NvtxScope>();
    p.shortNames = in.array<ShortName>();
    p.collectives = in.array<CollectiveRecord>();
    p.processGroups = in.array<ProcessGroupInfo>();
    const uint64_t tracks = in.u64();
    if (!in.ok || tracks > bodySize / 8) {
        reason = "corrupt: bad track table";
        return false;
    }
    for (uint64_t ti = 0; ti < tracks && in.ok; ++ti)
        if (!readTrack(in, p, reason))
            return false;
    if (!in.ok || !in.atEnd()) {
        reason = "corrupt: layout";
        return false;
    }
    return true;
}

} // namespace

bool decodeCache(std::span<const char> bytes, const CacheKey &key, std::shared_ptr<const void> owner, Report &report,
                 std::string &reason)
{
    Header h;
    const std::span<const char> body =
        bytes.size() >= kHeaderSize ? bytes.subspan(kHeaderSize) : std::span<const char>();
    In in(body);
    CacheKey stored;
    if (!readHeaderAndKey(bytes, h, in, stored, reason) || !keyMatches(stored, key, reason))
        return false;
    if (h.bodyHash != cacheHash(body.data(), body.size())) {
        reason = "corrupt: checksum mismatch";
        return false;
    }
    StoreParts p;
    if (!readMeta(in, report.meta, reason) || !readStoreParts(in, body.size(), p, reason))
        return false;
    p.backingBytes = bytes.size();
    p.backing = std::move(owner);
    report.store = std::make_shared<EventStore>(std::move(p));
    report.identity = identityOfFile(key.path);
    finishReport(report, {key.size, key.mtimeNs, true});
    return true;
}

} // namespace ps::core::trace
