#pragma once
// Everything about a demo run that more than one report needs to agree on: who the ranks are
// (PID, host, device, session start), which rank straggles, how many micro-batches a step has,
// and every rank's speed factor for every unit of work. All of it derives from the seed, so any
// report can be written on its own (and in any order) and still line up with the others.

#include "core/demo/demorun.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ps::core::demo {

struct RankInfo
{
    int64_t pid = 0;
    std::string host;
    int deviceId = 0;               // CUDA device on its host (ranks fill 8-GPU hosts in order)
    int64_t trueSessionStartNs = 0; // when its nsys session really started (UTC ns)
    int64_t utcEpochNs = 0;         // what the report records: true start + its host's clock error
    int64_t systemClockNs = 0;      // the host's raw clock at session start (TARGET_INFO_SESSION_START_TIME)
};

class RunPlan
{
public:
    static constexpr int kGpusPerHost = 8;
    static constexpr int kLayers = 4;                  // transformer blocks per micro-batch
    static constexpr int kTrainingStepsPerRun = 2;     // training_step ranges inside one run_training
    static constexpr int64_t kNaturalMicroBatches = 4; // per training_step when eventsPerReport = 0

    RunPlan(const DemoOptions &options, int64_t microBatchesPerTrainingStep);

    uint64_t seed() const { return m_seed; }
    int ranks() const { return static_cast<int>(m_ranks.size()); }
    int steps() const { return m_steps; }
    int firstStep() const { return m_firstStep; }
    int straggler() const { return m_straggler; }
    int64_t microBatches() const { return m_microBatches; }
    const RankInfo &rank(int r) const { return m_ranks[static_cast<size_t>(r)]; }
    // UTC ns at which every rank starts the first profiled step (the driver dispatches it).
    int64_t firstStepUtcNs() const { return m_firstStepUtcNs; }

    // How much slower than nominal `rank` runs unit `unit` of step `step`: about 1.0, the
    // straggler about 1.3, each within +-2 % so the straggler arrives last at every collective.
    double factor(int rank, int step, int64_t unit) const;

private:
    uint64_t m_seed;
    int m_steps;
    int m_firstStep;
    int m_straggler;
    int64_t m_microBatches;
    int64_t m_firstStepUtcNs;
    std::vector<RankInfo> m_ranks;
};

} // namespace ps::core::demo
