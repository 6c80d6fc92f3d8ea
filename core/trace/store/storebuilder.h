#pragma once
// StoreBuilder: how a reader fills an EventStore. Single-threaded; a reader that reads in
// parallel collects rows per thread and adds them here afterwards.
//
// Usage (any format):
//   StoreBuilder b;
//   NameId n = b.intern("ncclAllReduce");
//   TrackHandle t = b.track({TrackKind::Kernel, pid, streamId, deviceId});
//   b.add(t, start, end, n, correlationId, b.launchConfig({...}));
//   b.setThreadName(pid, tid, b.intern("python"));
//   EventStore store = std::move(b).build();
//
// Events may be added in any order; build() sorts each track by start (skipping the sort when
// already sorted), computes levels (depth / lanes) and the window index once, and packs the
// columns. Times are int64 ns in the report's own clock; an end before its start is clamped to
// the start (duration 0) by build(), or counted and clamped by clipImpossibleTimes().

#include "core/trace/store/eventstore.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

namespace ps::core::trace {

using TrackHandle = uint32_t;
// 1 PiB: more than any device holds, so no copy or set moves it.
inline constexpr uint64_t kMaxTransferBytes = uint64_t(1) << 50;
class EventTimeAudit;

class StoreBuilder
{
public:
    StoreBuilder();
    ~StoreBuilder();
    StoreBuilder(StoreBuilder &&) noexcept;
    StoreBuilder &operator=(StoreBuilder &&) noexcept;

    // Interns a string; equal strings give equal ids. "" is kNoName.
    NameId intern(std::string_view s);
    // The track for a key, created on first use. Handles stay valid until build().
    TrackHandle track(const TrackKey &key);
    // Appends an event. `aux` and `attr` per kind as documented in tracetypes.h.
    void add(TrackHandle t, int64_t start, int64_t end, NameId name, uint32_t aux = 0, uint16_t attr = 0);
    // Memcpy / Memset: the same with a byte count; one beyond kMaxTransferBytes is kept as 0 and
    // counted by impossibleTransferBytes().
    void addWithBytes(TrackHandle t, int64_t start, int64_t end, NameId name, uint32_t aux, uint16_t attr,
                      uint64_t bytes);
    // NvtxStartEnd: marks the event just added to `t` as ending on thread `endTid`.
    void setLastEndTid(TrackHandle t, uint32_t endTid);
    // Describes the event just added to `t` as a collective (collectiverecord.h); the record's
    // `event` is filled in by build(), which keeps the records in (track, index) order.
    // A record's element counts beyond kMaxCollectiveElements are no message any device sent (a
    // wrapped or forged count, which once gave a busbw of 1.4e14 GB/s): kept as not recorded (-1),
    // and counted by impossibleMessageSizes().
    void addCollective(TrackHandle t, const CollectiveRecord &r);
    size_t impossibleMessageSizes() const;
    size_t impossibleTransferBytes() const;
    void addProcessGroup(const ProcessGroupInfo &g);
    // Pre-sizes a track when the reader knows how many events will come.
    void reserve(TrackHandle t, size_t events);

    void setProcessName(uint32_t pid, NameId name);
    void setThreadName(uint32_t pid, uint32_t tid, NameId name);
    // Interned launch geometry; kNoLaunchConfig once kMaxLaunchConfigs distinct ones exist.
    uint16_t launchConfig(const LaunchConfig &c);
    // Interned NVTX scope; 0xFFFF once 65535 distinct ones exist.
    uint16_t nvtxScope(const NvtxScope &s);
    void setShortName(NameId full, NameId shortName);

    size_t eventCount() const;
    // Clips the impossible ends of every event added so far (eventtimes.h), counted under the
    // table or JSON array `tableOf` names for the track. Call once, after the last add().
    void clipImpossibleTimes(EventTimeAudit &audit, const std::function<std::string_view(const TrackKey &)> &tableOf);

    // Consumes the builder.
    EventStore build() &&;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace ps::core::trace
