#pragma once
// Vocabulary shared by every part of the trace engine: track kinds, name ids, event references.
// Format-neutral: nsys, rocpd, Kineto and Ascend readers all map their rows onto these kinds.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ps::core::trace {

// Index into a report's NameTable. Id 0 is always the empty string ("no name").
using NameId = uint32_t;
inline constexpr NameId kNoName = 0;

// What a track holds. CPU-side kinds are keyed by (pid, tid); GPU-side kinds by
// (pid, deviceId, streamId). The per-event columns `aux` and `attr` mean, per kind:
//   kind          aux                      attr                          level
//   NvtxPushPop   colour ARGB (0 = none)   NvtxScope index               nesting depth
//   NvtxStartEnd  colour ARGB              NvtxScope index               lane (overlaps allowed)
//   NvtxMark      colour ARGB              NvtxScope index               0
//   CudaApi       correlationId            ApiClass                      lane
//   OsRuntime     0                        0                             lane
//   Kernel        correlationId            LaunchConfig index (0xFFFF = unknown), or a
//                                          DeviceTaskClass on a DeviceTasks track        lane
//   Memcpy        correlationId            copy kind (ENUM_CUDA_MEMCPY_OPER id)    lane
//   Memset        correlationId            memory kind                   lane
//   Sync          correlationId            sync type (ENUM_CUPTI_SYNC_TYPE id)     lane
// `level` is computed once at load: for properly nested ranges it equals the nesting depth,
// otherwise it is the lowest lane free at the event's start (no two events of one level overlap).
enum class TrackKind : uint8_t {
    NvtxPushPop = 0,
    NvtxStartEnd = 1,
    NvtxMark = 2,
    CudaApi = 3,
    OsRuntime = 4,
    Kernel = 5,
    Memcpy = 6,
    Memset = 7,
    Sync = 8,
};
inline constexpr int kTrackKindCount = 9;

// Stream id of GPU work that belongs to no stream (CUPTI reports event syncs and stream-wait-event
// records with streamId -1).
inline constexpr uint32_t kNoStream = 0xFFFFFFFFu;

// True for kinds keyed by GPU stream rather than by thread.
constexpr bool isGpuKind(TrackKind k)
{
    return k == TrackKind::Kernel || k == TrackKind::Memcpy || k == TrackKind::Memset || k == TrackKind::Sync;
}
// True for user-annotation kinds (NVTX, and roctx / mstx / record_function from other readers).
constexpr bool isRangeKind(TrackKind k)
{
    return k == TrackKind::NvtxPushPop || k == TrackKind::NvtxStartEnd;
}

// CudaApi attr: which API layer a call belongs to (nsys eventClass 0 / 1).
enum class ApiClass : uint16_t { Runtime = 0, Driver = 1, Other = 2 };

// Kernel launch geometry, interned per report (attr of Kernel events indexes it).
struct LaunchConfig
{
    uint32_t gridX = 0, gridY = 0, gridZ = 0;
    uint32_t blockX = 0, blockY = 0, blockZ = 0;
    friend bool operator==(const LaunchConfig &, const LaunchConfig &) = default;
};
inline constexpr uint16_t kNoLaunchConfig = 0xFFFF;
inline constexpr uint16_t kMaxLaunchConfigs = kNoLaunchConfig; // ids below "unknown"

// What a track holds where its kind alone does not say; the reader sets it, it is part of the
// track's key and stored in the cache.
enum class TrackClass : uint8_t {
    Plain = 0, // the kind says it all
    // Kernel: the device tasks of a format without launch geometry (Ascend TASK rows), of every
    // class MindStudio Insight knows but memory and sync. attr is a DeviceTaskClass, not a
    // LaunchConfig index.
    DeviceTasks = 1,
    // NvtxStartEnd: the collectives of one communication group (Ascend's HCCL ops), on a lane the
    // reader adds; its thread name is the group's root "ip:port".
    CollectiveLane = 2,
};
inline constexpr int kTrackClassCount = 3;

// attr of an event on a DeviceTasks track. kernel_sum counts compute tasks only; the breakdown
// classes the others communication / other.
enum class DeviceTaskClass : uint16_t { Compute = 0, Communication = 1, Other = 2 };

// NVTX domain + category of a range or mark, interned per report (attr of NVTX events).
struct NvtxScope
{
    uint32_t pid = 0;
    uint64_t domainId = 0; // 0 = default domain
    NameId domainName = kNoName;
    uint32_t category = 0; // 0 = none
    NameId categoryName = kNoName;
    friend bool operator==(const NvtxScope &, const NvtxScope &) = default;
};

// One event of one report: track index within the EventStore, event index within the track.
struct EventRef
{
    uint32_t track = 0;
    uint32_t index = 0;
    friend bool operator==(const EventRef &, const EventRef &) = default;
};

// Half-open index range [first, last) into a track.
struct IndexRange
{
    size_t first = 0;
    size_t last = 0;
    size_t size() const { return last - first; }
    bool empty() const { return first >= last; }
};

} // namespace ps::core::trace
