#include "core/trace/store/storebuilder.h"

#include "core/trace/store/eventtimes.h"
#include "core/trace/store/ownedstore.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>

namespace ps::core::trace {

namespace {

struct StringHash
{
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct KeyHash
{
    size_t operator()(const TrackKey &k) const
    {
        uint64_t h = (uint64_t(k.kind) << 56) ^ (uint64_t(k.trackClass) << 60) ^ (uint64_t(k.pid) << 24) ^ k.id ^
                     (uint64_t(k.deviceId) << 40);
        return std::hash<uint64_t>{}(h * 0x9E3779B97F4A7C15ull);
    }
};

struct BuildTrack
{
    TrackKey key;
    std::vector<int64_t> start, end;
    std::vector<NameId> name;
    std::vector<uint32_t> aux;
    std::vector<uint16_t> attr;
    std::vector<uint64_t> bytes;
    std::vector<CrossThreadEnd> crossEnds;                          // index = insertion index until build()
    std::vector<std::pair<uint32_t, CollectiveRecord>> collectives; // (insertion index, record)
};

// Ordering of tracks in the store: per process, CPU tracks by thread then kind, then GPU
// tracks by device, stream and kind.
bool trackOrder(const TrackKey &a, const TrackKey &b)
{
    auto rank = [](const TrackKey &k) {
        const bool gpu = isGpuKind(k.kind);
        return std::tuple{k.pid, gpu, gpu ? k.deviceId : 0u, k.id, uint8_t(k.kind), uint8_t(k.trackClass)};
    };
    return rank(a) < rank(b);
}

template <typename T> void permute(std::vector<T> &v, const std::vector<uint32_t> &order)
{
    if (v.empty())
        return;
    std::vector<T> out(order.size());
    for (size_t i = 0; i < order.size(); ++i)
        out[i] = v[order[i]];
    v.swap(out);
}

// Lowest lane free at each event's start; equals nesting depth for properly nested ranges
// because parents come first (ties sorted longer first).
uint16_t computeLevels(const std::vector<int64_t> &start, const std::vector<int64_t> &end, std::vector<uint16_t> &level)
{
    level.resize(start.size());
    std::vector<int64_t> laneEnd;
    for (size_t i = 0; i < start.size(); ++i) {
        size_t l = 0;
        while (l < laneEnd.size() && laneEnd[l] > start[i])
            ++l;
        if (l == laneEnd.size()) {
            if (laneEnd.size() < 0xFFFF)
                laneEnd.push_back(end[i]);
            else
                l = laneEnd.size() - 1; // pathological overlap: share the last lane
        }
        laneEnd[l] = std::max(laneEnd[l], end[i]);
        level[i] = uint16_t(l);
    }
    return uint16_t(laneEnd.size());
}

template <typename T> void fit(std::vector<T> &v)
{
    if (v.capacity() > v.size() + v.size() / 16)
        v.shrink_to_fit();
}

template <typename T> size_t bytesOf(const std::vector<T> &v)
{
    return v.capacity() * sizeof(T);
}

// Sorts a track's events by start (ties: longer first, so parents precede children), keeping
// every column and the cross-thread end indices in step.
void sortEvents(BuildTrack &b)
{
    const size_t n = b.start.size();
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; ++i)
        sorted = b.start[i - 1] < b.start[i] || (b.start[i - 1] == b.start[i] && b.end[i - 1] >= b.end[i]);
    if (!sorted) {
        std::vector<uint32_t> perm(n);
        std::iota(perm.begin(), perm.end(), 0u);
        std::stable_sort(perm.begin(), perm.end(), [&](uint32_t x, uint32_t y) {
            return b.start[x] != b.start[y] ? b.start[x] < b.start[y] : b.end[x] > b.end[y];
        });
        permute(b.start, perm);
        permute(b.end, perm);
        permute(b.name, perm);
        permute(b.aux, perm);
        permute(b.attr, perm);
        permute(b.bytes, perm);
        if (!b.crossEnds.empty() || !b.collectives.empty()) {
            std::vector<uint32_t> inverse(n);
            for (size_t i = 0; i < n; ++i)
                inverse[perm[i]] = uint32_t(i);
            for (auto &c : b.crossEnds)
                c.index = inverse[c.index];
            for (auto &c : b.collectives)
                c.first = inverse[c.first];
        }
    }
    std::sort(b.crossEnds.begin(), b.crossEnds.end(),
              [](const CrossThreadEnd &x, const CrossThreadEnd &y) { return x.index < y.index; });
    if (!b.bytes.empty())
        b.bytes.resize(n, 0);
}

// Durations (32-bit, longer ones kept aside) and the running maximum end per block.
void fillDurations(const BuildTrack &b, OwnedTrack &o)
{
    const size_t n = b.start.size();
    o.duration.resize(n);
    o.blockMaxEnd.resize((n + Track::kBlock - 1) / Track::kBlock);
    int64_t runningMax = n ? b.end[0] : 0;
    for (size_t i = 0; i < n; ++i) {
        const int64_t dur = b.end[i] - b.start[i];
        if (dur >= int64_t(Track::kDurationOverflow)) {
            o.duration[i] = Track::kDurationOverflow;
            o.longDurations.push_back({uint32_t(i), 0, dur});
        } else {
            o.duration[i] = uint32_t(dur);
        }
        runningMax = std::max(runningMax, b.end[i]);
        if ((i + 1) % Track::kBlock == 0 || i + 1 == n)
            o.blockMaxEnd[i / Track::kBlock] = runningMax;
    }
}

// What a finished track tells the store besides its columns.
struct TrackSummary
{
    TrackKey key;
    uint16_t levelCount = 0;
    bool auxSorted = false;
    uint16_t uniformAttr = 0; // the attribute of every event when they all share one (column dropped)
};

// Turns a build track into its stored columns (sorted, levels, durations) and empties it.
void clampEndsToStarts(BuildTrack &b)
{
    for (size_t i = 0; i < b.start.size(); ++i)
        b.end[i] = std::max(b.end[i], b.start[i]);
}

TrackSummary finishTrack(BuildTrack &b, OwnedTrack &o)
{
    sortEvents(b);
    fillDurations(b, o);
    TrackSummary t;
    t.key = b.key;
    t.levelCount = computeLevels(b.start, b.end, o.level);
    if (t.levelCount <= 1)
        std::vector<uint16_t>().swap(o.level);
    t.auxSorted = std::is_sorted(b.aux.begin(), b.aux.end());
    const bool uniformAttr =
        !b.attr.empty() && std::all_of(b.attr.begin(), b.attr.end(), [&](uint16_t a) { return a == b.attr[0]; });
    t.uniformAttr = uniformAttr ? b.attr[0] : 0;
    if (uniformAttr)
        std::vector<uint16_t>().swap(b.attr);
    std::vector<int64_t>().swap(b.end);
    o.start = std::move(b.start);
    o.name = std::move(b.name);
    o.aux = std::move(b.aux);
    o.attr = std::move(b.attr);
    o.bytes = std::move(b.bytes);
    o.crossEnds = std::move(b.crossEnds);
    fit(o.start);
    fit(o.name);
    fit(o.aux);
    fit(o.attr);
    fit(o.bytes);
    b = BuildTrack{};
    return t;
}

size_t trackBytes(const OwnedTrack &o)
{
    return bytesOf(o.start) + bytesOf(o.duration) + bytesOf(o.name) + bytesOf(o.aux) + bytesOf(o.level) +
           bytesOf(o.attr) + bytesOf(o.bytes) + bytesOf(o.longDurations) + bytesOf(o.crossEnds) +
           bytesOf(o.blockMaxEnd);
}

// The store's parts over `owned` (which they keep alive), with each track's label.
StoreParts assembleParts(std::shared_ptr<OwnedStore> owned, const std::vector<TrackSummary> &tracks,
                         const std::vector<NameId> &labels)
{
    StoreParts parts;
    parts.names = NameTable(owned->offsets, owned->chars);
    parts.processes = owned->processes;
    parts.threads = owned->threads;
    parts.launchConfigs = owned->launchConfigs;
    parts.nvtxScopes = owned->scopes;
    parts.shortNames = owned->shortNames;
    parts.collectives = owned->collectives;
    parts.processGroups = owned->processGroups;
    size_t bytes = bytesOf(owned->chars) + bytesOf(owned->offsets) + bytesOf(owned->processes) +
                   bytesOf(owned->threads) + bytesOf(owned->launchConfigs) + bytesOf(owned->scopes) +
                   bytesOf(owned->shortNames) + bytesOf(owned->collectives) + bytesOf(owned->processGroups);
    for (size_t ti = 0; ti < owned->tracks.size(); ++ti) {
        const OwnedTrack &o = owned->tracks[ti];
        const TrackSummary &t = tracks[ti];
        TrackColumns c{o.start, o.duration,      o.name,      o.aux,         o.level,      o.attr,
                       o.bytes, o.longDurations, o.crossEnds, o.blockMaxEnd, t.uniformAttr};
        parts.tracks.emplace_back(t.key, labels[ti], t.levelCount, t.auxSorted, c);
        bytes += trackBytes(o);
    }
    parts.backingBytes = bytes + parts.tracks.capacity() * sizeof(Track);
    parts.backing = std::move(owned);
    return parts;
}

// Sorting a track remaps its collectives' indices in place; they are taken out after the sort,
// with their event's times (clamped, or clipped by clipImpossibleTimes: a record must not keep
// an end its event no longer has).
std::vector<std::pair<uint32_t, CollectiveRecord>> takeCollectives(BuildTrack &b)
{
    if (b.collectives.empty())
        return {};
    sortEvents(b); // finishTrack's own sort then finds the track sorted
    for (auto &[index, r] : b.collectives) {
        r.start = b.start[index];
        r.end = b.end[index];
    }
    return std::exchange(b.collectives, {});
}

// The records of the track now at `track`, in event order, with their events and times.
void appendCollectives(std::vector<std::pair<uint32_t, CollectiveRecord>> &records, uint32_t track,
                       std::vector<CollectiveRecord> &out)
{
    std::sort(records.begin(), records.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
    for (auto &[index, r] : records) {
        r.event = {track, index};
        out.push_back(r);
    }
}

} // namespace

struct StoreBuilder::Impl
{
    size_t impossibleMessageSizes = 0;  // collective records given counts no message has
    size_t impossibleTransferBytes = 0; // copies and sets of more bytes than any device holds
    std::vector<char> chars;
    std::vector<uint32_t> offsets{0, 0}; // name 0 is ""
    std::unordered_map<std::string, NameId, StringHash, std::equal_to<>> nameIndex;
    std::unordered_map<TrackKey, TrackHandle, KeyHash> trackIndex;
    std::vector<BuildTrack> tracks;
    std::map<uint32_t, NameId> processNames;
    std::map<std::pair<uint32_t, uint32_t>, NameId> threadNames;
    std::vector<LaunchConfig> launchConfigs;
    std::vector<NvtxScope> scopes;
    std::map<NameId, NameId> shortNames;
    std::vector<ProcessGroupInfo> processGroups;
    size_t events = 0;

