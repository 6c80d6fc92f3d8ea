#pragma once
// A rank's report of a synchronous training loop of world allreduces, for the collectives
// benchmarks: every rank computes, then arrives, and the collective ends on every rank when the
// last one arrived plus the transfer, as NCCL synchronizes them (c10d kernel args, `Seq`); rank
// ranks/3 is 5 ms late at every tenth collective, so the others wait for it. An `update_actor`
// range opens every 100 collectives.

#include "core/trace/store/report.h"
#include "core/trace/store/storebuilder.h"

#include <algorithm>
#include <string>
#include <vector>

namespace syncallreduce {

inline constexpr int64_t kStepNs = 4'000'000;   // compute 3 ms + jitter, then the allreduce
inline constexpr int64_t kTransferNs = 400'000; // after the last arrival
inline constexpr int64_t kLateNs = 5'000'000;   // the planted rank, every tenth collective
inline constexpr int64_t kOrigin = 1'764'000'000'000'000'000;

// Rank `rank`'s arrival at collective k, after the step's start.
inline int64_t arrival(size_t rank, size_t k, size_t late)
{
    const int64_t jitter = int64_t((rank * 7 + k * 3) % 11) * 10'000;
    return 3'000'000 + jitter + (rank == late && k % 10 == 0 ? kLateNs : 0);
}

// Per collective, the latest rank's arrival: when it ends on every rank.
inline std::vector<int64_t> lastArrivals(size_t ranks, size_t collectives)
{
    std::vector<int64_t> last(collectives, 0);
    for (size_t k = 0; k < collectives; ++k)
        for (size_t r = 0; r < ranks; ++r)
            last[k] = std::max(last[k], arrival(r, k, ranks / 3));
    return last;
}

// `lastArrival` as lastArrivals() gives it; the report is named `path`.
inline ps::core::trace::Report makeReport(const std::string &path, size_t rank, size_t ranks,
                                          const std::vector<int64_t> &lastArrival)
{
    using namespace ps::core::trace;
    const size_t collectives = lastArrival.size();
    StoreBuilder b;
    const size_t late = ranks / 3;
    const TrackHandle compute = b.track({TrackKind::Kernel, 1, 7, 0});
    const TrackHandle nccl = b.track({TrackKind::Kernel, 1, 20, 0});
    const TrackHandle driver = b.track({TrackKind::NvtxPushPop, 1, 1, 0});
    b.reserve(compute, collectives);
    b.reserve(nccl, collectives);
    const NameId gemm = b.intern("void gemm_kernel<float, 128>(float*)");
    const NameId kernel = b.intern("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)");
    const NameId phase = b.intern("update_actor");
    CollectiveRecord c;
    c.op = b.intern("allreduce");
    c.groupName = b.intern("0");
    c.groupDesc = b.intern("default_pg");
    c.dtype = b.intern("BFloat16");
    c.groupSize = int32_t(ranks);
    c.inNelems = c.outNelems = 1 << 22;
    c.stream = 20;
    int64_t t = 1'000'000;
    for (size_t k = 0; k < collectives; ++k) {
        // The collective ends on every rank when the last one arrives, plus the transfer.
        const int64_t arrive = t + arrival(rank, k, late), end = t + lastArrival[k] + kTransferNs;
        b.add(compute, t, arrive - 10'000, gemm);
        b.add(nccl, arrive, end, kernel);
        c.start = arrive;
        c.end = end;
        c.seq = int64_t(k + 1);
        b.addCollective(nccl, c);
        if (k % 100 == 0) // a step of 100 collectives
            b.add(driver, t - 1000, t + 100 * (kStepNs + kLateNs), phase);
        t = end + 100'000;
    }
    ProcessGroupInfo world;
    world.size = int32_t(ranks);
    world.isWorld = 1;
    b.addProcessGroup(world);
    Report r;
    r.path = path;
    r.identity.rank = int(rank);
    r.meta.utcStartNs = kOrigin;
    r.meta.rank = int(rank);
    r.meta.format = TraceFormat::KinetoJson;
    r.store = std::make_shared<const EventStore>(std::move(b).build());
    return r;
}

} // namespace syncallreduce
