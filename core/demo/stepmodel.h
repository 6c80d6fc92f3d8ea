#pragma once
// The model of one ActorGroup worker's profiled training steps, as RLinf's embodied PPO runner
// drives them (profiling-config.md A8/A9): per step the driver dispatches, to every actor rank at
// once, actor/sync_model_to_rollout, then (after the rollout and env workers have produced
// trajectories) actor/recv_traj, actor/compute_adv and run_training. Inside run_training each
// training_step runs micro-batches: forward_actor / forward_critic ranges over FSDP layers (an
// NCCL all-gather per layer), a loss, the backward pass on PyTorch's autograd thread with a
// reduce-scatter per layer, a loss.item() sync, and an optimizer step with a grad-norm all-reduce.
//
// Timing. Work is cut into units that end with the GPU idle (each ends in a stream sync). A
// unit's nominal timeline is the same on every rank (seeded by step and unit); a rank plays it
// scaled by its factor for that unit (RunPlan::factor). A phase (one driver call) starts at the
// same UTC instant on every rank and the next one starts when the slowest rank is done, as
// ray.get on all ranks does. Collectives synchronize as NCCL does: each rank's kernel starts when
// that rank arrives and ends on every rank when the last one has arrived plus the transfer, so a
// fast rank spends the slow one's lag waiting inside its NCCL kernel and the ranks leave the
// collective together. Phases with collectives therefore last about as long on every rank; the
// straggler shows as the others' wait (and as longer ranges only in phases without collectives).

#include "core/demo/demorandom.h"
#include "core/demo/eventsink.h"
#include "core/demo/runplan.h"

#include <array>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace ps::core::demo {

class StepModel
{
public:
    StepModel(const RunPlan &plan, int rank, EventSink &sink);
    // Emits every profiled step of this rank.
    void run();

private:
    static constexpr int kThreads = static_cast<int>(DemoThread::Count);
    static constexpr int kStreams = 3;

    int64_t runPhase(int64_t phaseStartUtc, const std::function<void()> &body);
    void syncModelToRollout();
    void recvTraj();
    void computeAdv();
    void runTraining();
    void microBatch();
    void optimizerStep();

    void beginUnit();
    void endUnit();
    int64_t map(int64_t nominal) const;
    // A collective whose kernel runs over [nominalStart, nominalEnd] of the unit on every rank:
    // where each rank arrives, when it ends for all, and how this rank's clock stretches over it.
    void synchronize(int64_t nominalStart, int64_t nominalEnd);
    int64_t rankTimeAt(int rank, int64_t nominal) const; // phase time of `rank` past the last collective

    int64_t &cpu(DemoThread t) { return m_cpu[static_cast<size_t>(t)]; }
    int64_t &gpu(int stream);
    void idle(DemoThread t, int64_t nominalNs);
    void launch(DemoThread t, int stream, Kernel k);
    void nccl(DemoThread t, Kernel k, Range r);
    void memcpyAsync(DemoThread t, int stream, int64_t bytes, int copyKind, int srcKind, int dstKind);
    void memsetAsync(DemoThread t, int stream, int64_t bytes);
    void streamSync(DemoThread t, int stream);
    // cudaMalloc / cudaFree through PyTorch's caching allocator, as nsys --cuda-memory-usage sees it.
    int64_t allocate(DemoThread t, int64_t bytes);
    void release(DemoThread t, int64_t address, int64_t bytes);
    void waitStream(int waiting, int on);
    void push(DemoThread t, Range r);
    void pop(DemoThread t);

    const RunPlan &m_plan;
    const int m_rank;
    EventSink &m_sink;
    int64_t m_nextAddress = int64_t(0x7f0000000000);
    DemoRandom m_rng{0};

    int m_step = 0;
    // A collective of the current unit as this rank plays it: nominal [start, end] maps onto
    // [arrival, end] of phase time; after it every rank runs on from the common end.
    struct SyncPoint
    {
        int64_t nominalStart = 0;
        int64_t nominalEnd = 0;
        int64_t arrival = 0;
        int64_t end = 0;
    };

    int64_t m_unit = 0;             // unit index within the step
    int64_t m_phaseBase = 0;        // report time at which the current phase starts
    int64_t m_unitStart = 0;        // phase time at which this rank starts the current unit
    double m_factor = 1.0;          // this rank's factor for the current unit
    std::vector<double> m_factors;  // every rank's factor for the current unit
    std::vector<int64_t> m_anchors; // per rank: phase time at nominal m_anchorNominal of the unit
    int64_t m_anchorNominal = 0;    // 0 at a unit's start, then the end of its last collective
    std::vector<SyncPoint> m_syncs; // the current unit's collectives, in nominal order
    std::array<int64_t, kThreads> m_cpu{};
    std::array<int64_t, kStreams> m_gpu{};
    std::array<std::vector<std::pair<Range, int64_t>>, kThreads> m_open; // NVTX stacks: range, start
    int64_t m_correlationId = 0;
    int64_t m_gridId = 0;
    bool m_ncclDomainCreated = false;
};

} // namespace ps::core::demo
