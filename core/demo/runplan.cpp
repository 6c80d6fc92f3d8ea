#include "core/demo/runplan.h"

#include "core/demo/demorandom.h"

#include <cstdio>
#include <set>

namespace ps::core::demo {

namespace {
// 2025-11-03T00:00:00Z: the demo runs are set in a plausible recent past, never "now", so that
// the output does not depend on the clock of the machine that generates it.
constexpr int64_t kEpochBaseNs = 1762128000LL * 1000000000LL;
constexpr int64_t kSecond = 1000000000LL;
} // namespace

RunPlan::RunPlan(const DemoOptions &options, int64_t microBatchesPerTrainingStep)
    : m_seed(options.seed), m_steps(options.steps), m_firstStep(options.firstStep),
      m_microBatches(microBatchesPerTrainingStep)
{
    DemoRandom rng(DemoRandom::mix(options.seed, 0x706c616e)); // "plan"
    m_straggler = static_cast<int>(rng.range(0, options.ranks - 1));
    // A daytime start within ~3 months after the base date.
    const int64_t runStart = kEpochBaseNs + rng.range(0, 90) * 86400 * kSecond + rng.range(1, 16) * 3600 * kSecond +
                             rng.range(0, 3599) * kSecond + rng.range(0, kSecond - 1);
    // Ray starts the actors one after another; nsys sessions begin when each process starts.
    // The first profiled step comes after model loading and the unprofiled steps before it.
    m_firstStepUtcNs = runStart + 35 * kSecond + options.firstStep * 2 * kSecond + rng.range(0, 5 * kSecond);

    const int hosts = (options.ranks + kGpusPerHost - 1) / kGpusPerHost;
    std::vector<int64_t> clockError(static_cast<size_t>(hosts));
    std::vector<int64_t> bootClock(static_cast<size_t>(hosts));
    for (int h = 0; h < hosts; ++h) {
        // NTP-level agreement between hosts: a few hundred microseconds to a few milliseconds.
        clockError[static_cast<size_t>(h)] = h == 0 ? 0 : rng.range(-3000000, 3000000);
        bootClock[static_cast<size_t>(h)] = rng.range(2, 60) * 86400 * kSecond + rng.range(0, 86400 * kSecond);
    }
    std::set<int64_t> used;
    m_ranks.resize(static_cast<size_t>(options.ranks));
    for (int r = 0; r < options.ranks; ++r) {
        RankInfo &info = m_ranks[static_cast<size_t>(r)];
        do
            info.pid = rng.range(20000, 4194303);
        while (!used.insert(info.pid).second);
        const int host = r / kGpusPerHost;
        char name[32];
        std::snprintf(name, sizeof name, "gpu-node-%02d", host);
        info.host = name;
        info.deviceId = r % kGpusPerHost;
        info.trueSessionStartNs = runStart + r * rng.range(20000000, 90000000) / 4 + rng.range(0, 400000000);
        info.utcEpochNs = info.trueSessionStartNs + clockError[static_cast<size_t>(host)];
        info.systemClockNs = bootClock[static_cast<size_t>(host)] + (info.trueSessionStartNs - runStart);
    }
}

double RunPlan::factor(int rank, int step, int64_t unit) const
{
    DemoRandom rng(
        DemoRandom::mix(m_seed, static_cast<uint64_t>(rank), static_cast<uint64_t>(step), static_cast<uint64_t>(unit)));
    const double jitter = 0.02 * (2.0 * rng.uniform() - 1.0);
    return (rank == m_straggler ? 1.3 : 1.0) * (1.0 + jitter);
}

} // namespace ps::core::demo
