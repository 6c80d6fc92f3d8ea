#pragma once
// The step schedule of torch.profiler.profile / torch_npu.profiler.profile (seeds 002 and 004):
// `schedule(wait, warmup, active, repeat, skip_first)` decides, for every call of prof.step(),
// whether the profiler is idle, warming up or recording. Pure arithmetic, mirroring PyTorch's
// schedule_fn, so the helper's strip and the pasted call agree by construction.

#include <string>
#include <vector>

namespace ps::core::configedit {

struct ProfilerSchedule
{
    long long wait = 1;
    long long warmup = 1;
    long long active = 3;
    long long repeat = 1; // 0 = cycle until the profiler is stopped
    long long skipFirst = 0;

    bool operator==(const ProfilerSchedule &) const = default;
};

enum class ScheduleApi { Torch, TorchNpu };

enum class StepPhase {
    SkipFirst, // before the first cycle (skip_first)
    Wait,      // idle part of a cycle
    Warmup,    // tracing, results dropped
    Record,    // recorded; the last recorded step of a cycle also saves the trace
    Done,      // after `repeat` cycles
};

// The phase of step `step` (0-based count of prof.step() calls), as torch.profiler.schedule's
// schedule_fn computes it.
StepPhase phaseAt(const ProfilerSchedule &s, long long step);

// Records steps [first, end) (0-based, end exclusive) once, with `warmup` warm-up steps right
// before and skip_first = `skipFirst`: wait = first - warmup - skipFirst. Recording decode steps
// 30-60 gives wait=29, warmup=1, active=30, repeat=1. `error` is set when the range cannot be
// expressed (empty range, or fewer steps before `first` than warmup + skip_first).
struct ScheduleForRange
{
    ProfilerSchedule schedule;
    std::string error;
};
ScheduleForRange scheduleForRange(long long first, long long end, long long warmup, long long skipFirst = 0);

// Problems PyTorch rejects (negative values, active < 1) and ones it warns about (no warm-up).
std::vector<std::string> scheduleProblems(const ProfilerSchedule &s);

// "torch.profiler.schedule(wait=29, warmup=1, active=30, repeat=1)"; skip_first only when set.
std::string scheduleCall(const ProfilerSchedule &s, ScheduleApi api);
// "torch.profiler.tensorboard_trace_handler('DIR')"
std::string traceHandlerCall(ScheduleApi api, const std::string &dir);
// What the handler writes once per recorded cycle, e.g. "DIR/<hostname>_<pid>.<time_ms>.pt.trace.json".
std::string traceHandlerOutput(ScheduleApi api, const std::string &dir);

} // namespace ps::core::configedit