    Impl() { nameIndex.emplace(std::string(), kNoName); }
};

StoreBuilder::StoreBuilder() : d(std::make_unique<Impl>())
{
}
StoreBuilder::~StoreBuilder() = default;
StoreBuilder::StoreBuilder(StoreBuilder &&) noexcept = default;
StoreBuilder &StoreBuilder::operator=(StoreBuilder &&) noexcept = default;

NameId StoreBuilder::intern(std::string_view s)
{
    auto it = d->nameIndex.find(s);
    if (it != d->nameIndex.end())
        return it->second;
    const NameId id = NameId(d->offsets.size() - 1);
    d->chars.insert(d->chars.end(), s.begin(), s.end());
    d->offsets.push_back(uint32_t(d->chars.size()));
    d->nameIndex.emplace(std::string(s), id);
    return id;
}

TrackHandle StoreBuilder::track(const TrackKey &key)
{
    auto [it, inserted] = d->trackIndex.try_emplace(key, TrackHandle(d->tracks.size()));
    if (inserted) {
        d->tracks.emplace_back();
        d->tracks.back().key = key;
    }
    return it->second;
}

void StoreBuilder::add(TrackHandle t, int64_t start, int64_t end, NameId name, uint32_t aux, uint16_t attr)
{
    BuildTrack &b = d->tracks[t];
    b.start.push_back(start);
    b.end.push_back(end); // clamped by finishTrack, after clipImpossibleTimes may count it
    b.name.push_back(name);
    b.aux.push_back(aux);
    b.attr.push_back(attr);
    ++d->events;
}

void StoreBuilder::addWithBytes(TrackHandle t, int64_t start, int64_t end, NameId name, uint32_t aux, uint16_t attr,
                                uint64_t bytes)
{
    BuildTrack &b = d->tracks[t];
    b.bytes.resize(b.start.size(), 0);
    add(t, start, end, name, aux, attr);
    // No copy moves 1 PiB: a larger count is a wrapped or forged one, and sums of them would wrap.
    if (bytes > kMaxTransferBytes) {
        ++d->impossibleTransferBytes;
        bytes = 0;
    }
    b.bytes.push_back(bytes);
}

size_t StoreBuilder::impossibleTransferBytes() const
{
    return d->impossibleTransferBytes;
}

void StoreBuilder::setLastEndTid(TrackHandle t, uint32_t endTid)
{
    BuildTrack &b = d->tracks[t];
    if (!b.start.empty())
        b.crossEnds.push_back({uint32_t(b.start.size() - 1), endTid});
}

void StoreBuilder::addCollective(TrackHandle t, const CollectiveRecord &r)
{
    BuildTrack &b = d->tracks[t];
    if (b.start.empty())
        return;
    CollectiveRecord &kept = b.collectives.emplace_back(uint32_t(b.start.size() - 1), r).second;
    if (kept.inNelems > kMaxCollectiveElements || kept.outNelems > kMaxCollectiveElements) {
        kept.inNelems = kept.inNelems > kMaxCollectiveElements ? -1 : kept.inNelems;
        kept.outNelems = kept.outNelems > kMaxCollectiveElements ? -1 : kept.outNelems;
        ++d->impossibleMessageSizes;
    }
}

size_t StoreBuilder::impossibleMessageSizes() const
{
    return d->impossibleMessageSizes;
}

void StoreBuilder::addProcessGroup(const ProcessGroupInfo &g)
{
    d->processGroups.push_back(g);
}

void StoreBuilder::reserve(TrackHandle t, size_t events)
{
    BuildTrack &b = d->tracks[t];
    b.start.reserve(events);
    b.end.reserve(events);
    b.name.reserve(events);
    b.aux.reserve(events);
    b.attr.reserve(events);
}

void StoreBuilder::setProcessName(uint32_t pid, NameId name)
{
    d->processNames[pid] = name;
}
void StoreBuilder::setThreadName(uint32_t pid, uint32_t tid, NameId name)
{
    d->threadNames[{pid, tid}] = name;
}

uint16_t StoreBuilder::launchConfig(const LaunchConfig &c)
{
    // Few distinct geometries per report; the last one repeats most often.
    auto &v = d->launchConfigs;
    for (size_t i = v.size(); i-- > 0;)
        if (v[i] == c)
            return uint16_t(i);
    if (v.size() >= kMaxLaunchConfigs)
        return kNoLaunchConfig;
    v.push_back(c);
    return uint16_t(v.size() - 1);
}

uint16_t StoreBuilder::nvtxScope(const NvtxScope &s)
{
    auto &v = d->scopes;
    for (size_t i = 0; i < v.size(); ++i)
        if (v[i] == s)
            return uint16_t(i);
    if (v.size() >= 0xFFFF)
        return 0xFFFF;
    v.push_back(s);
    return uint16_t(v.size() - 1);
}

void StoreBuilder::setShortName(NameId full, NameId shortName)
{
    d->shortNames[full] = shortName;
}

size_t StoreBuilder::eventCount() const
{
    return d->events;
}

void StoreBuilder::clipImpossibleTimes(EventTimeAudit &audit,
                                       const std::function<std::string_view(const TrackKey &)> &tableOf)
{
    std::vector<TableTimes> times;
    for (BuildTrack &t : d->tracks)
        if (!t.start.empty())
            times.push_back({tableOf(t.key), t.start, t.end});
    audit.clipEnds(times);
}

EventStore StoreBuilder::build() &&
{
    auto owned = std::make_shared<OwnedStore>();
    std::vector<uint32_t> order(d->tracks.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return trackOrder(d->tracks[a].key, d->tracks[b].key); });

