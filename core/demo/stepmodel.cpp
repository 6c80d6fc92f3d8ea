#include "core/demo/stepmodel.h"

#include <algorithm>
#include <cmath>

namespace ps::core::demo {

namespace {
constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000 * kUs;
constexpr int64_t kMiB = 1 << 20;
// Copy and fill bandwidths in bytes per ns (= GB/s) of an A100 with PCIe 4 host links.
constexpr double kPinnedBw = 22.0;
constexpr double kPageableBw = 8.0;
constexpr double kDeviceBw = 1300.0;
constexpr double kFillBw = 1500.0;
} // namespace

StepModel::StepModel(const RunPlan &plan, int rank, EventSink &sink) : m_plan(plan), m_rank(rank), m_sink(sink)
{
    // Correlation ids continue from the unprofiled start-up (model load, earlier steps).
    DemoRandom rng(DemoRandom::mix(plan.seed(), static_cast<uint64_t>(rank), 0x636f7272)); // "corr"
    m_correlationId = rng.range(40000, 90000);
    m_gridId = m_correlationId / 3;
}

void StepModel::run()
{
    int64_t phaseStart = m_plan.firstStepUtcNs();
    for (m_step = 0; m_step < m_plan.steps(); ++m_step) {
        m_unit = 0;
        // Gaps belong to the driver, so they are the same for every rank.
        DemoRandom gaps(DemoRandom::mix(m_plan.seed(), static_cast<uint64_t>(m_step), 0x67617073)); // "gaps"
        phaseStart = runPhase(phaseStart, [this] { syncModelToRollout(); });
        phaseStart += gaps.around(620 * kMs, 0.15); // rollout and env workers generate trajectories
        phaseStart = runPhase(phaseStart, [this] { recvTraj(); });
        phaseStart += gaps.around(2 * kMs, 0.5);
        phaseStart = runPhase(phaseStart, [this] { computeAdv(); });
        phaseStart += gaps.around(2 * kMs, 0.5);
        phaseStart = runPhase(phaseStart, [this] { runTraining(); });
        phaseStart += gaps.around(45 * kMs, 0.3); // metrics, logging, stop/start of the profiler window
    }
}

int64_t StepModel::runPhase(int64_t phaseStartUtc, const std::function<void()> &body)
{
    m_phaseBase = phaseStartUtc - m_plan.rank(m_rank).trueSessionStartNs;
    m_anchors.assign(static_cast<size_t>(m_plan.ranks()), 0);
    body();
    return phaseStartUtc + *std::max_element(m_anchors.begin(), m_anchors.end());
}

void StepModel::syncModelToRollout()
{
    beginUnit();
    idle(DemoThread::Main, 40 * kUs);
    push(DemoThread::Main, Range::SyncModelToRollout);
    // Gather the full (unsharded) weights bucket by bucket and copy them into the send buffer.
    for (int bucket = 0; bucket < 4; ++bucket) {
        nccl(DemoThread::Main, Kernel::NcclAllGather, Range::NcclAllGather);
        waitStream(kComputeStream, kNcclStream);
        memcpyAsync(DemoThread::Main, kComputeStream, 384 * kMiB, kCopyDtoD, kMemDevice, kMemDevice);
    }
    streamSync(DemoThread::Main, kComputeStream);
    idle(DemoThread::Main, 25 * kUs);
    pop(DemoThread::Main);
    endUnit();
}

void StepModel::recvTraj()
{
    beginUnit();
    idle(DemoThread::Main, 60 * kUs);
    push(DemoThread::Main, Range::RecvTraj);
    // Observations, actions, log-probs, values, rewards, dones of the step's trajectories.
    static constexpr int64_t kBytes[] = {96 * kMiB, 6 * kMiB, 2 * kMiB, 2 * kMiB, 2 * kMiB, kMiB / 2};
    for (int64_t bytes : kBytes) {
        idle(DemoThread::Main, m_rng.around(900 * kUs, 0.3)); // receive and unpickle from the channel
        memcpyAsync(DemoThread::Main, kCopyStream, bytes, kCopyHtoD, kMemPinned, kMemDevice);
    }
    streamSync(DemoThread::Main, kCopyStream);
    pop(DemoThread::Main);
    endUnit();
}

void StepModel::computeAdv()
{
    beginUnit();
    idle(DemoThread::Main, 50 * kUs);
    push(DemoThread::Main, Range::ComputeAdv);
    memsetAsync(DemoThread::Main, kComputeStream, 4 * kMiB);
    // GAE runs backwards over the rollout's time steps: a few small kernels per step.
    for (int i = 0; i < 8; ++i) {
        launch(DemoThread::Main, kComputeStream, Kernel::Mul);
        launch(DemoThread::Main, kComputeStream, Kernel::Add);
    }
    launch(DemoThread::Main, kComputeStream, Kernel::ReduceSum);
    launch(DemoThread::Main, kComputeStream, Kernel::ReduceSum);
    memcpyAsync(DemoThread::Main, kComputeStream, 64, kCopyDtoH, kMemDevice, kMemPageable); // advantage stats
    streamSync(DemoThread::Main, kComputeStream);
    pop(DemoThread::Main);
    endUnit();
}

void StepModel::runTraining()
{
    const int64_t microBatches = m_plan.microBatches();
    for (int ts = 0; ts < RunPlan::kTrainingStepsPerRun; ++ts) {
        for (int64_t mb = 0; mb < microBatches; ++mb) {
            beginUnit();
            if (ts == 0 && mb == 0) {
                idle(DemoThread::Main, 30 * kUs);
                push(DemoThread::Main, Range::RunTraining);
            }
            if (mb == 0) {
                idle(DemoThread::Main, 20 * kUs);
                push(DemoThread::Main, Range::TrainingStep);
                memsetAsync(DemoThread::Main, kComputeStream, 256 * kMiB); // zero_grad on flat buffers
                memsetAsync(DemoThread::Main, kComputeStream, 64 * kMiB);
            }
            microBatch();
            if (mb == microBatches - 1) {
                optimizerStep();
                pop(DemoThread::Main);
                if (ts == RunPlan::kTrainingStepsPerRun - 1) {
                    idle(DemoThread::Main, 15 * kUs);
                    pop(DemoThread::Main);
                }
            }
            endUnit();
        }
    }
}

void StepModel::microBatch()
{
    const DemoThread main = DemoThread::Main;
    idle(main, 60 * kUs);
    // The micro-batch's activations, held from the forward until the backward has run; the size
    // varies with the micro-batch's sequence lengths.
    const int64_t activationBytes = 1536 * kMiB + 64 * kMiB * (m_unit % 3);
    const int64_t activations = allocate(main, activationBytes);
    push(main, Range::ForwardActor);
    for (int layer = 0; layer < RunPlan::kLayers; ++layer) {
        nccl(main, Kernel::NcclAllGather, Range::NcclAllGather); // FSDP unshards the layer
        waitStream(kComputeStream, kNcclStream);
        for (Kernel k : {Kernel::LayerNorm, Kernel::GemmFwd, Kernel::FlashFwd, Kernel::GemmFwd, Kernel::Add,
                         Kernel::LayerNorm, Kernel::GemmFwdWide, Kernel::Gelu, Kernel::GemmFwdWide, Kernel::Add})
            launch(main, kComputeStream, k);
    }
    pop(main);
    push(main, Range::ForwardCritic);
    for (Kernel k : {Kernel::GemmFwd, Kernel::Gelu, Kernel::GemmFwd})
        launch(main, kComputeStream, k);
    pop(main);
    for (Kernel k : {Kernel::LogSoftmax, Kernel::Mul, Kernel::ReduceSum, Kernel::Mul})
        launch(main, kComputeStream, k);

    // loss.backward(): the autograd engine runs CUDA work on its device thread while the main
    // thread waits.
    idle(main, 25 * kUs);
    const DemoThread bwd = DemoThread::Autograd;
    cpu(bwd) = std::max(cpu(bwd), cpu(main) + m_rng.around(18 * kUs, 0.3));
    for (Kernel k : {Kernel::Mul, Kernel::LogSoftmaxBwd, Kernel::GemmDgrad, Kernel::GemmWgrad, Kernel::GeluBwd,
                     Kernel::GemmDgrad, Kernel::GemmWgrad})
        launch(bwd, kComputeStream, k);
    for (int layer = RunPlan::kLayers - 1; layer >= 0; --layer) {
        for (Kernel k :
             {Kernel::GemmDgrad, Kernel::GemmWgrad, Kernel::GeluBwd, Kernel::GemmDgrad, Kernel::GemmWgrad,
              Kernel::LayerNormBwd, Kernel::GemmDgrad, Kernel::GemmWgrad, Kernel::FlashBwdDotDo, Kernel::FlashBwd,
              Kernel::FlashBwdConvertDq, Kernel::GemmDgrad, Kernel::GemmWgrad, Kernel::LayerNormBwd})
            launch(bwd, kComputeStream, k);
        waitStream(kNcclStream, kComputeStream);
        nccl(bwd, Kernel::NcclReduceScatter, Range::NcclReduceScatter); // FSDP reduces the layer's grads
    }
    cpu(main) = std::max(cpu(main), cpu(bwd)) + m_rng.around(12 * kUs, 0.3);
    // FSDP's post-backward callback makes the compute stream wait for the last reduce-scatter.
    waitStream(kComputeStream, kNcclStream);
    // loss.item() for the metrics: a 4-byte copy to pageable memory blocks, then a sync.
    memcpyAsync(main, kComputeStream, 4, kCopyDtoH, kMemDevice, kMemPageable);
    streamSync(main, kComputeStream);
    release(main, activations, activationBytes);
}

int64_t StepModel::allocate(DemoThread t, int64_t bytes)
{
    const int64_t address = m_nextAddress;
    m_nextAddress += bytes;
    m_sink.memoryUsage(map(cpu(t)), address, bytes, true);
    return address;
}

void StepModel::release(DemoThread t, int64_t address, int64_t bytes)
{
    m_sink.memoryUsage(map(cpu(t)), address, bytes, false);
}

void StepModel::optimizerStep()
{
    const DemoThread main = DemoThread::Main;
    idle(main, 80 * kUs);
    // clip_grad_norm_: local norms, a global all-reduce, the clip coefficient.
    launch(main, kComputeStream, Kernel::ReduceSum);
    launch(main, kComputeStream, Kernel::ReduceSum);
    waitStream(kNcclStream, kComputeStream);
    nccl(main, Kernel::NcclAllReduceF32, Range::NcclAllReduce);
    waitStream(kComputeStream, kNcclStream);
    launch(main, kComputeStream, Kernel::Mul);
    launch(main, kComputeStream, Kernel::AdamW);
    launch(main, kComputeStream, Kernel::AdamW);
    launch(main, kComputeStream, Kernel::FillZero);
    memcpyAsync(main, kComputeStream, 4, kCopyDtoH, kMemDevice, kMemPageable); // grad_norm.item()
    streamSync(main, kComputeStream);
    idle(main, 30 * kUs);
}

void StepModel::beginUnit()
{
    m_rng = DemoRandom(DemoRandom::mix(m_plan.seed(), static_cast<uint64_t>(m_step), static_cast<uint64_t>(m_unit),
                                       0x756e6974)); // "unit": same nominal timeline on every rank
    m_factors.resize(static_cast<size_t>(m_plan.ranks()));
    for (int r = 0; r < m_plan.ranks(); ++r)
        m_factors[static_cast<size_t>(r)] = m_plan.factor(r, m_step, m_unit);
    m_factor = m_factors[static_cast<size_t>(m_rank)];
    m_unitStart = m_anchors[static_cast<size_t>(m_rank)];
    m_anchorNominal = 0;
    m_syncs.clear();
    m_cpu.fill(0);
    m_gpu.fill(0);
}

void StepModel::endUnit()
{
    int64_t nominal = 0;
    for (int64_t t : m_cpu)
        nominal = std::max(nominal, t);
    for (int64_t t : m_gpu)
        nominal = std::max(nominal, t);
    for (int r = 0; r < m_plan.ranks(); ++r)
        m_anchors[static_cast<size_t>(r)] = rankTimeAt(r, nominal);
    ++m_unit;
}

int64_t StepModel::rankTimeAt(int rank, int64_t nominal) const
{
    const auto r = static_cast<size_t>(rank);
    return m_anchors[r] + std::llround(static_cast<double>(nominal - m_anchorNominal) * m_factors[r]);
}

void StepModel::synchronize(int64_t nominalStart, int64_t nominalEnd)
{
    int64_t lastArrival = 0;
    for (int r = 0; r < m_plan.ranks(); ++r)
        lastArrival = std::max(lastArrival, rankTimeAt(r, nominalStart));
    // The transfer runs at the pace of the slowest member, so no rank's clock runs faster
    // through a collective than through its own work (events emitted earlier stay in order).
    const double slowest = *std::max_element(m_factors.begin(), m_factors.end());
    const int64_t end = lastArrival + std::llround(static_cast<double>(nominalEnd - nominalStart) * slowest);
    m_syncs.push_back({nominalStart, nominalEnd, rankTimeAt(m_rank, nominalStart), end});
    m_anchors.assign(m_anchors.size(), end);
    m_anchorNominal = nominalEnd;
}

int64_t StepModel::map(int64_t nominal) const
{
    // The last collective that started at or before `nominal`, if any.
    auto it = std::upper_bound(m_syncs.begin(), m_syncs.end(), nominal,
                               [](int64_t n, const SyncPoint &s) { return n < s.nominalStart; });
    if (it == m_syncs.begin()) {
        return m_phaseBase + m_unitStart + std::llround(static_cast<double>(nominal) * m_factor);
    }
    const SyncPoint &s = *(it - 1);
    if (nominal < s.nominalEnd) { // inside the collective: waiting, then transferring
        const double stretch =
            static_cast<double>(s.end - s.arrival) / static_cast<double>(s.nominalEnd - s.nominalStart);
        return m_phaseBase + s.arrival + std::llround(static_cast<double>(nominal - s.nominalStart) * stretch);
    }
    return m_phaseBase + s.end + std::llround(static_cast<double>(nominal - s.nominalEnd) * m_factor);
}

int64_t &StepModel::gpu(int stream)
{
    switch (stream) {
    case kNcclStream:
        return m_gpu[1];
    case kCopyStream:
        return m_gpu[2];
    default:
        return m_gpu[0];
    }
}

void StepModel::idle(DemoThread t, int64_t nominalNs)
{
    cpu(t) += nominalNs;
}

void StepModel::launch(DemoThread t, int stream, Kernel k)
{
    const KernelSpec &spec = kernelSpec(k);
    const int64_t callStart = cpu(t);
    const int64_t callEnd = callStart + m_rng.around(5200, 0.35);
    const int64_t start = std::max(callStart + m_rng.around(3800, 0.4), gpu(stream) + m_rng.around(1500, 0.5));
    const int64_t end = start + m_rng.around(spec.nominalNs, 0.12);
    const int64_t correlationId = ++m_correlationId;
    m_sink.runtime(map(callStart), map(callEnd), ApiCall::LaunchKernel, t, correlationId);
    m_sink.kernel(map(start), map(end), stream, correlationId, k, ++m_gridId);
    gpu(stream) = end;
    cpu(t) = callEnd + m_rng.around(9 * kUs, 0.6); // Python and ATen dispatch before the next op
}

void StepModel::nccl(DemoThread t, Kernel k, Range r)
{
    if (!m_ncclDomainCreated) {
        m_sink.ncclDomainCreated(map(cpu(t)), t);
        m_ncclDomainCreated = true;
    }
    push(t, r);
    idle(t, m_rng.around(3 * kUs, 0.3));
    // NCCL 2.19+ launches through the driver's cuLaunchKernelEx.
    const int64_t callStart = cpu(t);
    const int64_t callEnd = callStart + m_rng.around(7 * kUs, 0.3);
    const int64_t start = std::max(callStart + m_rng.around(4 * kUs, 0.4), gpu(kNcclStream) + m_rng.around(2000, 0.5));
    const int64_t end = start + m_rng.around(kernelSpec(k).nominalNs, 0.2);
    synchronize(start, end);
    const int64_t correlationId = ++m_correlationId;
    m_sink.runtime(map(callStart), map(callEnd), ApiCall::CuLaunchKernelEx, t, correlationId);
    m_sink.kernel(map(start), map(end), kNcclStream, correlationId, k, ++m_gridId);
    gpu(kNcclStream) = end;
    cpu(t) = callEnd + m_rng.around(2 * kUs, 0.3);
    pop(t);
    idle(t, m_rng.around(6 * kUs, 0.5));
}

void StepModel::memcpyAsync(DemoThread t, int stream, int64_t bytes, int copyKind, int srcKind, int dstKind)
{
    const double bandwidth = copyKind == kCopyDtoD                              ? kDeviceBw
                             : (srcKind == kMemPinned || dstKind == kMemPinned) ? kPinnedBw
                                                                                : kPageableBw;
    const int64_t callStart = cpu(t);
    int64_t callEnd = callStart + m_rng.around(8 * kUs, 0.3);
    const int64_t start = std::max(callStart + m_rng.around(4 * kUs, 0.4), gpu(stream) + m_rng.around(1500, 0.5));
    const int64_t end = start + 1500 + static_cast<int64_t>(static_cast<double>(bytes) / bandwidth);
    if (dstKind == kMemPageable)
        callEnd = std::max(callEnd, end + m_rng.around(3 * kUs, 0.3)); // staged copy: the call blocks
    const int64_t correlationId = ++m_correlationId;
    m_sink.runtime(map(callStart), map(callEnd), ApiCall::MemcpyAsync, t, correlationId);
    m_sink.memcpy(map(start), map(end), stream, correlationId, bytes, copyKind, srcKind, dstKind);
    gpu(stream) = end;
    cpu(t) = callEnd + m_rng.around(6 * kUs, 0.5);
}

void StepModel::memsetAsync(DemoThread t, int stream, int64_t bytes)
{
    const int64_t callStart = cpu(t);
    const int64_t callEnd = callStart + m_rng.around(4500, 0.3);
    const int64_t start = std::max(callStart + m_rng.around(3500, 0.4), gpu(stream) + m_rng.around(1500, 0.5));
    const int64_t end = start + 1200 + static_cast<int64_t>(static_cast<double>(bytes) / kFillBw);
    const int64_t correlationId = ++m_correlationId;
    m_sink.runtime(map(callStart), map(callEnd), ApiCall::MemsetAsync, t, correlationId);
    m_sink.memset(map(start), map(end), stream, correlationId, bytes);
    gpu(stream) = end;
    cpu(t) = callEnd + m_rng.around(5 * kUs, 0.5);
}

void StepModel::streamSync(DemoThread t, int stream)
{
    const int64_t callStart = cpu(t);
    const int64_t callEnd = std::max(callStart + m_rng.around(2500, 0.3), gpu(stream) + m_rng.around(3 * kUs, 0.3));
    const int64_t syncStart = callStart + 700;
    const int64_t syncEnd = std::max(syncStart, callEnd - 800);
    const int64_t correlationId = ++m_correlationId;
    m_sink.runtime(map(callStart), map(callEnd), ApiCall::StreamSynchronize, t, correlationId);
    m_sink.synchronization(map(syncStart), map(syncEnd), stream, correlationId);
    cpu(t) = callEnd + m_rng.around(4 * kUs, 0.5);
}

void StepModel::waitStream(int waiting, int on)
{
    gpu(waiting) = std::max(gpu(waiting), gpu(on));
}

void StepModel::push(DemoThread t, Range r)
{
    m_open[static_cast<size_t>(t)].emplace_back(r, map(cpu(t)));
    idle(t, 1500); // nvtxRangePushA itself
}

void StepModel::pop(DemoThread t)
{
    auto &stack = m_open[static_cast<size_t>(t)];
    const auto [range, start] = stack.back();
    stack.pop_back();
    m_sink.range(start, map(cpu(t)), t, range);
    idle(t, 1200);
}

} // namespace ps::core::demo
