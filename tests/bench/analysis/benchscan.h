#pragma once
// What the analysis benchmarks share: the synthetic GPU work of a report, the baseline they are
// measured against (one pass over every event reading start, duration and name, summed per name)
// and their argument and timing helpers.

#include "core/analysis/breakdown/activityindex.h"
#include "core/trace/store/eventstore.h"
#include "core/trace/store/storebuilder.h"
#include "core/trace/tracestats.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace benchscan {

using Clock = std::chrono::steady_clock;

// The process's peak resident set so far, in GB.
inline double peakRssGb()
{
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / (1024.0 * 1024.0);
}

// How a rank's NCCL kernels synchronize with the other ranks' (see addGpuWork).
struct Sync
{
    uint32_t rank = 0;
    int64_t lateNs = 0; // the run's planted delay, every tenth collective; 0: no rank is late
    bool late = false;  // this rank is the one delayed
};

// The k-th collective on `sync.rank`, as synchronous training runs it: each rank arrives at a
// shared schedule plus its own jitter (the planted rank `lateNs` later every tenth collective),
// and every rank's kernel ends together, at the latest possible arrival plus the transfer.
inline std::pair<int64_t, int64_t> ncclKernel(size_t k, const Sync &sync)
{
    constexpr int64_t kPeriodNs = 12'500, kJitterNs = 2'000, kTransferNs = 3'000; // a late rank <= 5 us
    uint64_t h = (uint64_t(sync.rank) << 32 | k) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
    const bool planted = k % 10 == 0 && sync.lateNs > 0;
    const int64_t base = int64_t(k) * kPeriodNs;
    const int64_t arrive = base + int64_t(h % kJitterNs) + (planted && sync.late ? kJitterNs + sync.lateNs : 0);
    return {arrive, base + kJitterNs + (planted ? sync.lateNs : 0) + kTransferNs};
}

// `events` GPU events on one device: 4 compute streams (50 gemm names), one NCCL stream
// overlapping them and one copy stream, back to back with random gaps; the NCCL kernels as
// ncclKernel() times them. Returns the span's end.
inline int64_t addGpuWork(ps::core::trace::StoreBuilder &b, size_t events, uint32_t seed, const Sync &sync = {})
{
    using namespace ps::core::trace;
    std::mt19937_64 rng(seed);
    std::vector<NameId> compute;
    for (int i = 0; i < 50; ++i)
        compute.push_back(b.intern("void gemm_kernel_variant_" + std::to_string(i) + "<float, 128>(float*)"));
    const NameId nccl = b.intern("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)");
    const NameId copy = b.intern("[CUDA memcpy Device-to-Host]");
    std::vector<TrackHandle> lanes;
    for (uint32_t s = 0; s < 4; ++s)
        lanes.push_back(b.track({TrackKind::Kernel, 1, 7 + s, 0}));
    lanes.push_back(b.track({TrackKind::Kernel, 1, 20, 0}));
    lanes.push_back(b.track({TrackKind::Memcpy, 1, 21, 0}));
    for (TrackHandle l : lanes)
        b.reserve(l, events / lanes.size() + 1);
    std::vector<int64_t> at(lanes.size(), 0);
    for (size_t i = 0; i < events; ++i) {
        const size_t which = i % lanes.size();
        const int64_t gap = int64_t(rng() % 4000), dur = 500 + int64_t(rng() % 20000);
        const NameId name = which < 4 ? compute[rng() % compute.size()] : which == 4 ? nccl : copy;
        if (which == 4) {
            const auto [arrive, end] = ncclKernel(i / lanes.size(), sync);
            b.add(lanes[which], arrive, end, name, uint32_t(i), 0);
            at[which] = end;
            continue;
        }
        if (which == 5)
            b.addWithBytes(lanes[which], at[which] + gap, at[which] + gap + dur, name, uint32_t(i), 2, 1 << 20);
        else
            b.add(lanes[which], at[which] + gap, at[which] + gap + dur, name, uint32_t(i), 0);
        at[which] += gap + dur;
    }
    return *std::max_element(at.begin(), at.end());
}

