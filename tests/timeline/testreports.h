#pragma once
// Small in-memory reports for the timeline tests, built with the engine's StoreBuilder so that
// levels, windows and correlation behave exactly as for loaded files.

#include "core/trace/read/identity.h"
#include "core/trace/store/storebuilder.h"

#include <functional>
#include <memory>
#include <string>

namespace ps::test {

using namespace ps::core::trace;

inline ReportPtr makeReport(const std::string &path, const std::function<void(StoreBuilder &)> &fill,
                            std::optional<int> rank = std::nullopt, const std::string &group = "ActorGroup")
{
    StoreBuilder b;
    fill(b);
    auto r = std::make_shared<Report>();
    r->path = path;
    r->store = std::make_shared<EventStore>(std::move(b).build());
    r->identity.run = "run";
    if (rank) {
        r->identity.group = group;
        r->identity.rank = rank;
        r->identity.label = group + " r" + std::to_string(*rank);
    }
    r->meta.utcStartNs = 1'700'000'000'000'000'000LL;
    return r;
}

// One rank of a training run: `steps` NVTX "step" ranges of `stepNs` each (100 ms apart) on
// thread 11 with nested "forward" ranges, a cudaLaunchKernel call per step on the same thread
// correlated with a "gemm" kernel on stream 7.
inline ReportPtr makeRank(int rank, int steps, int64_t stepNs)
{
    return makeReport(
        "/runs/run/rlinf_profile_ActorGroup_" + std::to_string(rank) + "_" + std::to_string(100 + rank) + ".sqlite",
        [&](StoreBuilder &b) {
            const uint32_t pid = 100 + uint32_t(rank);
            const TrackHandle nvtx = b.track({TrackKind::NvtxPushPop, pid, 11, 0});
            const TrackHandle api = b.track({TrackKind::CudaApi, pid, 11, 0});
            const TrackHandle kern = b.track({TrackKind::Kernel, pid, 7, 0});
            b.setThreadName(pid, 11, b.intern("python"));
            const NameId step = b.intern("step"), fwd = b.intern("forward"), launch = b.intern("cudaLaunchKernel"),
                         gemm = b.intern("gemm");
            for (int s = 0; s < steps; ++s) {
                const int64_t t = 1'000'000 + int64_t(s) * 100'000'000;
                b.add(nvtx, t, t + stepNs, step);
                b.add(nvtx, t + 1000, t + stepNs / 2, fwd);
                const uint32_t corr = uint32_t(1000 + s);
                b.add(api, t + 2000, t + 7000, launch, corr, uint16_t(ApiClass::Runtime));
                b.add(kern, t + 10'000, t + 10'000 + stepNs / 4, gemm, corr, kNoLaunchConfig);
            }
        },
        rank);
}

} // namespace ps::test
