#include "core/configedit/profilerschedule.h"

namespace ps::core::configedit {

StepPhase phaseAt(const ProfilerSchedule &s, long long step)
{
    if (step < s.skipFirst)
        return StepPhase::SkipFirst;
    step -= s.skipFirst;
    const long long cycle = s.wait + s.warmup + s.active;
    if (cycle <= 0)
        return StepPhase::Done;
    if (s.repeat > 0 && step / cycle >= s.repeat)
        return StepPhase::Done;
    const long long mod = step % cycle;
    if (mod < s.wait)
        return StepPhase::Wait;
    if (mod < s.wait + s.warmup)
        return StepPhase::Warmup;
    return StepPhase::Record;
}

ScheduleForRange scheduleForRange(long long first, long long end, long long warmup, long long skipFirst)
{
    ScheduleForRange r;
    if (end <= first) {
        r.error = "the range is empty: the end step must come after the first recorded step";
        return r;
    }
    if (warmup < 0 || skipFirst < 0) {
        r.error = "warmup and skip_first must not be negative";
        return r;
    }
    if (first - warmup - skipFirst < 0) {
        r.error = "step " + std::to_string(first) + " leaves no room for " + std::to_string(warmup) + " warm-up and " +
                  std::to_string(skipFirst) + " skipped step(s) before it";
        return r;
    }
    r.schedule = {first - warmup - skipFirst, warmup, end - first, 1, skipFirst};
    return r;
}

std::vector<std::string> scheduleProblems(const ProfilerSchedule &s)
{
    std::vector<std::string> p;
    if (s.wait < 0 || s.warmup < 0 || s.active < 1 || s.repeat < 0 || s.skipFirst < 0)
        p.push_back("Invalid profiler schedule arguments: wait, warmup, repeat and skip_first must be >= 0 "
                    "and active must be >= 1");
    if (s.warmup == 0)
        p.push_back("Profiler won't be using warmup, this can skew profiler results");
    return p;
}

std::string scheduleCall(const ProfilerSchedule &s, ScheduleApi api)
{
    std::string call = api == ScheduleApi::Torch ? "torch.profiler.schedule(" : "torch_npu.profiler.schedule(";
    call += "wait=" + std::to_string(s.wait) + ", warmup=" + std::to_string(s.warmup) +
            ", active=" + std::to_string(s.active) + ", repeat=" + std::to_string(s.repeat);
    if (s.skipFirst > 0)
        call += ", skip_first=" + std::to_string(s.skipFirst);
    return call + ")";
}

namespace {
std::string pyQuote(const std::string &s)
{
    std::string q = "'";
    for (char c : s) {
        if (c == '\'' || c == '\\')
            q += '\\';
        q += c;
    }
    return q + "'";
}
} // namespace

std::string traceHandlerCall(ScheduleApi api, const std::string &dir)
{
    return std::string(api == ScheduleApi::Torch ? "torch.profiler" : "torch_npu.profiler") +
           ".tensorboard_trace_handler(" + pyQuote(dir) + ")";
}

std::string traceHandlerOutput(ScheduleApi api, const std::string &dir)
{
    // torch: worker_name defaults to "<hostname>_<pid>", file "<worker>.<time_ms>.pt.trace.json";
    // torch_npu writes a folder per worker and cycle that MindStudio Insight opens.
    if (api == ScheduleApi::Torch)
        return dir + "/<hostname>_<pid>.<time_ms>.pt.trace.json";
    return dir + "/<hostname>_<pid>_<timestamp>_ascend_pt/";
}

} // namespace ps::core::configedit
