#include "views/config/verldocs.h"

#include <QMap>

namespace ps::views {

namespace {

// Data table. Sources (verl-project/verl 1dda039b): verl/utils/profiler/config.py
// (ProfilerConfig, TorchProfilerScheduleConfig, TorchProfilerToolConfig docstrings and field
// comments), verl/trainer/config/ppo_trainer.yaml, actor/actor.yaml and rollout/rollout.yaml
// comments.
const QMap<QString, QString> &docs()
{
    static const QMap<QString, QString> k = {
        {"relocate_results",
         "When profiling finishes, move backend artifacts that a framework writes outside the flat layout into "
         "save_path: nsys reports, which Ray hardcodes under /tmp/ray/session_latest/logs/nsight (the directory is "
         "not configurable), and rollout engine traces, which land in a per-replica sub-directory. Runs on the "
         "profiled ranks. Inherited by every role's profiler."},
        {"finish_hook_cmd",
         "Shell command executed on the selected ranks ONCE, after the last profiled step (not once per step). "
         "Backend stop() and relocate_results still run every profiled step, so traces accumulate in save_path; this "
         "command then runs a single time to ship them off the node, e.g. 'mlx asset upload "
         "\"$VERL_PROFILE_SAVE_PATH\"'. The run context is exported as VERL_PROFILE_SAVE_PATH (the configured "
         "save_path), VERL_PROFILE_TOOL, VERL_PROFILE_RANK, VERL_PROFILE_PID, VERL_PROFILE_ROLE (if known) and "
         "VERL_PROFILE_RAY_NSIGHT_DIR (nsys only). null disables it."},
        {"finish_hook_all_ranks", "Run finish_hook_cmd on every rank. Inherited by every role's profiler."},
        {"finish_hook_ranks",
         "Ranks that run finish_hook_cmd. [] or [0,1,...]. Ignored when finish_hook_all_ranks is True. When both are "
         "unset the hook falls back to the profiled ranks (all_ranks/ranks). save_path is usually node-local, so "
         "pick one rank per node to upload that node's directory once."},
        {"schedule",
         "Schedule for torch.profiler.schedule, applied at the granularity of update mini-batches (profiler.step() "
         "is advanced once per mini-batch of the actor/critic update loop, never on the whole-batch stages like the "
         "log-prob forwards or rollout). The profiler cycles through skip_first -> (wait -> warmup -> active) x "
         "repeat. Scheduling is only enabled when active > 0; otherwise the update loop is recorded in full."},
        {"schedule.skip_first", "Mini-batches to skip before the first cycle (discrete only)"},
        {"schedule.wait", "Idle mini-batches (no collection) at the start of each cycle (discrete only)"},
        {"schedule.warmup", "Warmup mini-batches (tracing on, data discarded) each cycle (discrete only)"},
        {"schedule.active",
         "Mini-batches to record each cycle; <= 0 disables scheduling (record the whole update loop)"},
        {"schedule.repeat", "Number of cycles to repeat; 0 repeats until profiling stops (discrete only)"},
        {"profile_token_start",
         "Start collecting profiler data from this response-token index. null means collect from the first response "
         "token (full collection start)."},
        {"profile_token_end",
         "Stop collecting profiler data at this response-token index (exclusive). null means collect until the end "
         "(full collection)."},
        {"precision_debugger", "msprobe precision debugger (Precision debugger tool config (msprobe))."},
        {"precision_debugger.config_path", "Path to msprobe config json"},
        {"precision_debugger.stages",
         "Profile stages. Supported stages: actor_update, actor_compute_log_prob, ref_compute_log_prob, "
         "compute_values, critic_update, compute_rm_score"},
        {"precision_debugger.strict", "Whether to fail on unknown stage or missing msprobe"},
        {"rollout.tool", "profiler tool, default same as profiler.tool in global config. choices: npu, torch"},
        {"torch.contents",
         "Contents to profile, can be empty. options: cuda, cpu, memory, shapes, stack. CPU activity is collected "
         "either way, since the per-stage markers (update_actor, compute_log_prob, ...) are CPU-side events and a "
         "device-only trace cannot locate them."},
    };
    return k;
}

} // namespace

QString verlFieldDoc(const QString &field)
{
    return docs().value(field);
}

QString verlTooltip(const QString &keyPath, const QString &field)
{
    const QString doc = verlFieldDoc(field);
    return doc.isEmpty() ? keyPath : keyPath + "\n\n" + doc;
}

} // namespace ps::views
