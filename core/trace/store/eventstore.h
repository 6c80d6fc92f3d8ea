#pragma once
// EventStore: all events of one report, format-neutral and immutable once built.
//
//   store ─ processes (pid, name)
//         ─ threads   (pid, tid, name)
//         ─ tracks    one per (kind, pid, thread) or (kind, pid, device, stream); see track.h
//         ─ names     interned strings (NameTable)
//         ─ launchConfigs, nvtxScopes, kernel short names
//
// Tracks are ordered by pid, then CPU kinds by tid and kind, then GPU kinds by device, stream
// and kind, so a view can draw them in store order. Readers fill a store through StoreBuilder
// (storebuilder.h); the cache (tracecache.h) recreates one over a memory-mapped file.
// An EventStore is safe to read from many threads at once.

#include "core/trace/store/collectiverecord.h"
#include "core/trace/store/nametable.h"
#include "core/trace/store/tracetypes.h"
#include "core/trace/store/track.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace ps::core::trace {

struct ProcessInfo
{
    uint32_t pid = 0;
    NameId name = kNoName; // process (executable) name when the report has it
};

struct ThreadInfo
{
    uint32_t pid = 0;
    uint32_t tid = 0;
    NameId name = kNoName;
};

// Kernel demangled name -> short name, sorted by `full`.
struct ShortName
{
    NameId full = kNoName;
    NameId shortName = kNoName;
};

// Everything an EventStore is made of, as views. `backing` owns the memory they point into.
struct StoreParts
{
    NameTable names;
    std::span<const ProcessInfo> processes; // sorted by pid
    std::span<const ThreadInfo> threads;    // sorted by (pid, tid)
    std::span<const LaunchConfig> launchConfigs;
    std::span<const NvtxScope> nvtxScopes;
    std::span<const ShortName> shortNames;
    std::span<const CollectiveRecord> collectives; // by event (track, index); collectiverecord.h
    std::span<const ProcessGroupInfo> processGroups;
    std::vector<Track> tracks;
    std::shared_ptr<const void> backing;
    size_t backingBytes = 0; // bytes resident for the store (heap) or mapped (cache)
};

class EventStore
{
public:
    EventStore();
    explicit EventStore(StoreParts parts);
    EventStore(const EventStore &) = delete;
    EventStore &operator=(const EventStore &) = delete;
    EventStore(EventStore &&) noexcept = default;
    EventStore &operator=(EventStore &&) noexcept = default;

    const NameTable &names() const { return m_p.names; }
    std::string_view name(NameId id) const { return m_p.names[id]; }

    std::span<const ProcessInfo> processes() const { return m_p.processes; }
    std::span<const ThreadInfo> threads() const { return m_p.threads; }
    std::span<const Track> tracks() const { return m_p.tracks; }
    const Track &track(uint32_t index) const { return m_p.tracks[index]; }
    std::span<const LaunchConfig> launchConfigs() const { return m_p.launchConfigs; }
    std::span<const NvtxScope> nvtxScopes() const { return m_p.nvtxScopes; }
    std::span<const ShortName> shortNames() const { return m_p.shortNames; }
    // What the report records about its collectives and process groups (collectiverecord.h).
    std::span<const CollectiveRecord> collectives() const { return m_p.collectives; }
    std::span<const ProcessGroupInfo> processGroups() const { return m_p.processGroups; }

    // Thread name of (pid, tid), kNoName when unknown.
    NameId threadName(uint32_t pid, uint32_t tid) const;
    // Short (base) kernel name for a demangled one; the argument itself when none is known.
    NameId shortNameOf(NameId full) const;
    // Launch geometry of a Kernel event, if known.
    std::optional<LaunchConfig> launchConfigOf(EventRef kernel) const;

    // Correlation (CUDA API call <-> GPU work), scoped by pid as correlation ids are per process.
    // The CudaApi call that launched a GPU event (Kernel/Memcpy/Memset/Sync), if present.
    std::optional<EventRef> apiCallFor(EventRef gpuEvent) const;
    // The GPU events launched by a CudaApi call (usually 0 or 1, several for graph launches).
    std::vector<EventRef> gpuWorkFor(EventRef apiCall) const;

    // Number of events of a kind over all tracks.
    size_t count(TrackKind kind) const { return m_counts[size_t(kind)]; }
    size_t eventCount() const { return m_total; }
    // Earliest start and latest end over all tracks (0, 0 when empty).
    int64_t firstStart() const { return m_first; }
    int64_t lastEnd() const { return m_last; }
    // Bytes this store keeps resident for its events, names included (see README of the bench).
    size_t residentBytes() const { return m_p.backingBytes; }

    // Tracks of one kind in store order (indices into tracks()).
    std::vector<uint32_t> tracksOfKind(TrackKind kind) const;

    const StoreParts &parts() const { return m_p; }

    // Data an analysis derives from the events once and keeps with the store, found by `key`
    // (the address of a tag the analysis owns; e.g. analysis/activityindex.h). The trace layer
    // knows nothing of analyses, hence the type erasure. make() runs once per key, unless it
    // returns null (cancelled); concurrent callers wait for it. Thread-safe.
    std::shared_ptr<const void> derived(const void *key,
                                        const std::function<std::shared_ptr<const void>()> &make) const;

private:
    struct DerivedData;

    StoreParts m_p;
    std::shared_ptr<DerivedData> m_derived; // shared_ptr keeps the store movable
    std::array<size_t, kTrackKindCount> m_counts{};
    size_t m_total = 0;
    int64_t m_first = 0;
    int64_t m_last = 0;
};

} // namespace ps::core::trace
