#pragma once
// One track of one report: the events of one kind on one thread or one GPU stream, stored as
// structure-of-arrays sorted by start (ties: longer first, so parents precede children).
//
// Resident cost is at most 24 bytes per event: start (8), duration (4), name (4), aux (4),
// level (2), attr (2) — and 20 or 22 on most tracks, because a level or attr column that would
// hold one value for the whole track is not stored (one lane: every GPU stream that runs its
// work in order; one NVTX domain, one API class or copy kind per thread). That headroom pays
// for what is not per event on every track: the window index (8 bytes per 64 events), the
// byte-count column of Memcpy and Memset tracks (8), and a small side table for durations of
// 2^32-1 ns (4.29 s) or more. The arrays are views into memory owned by the EventStore (heap or
// memory-mapped cache), valid as long as the store lives.

#include "core/trace/store/tracetypes.h"

#include <cstdint>
#include <optional>
#include <span>

namespace ps::core::trace {

// A duration too long for the 32-bit column; sorted by index.
struct LongDuration
{
    uint32_t index = 0;
    uint32_t reserved = 0;
    int64_t duration = 0;
};

// A start/end range that ended on another thread than it started on; sorted by index.
struct CrossThreadEnd
{
    uint32_t index = 0;
    uint32_t endTid = 0;
};

// Identity of a track inside its report. `id` is the OS thread id for CPU kinds and the stream
// id for GPU kinds; `deviceId` is only meaningful for GPU kinds.
struct TrackKey
{
    TrackKind kind = TrackKind::NvtxPushPop;
    uint32_t pid = 0;
    uint32_t id = 0;
    uint32_t deviceId = 0;
    TrackClass trackClass = TrackClass::Plain;
    friend bool operator==(const TrackKey &, const TrackKey &) = default;
};

// The columns of a track; all spans have the same length except those noted.
struct TrackColumns
{
    std::span<const int64_t> start;
    std::span<const uint32_t> duration; // 0xFFFFFFFF = look up in longDurations
    std::span<const NameId> name;
    std::span<const uint32_t> aux;
    std::span<const uint16_t> level;                 // empty = every event on level 0
    std::span<const uint16_t> attr;                  // empty = every event's attr is uniformAttr
    std::span<const uint64_t> bytes;                 // Memcpy / Memset only, else empty
    std::span<const LongDuration> longDurations;     // sparse
    std::span<const CrossThreadEnd> crossThreadEnds; // sparse
    // Block index for window queries: max end over events [0, (b+1)*kBlock), non-decreasing.
    std::span<const int64_t> blockMaxEnd;
    uint16_t uniformAttr = 0;
};

class Track
{
public:
    static constexpr uint32_t kDurationOverflow = 0xFFFFFFFFu;
    static constexpr size_t kBlock = 64;

    Track() = default;
    Track(TrackKey key, NameId label, uint16_t levelCount, bool auxSorted, TrackColumns columns)
        : m_key(key), m_label(label), m_levelCount(levelCount), m_auxSorted(auxSorted), m_c(columns)
    {
    }

    const TrackKey &key() const { return m_key; }
    TrackKind kind() const { return m_key.kind; }
    uint32_t pid() const { return m_key.pid; }
    uint32_t tid() const { return m_key.id; }      // CPU kinds
    uint32_t streamId() const { return m_key.id; } // GPU kinds
    uint32_t deviceId() const { return m_key.deviceId; }
    TrackClass trackClass() const { return m_key.trackClass; }
    // Thread name for CPU tracks (kNoName when the report has none), stream label for GPU ones.
    NameId label() const { return m_label; }
    // Number of distinct levels (max level + 1); 0 for an empty track.
    uint16_t levelCount() const { return m_levelCount; }
    // True when `aux` (correlationId) is non-decreasing, so correlation lookups binary-search.
    bool auxSorted() const { return m_auxSorted; }

    size_t size() const { return m_c.start.size(); }
    bool empty() const { return m_c.start.empty(); }

    int64_t start(size_t i) const { return m_c.start[i]; }
    int64_t duration(size_t i) const
    {
        const uint32_t d = m_c.duration[i];
        return d != kDurationOverflow ? int64_t(d) : longDuration(i);
    }
    int64_t end(size_t i) const { return start(i) + duration(i); }
    NameId name(size_t i) const { return m_c.name[i]; }
    uint32_t aux(size_t i) const { return m_c.aux[i]; }
    uint16_t level(size_t i) const { return m_c.level.empty() ? 0 : m_c.level[i]; }
    uint16_t attr(size_t i) const { return m_c.attr.empty() ? m_c.uniformAttr : m_c.attr[i]; }
    uint64_t bytes(size_t i) const { return m_c.bytes.empty() ? 0 : m_c.bytes[i]; }
    // For Kernel tracks: the class of task i; every kernel of a Plain track is compute.
    DeviceTaskClass taskClass(size_t i) const
    {
        return m_key.trackClass == TrackClass::DeviceTasks ? DeviceTaskClass(attr(i)) : DeviceTaskClass::Compute;
    }
    // For NvtxStartEnd: the thread a range ended on, when it differs from the track's.
    std::optional<uint32_t> crossThreadEndTid(size_t i) const;

    // Earliest start and latest end of the track; 0 for an empty track.
    int64_t firstStart() const { return empty() ? 0 : m_c.start.front(); }
    int64_t lastEnd() const { return m_c.blockMaxEnd.empty() ? 0 : m_c.blockMaxEnd.back(); }

    // Every event that overlaps [t0, t1) (end > t0 and start < t1) lies in the returned range.
    // O(log n); the range may also hold events that end before t0 (callers skip them), but never
    // more than the events between the first overlapping one and the last.
    IndexRange window(int64_t t0, int64_t t1) const;

    const TrackColumns &columns() const { return m_c; }

private:
    int64_t longDuration(size_t i) const;

    TrackKey m_key;
    NameId m_label = kNoName;
    uint16_t m_levelCount = 0;
    bool m_auxSorted = false;
    TrackColumns m_c;
};

} // namespace ps::core::trace