// 10 steps of verl's five phases as NVTX ranges on a driver thread, back to back over `span` ns;
// `stretchPct` lengthens every phase (a straggler: 130).
inline void addVerlPhases(ps::core::trace::StoreBuilder &b, int64_t span, int64_t stretchPct = 100)
{
    using namespace ps::core::trace;
    static constexpr const char *kPhases[] = {"gen", "old_log_prob", "ref", "adv", "update_actor"};
    const TrackHandle driver = b.track({TrackKind::NvtxPushPop, 1, 1, 0});
    const int64_t phaseNs = span / (10 * 5) * stretchPct / 100;
    for (int step = 0; step < 10; ++step)
        for (int p = 0; p < 5; ++p) {
            const int64_t t = (step * 5 + p) * phaseNs;
            b.add(driver, t, t + phaseNs - 1000, b.intern(kPhases[p]));
        }
}

// The baseline: one pass over the events of the kinds `wanted` accepts.
template <typename Wanted>
int64_t scan(const ps::core::trace::EventStore &s, std::vector<int64_t> &perName, Wanted wanted)
{
    perName.assign(s.names().size(), 0);
    int64_t checksum = 0;
    for (const ps::core::trace::Track &t : s.tracks()) {
        if (!wanted(t.kind()))
            continue;
        for (size_t i = 0; i < t.size(); ++i) {
            perName[t.name(i)] += t.duration(i);
            checksum ^= t.start(i);
        }
    }
    return checksum + (perName.size() > 1 ? perName[1] : 0);
}

inline double seconds(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

inline size_t argValue(int argc, char **argv, const char *name, size_t fallback)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], name) == 0)
            return size_t(std::stoull(argv[i + 1]));
    return fallback;
}

// The options both benchmarks take: [--reports R] [--events N] [--distinct D] [--repeat K].
struct Size
{
    size_t reports = 64;       // reports analysed
    size_t events = 1'000'000; // events per report
    size_t distinct = 8;       // distinct stores, reused round-robin by the reports
    size_t repeat = 3;         // best of this many runs
};

inline Size sizeFromArgs(int argc, char **argv)
{
    const Size d;
    Size s;
    s.reports = argValue(argc, argv, "--reports", d.reports);
    s.events = argValue(argc, argv, "--events", d.events);
    s.distinct = std::min(s.reports, std::max<size_t>(1, argValue(argc, argv, "--distinct", d.distinct)));
    s.repeat = std::max<size_t>(1, argValue(argc, argv, "--repeat", d.repeat));
    return s;
}

// `size.distinct` stores of `size.events` events, made by make(events, seed) with seeds
// firstSeed, firstSeed + 1, ...
template <typename Make>
std::vector<std::shared_ptr<const ps::core::trace::EventStore>> makeStores(const Size &size, Make make,
                                                                           uint32_t firstSeed = 1)
{
    std::vector<std::shared_ptr<const ps::core::trace::EventStore>> stores;
    for (size_t i = 0; i < size.distinct; ++i)
        stores.push_back(make(size.events, firstSeed + uint32_t(i)));
    return stores;
}

// Builds what the first analysis of a report computes and keeps with it (the activity index,
// the kernel time per name) for each store and returns the time per store.
inline double indexBuildPerStore(const std::vector<std::shared_ptr<const ps::core::trace::EventStore>> &stores)
{
    const Clock::time_point t0 = Clock::now();
    size_t segments = 0;
    for (const auto &s : stores)
        segments +=
            ps::core::analysis::activityIndex(*s)->segmentStart.size() + ps::core::trace::kernelTimeByName(*s)->size();
    return segments == 0 ? 0.0 : seconds(t0) / double(stores.size());
}

} // namespace benchscan