    std::map<uint32_t, NameId> processes = d->processNames;
    owned->tracks.resize(order.size());
    std::vector<TrackSummary> summaries;
    for (size_t ti = 0; ti < order.size(); ++ti) {
        processes.try_emplace(d->tracks[order[ti]].key.pid, kNoName);
        clampEndsToStarts(d->tracks[order[ti]]);
        auto collectives = takeCollectives(d->tracks[order[ti]]);
        summaries.push_back(finishTrack(d->tracks[order[ti]], owned->tracks[ti]));
        appendCollectives(collectives, uint32_t(ti), owned->collectives);
    }

    for (const auto &[pid, name] : processes)
        owned->processes.push_back({pid, name});
    for (const auto &[k, name] : d->threadNames)
        owned->threads.push_back({k.first, k.second, name});
    std::vector<NameId> labels;
    for (const TrackSummary &t : summaries) {
        const TrackKey &k = t.key;
        if (isGpuKind(k.kind)) {
            labels.push_back(intern(k.id == kNoStream ? std::string("no stream") : "stream " + std::to_string(k.id)));
        } else {
            auto it = d->threadNames.find({k.pid, k.id});
            labels.push_back(it != d->threadNames.end() ? it->second : kNoName);
        }
    }
    owned->chars = std::move(d->chars);
    owned->offsets = std::move(d->offsets);
    owned->launchConfigs = std::move(d->launchConfigs);
    owned->scopes = std::move(d->scopes);
    owned->processGroups = std::move(d->processGroups);
    for (const auto &[full, shortName] : d->shortNames)
        owned->shortNames.push_back({full, shortName});
    d = std::make_unique<Impl>(); // frees the name index now
    return EventStore(assembleParts(std::move(owned), summaries, labels));
}

} // namespace ps::core::trace
