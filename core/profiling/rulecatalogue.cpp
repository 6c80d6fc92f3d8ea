#include "core/profiling/rulecatalogue.h"

namespace ps::core::profiling {

namespace {
constexpr Severity E = Severity::Error;
constexpr Severity W = Severity::Warning;
constexpr Severity I = Severity::Info;
} // namespace

const std::vector<RuleInfo> &ruleCatalogue()
{
    // Spec references: ../shared/spec/profiling-config.md (A3 RLinf, B4/B5 verl, "Validation
    // rules worth enforcing" for the extra checks).
    static const std::vector<RuleInfo> k = {
        // ---- RLinf, raised by RLinf itself (A3) ----
        {"rlinf.profiling-not-dict", E, true, "cluster.profiling is not a mapping"},
        {"rlinf.backend-missing", E, true, "cluster.profiling.backend is missing or empty"},
        {"rlinf.backend-unknown", E, true, "backend is neither nsight nor rocprof_sys"},
        {"rlinf.unknown-field", E, true, "a key the backend's config class does not have"},
        {"rlinf.worker-groups-type", E, true, "worker_groups is neither a list nor a string"},
        {"rlinf.steps-type", E, true, "steps is not a list"},
        {"rlinf.steps-not-number", E, true, "a steps entry that int() cannot convert"},
        {"rlinf.steps-negative", E, true, "a negative steps entry"},
        {"rlinf.flags-type", E, true, "flags is neither a list nor a string"},
        {"rlinf.flags-empty", E, true, "an empty flag name"},
        {"rlinf.options-type", E, true, "options is not a mapping"},
        {"rlinf.options-alias-conflict", E, true, "both stop-on-range-end and capture-range-end"},
        {"rlinf.options-o-and-output", E, true, "both o and output"},
        {"rlinf.flags-options-duplicate", E, true, "a name given as a flag and as an option"},
        {"rlinf.option-name-empty", E, true, "an empty option name (RLinf only fails at launch)"},
        {"rlinf.rocprof-args-type", E, true, "rocprof_sys args is not a mapping"},
        {"rlinf.rocprof-env-type", E, true, "rocprof_sys env is not a mapping"},
        {"rlinf.backend-unavailable", E, true, "the backend's tool is not installed on a node"},
        {"rlinf.no-output-dir", W, true, "no output_dir and none derivable: reports go to the temp dir"},
        // ---- RLinf, extra checks ----
        {"rlinf.backend-type-key", E, false, "BACKEND_TYPE key (passes the field check, then TypeError)"},
        {"rlinf.enabled-not-bool", E, false, "enabled is not a bool (RLinf tests truthiness)"},
        {"rlinf.steps-not-int", W, false, "a steps entry that is not an int (RLinf truncates it)"},
        {"rlinf.steps-duplicate", W, false, "a step listed twice"},
        {"rlinf.option-value-not-scalar", E, false, "an option/arg/env value that is null, a list or a mapping"},
        {"rlinf.rocprof-bool-arg", W, false, "a bool rocprof arg (RLinf renders True/False)"},
        {"rlinf.option-output", W, false, "output given: nsys gets both --output and the default -o"},
        {"rlinf.o-without-pid", W, false, "o without %p: every process of a group writes one file"},
        {"rlinf.o-without-rank", W, false, "o names no rank (%q{RANK}, in the file or a folder): ranks by PID only"},
        {"rlinf.multi-step-stop", W, false, "several steps with capture-range-end=stop: only the first is captured"},
        {"rlinf.capture-range-nvtx", W, false, "capture-range=nvtx needs NVTX ranges outside the windows"},
        {"rlinf.no-worker-groups", W, false, "profiling enabled but no worker group listed"},
        {"rlinf.nothing-profiled", W, false, "the config profiles no worker (the warning says why)"},
        {"rlinf.unknown-worker-group", W, false, "a worker_groups entry that names no group of this run"},
        {"rlinf.channel-group-steps", W, false, "a channel group or RewardGroup with steps: never opens a range"},
        {"rlinf.legacy-nsight-block", W, false, "cluster.nsight is silently ignored since the rename"},
        {"rlinf.placement-invalid", E, false, "a component_placement value that cannot be parsed"},
        // ---- RLinf cluster.tracer (R1) and torch-profiler knobs (R2) ----
        {"rlinf.tracer-not-dict", E, true, "cluster.tracer is not a mapping (validate_cfg calls .get on it)"},
        {"rlinf.tracer-enable-not-bool", W, false, "cluster.tracer.enable is not a bool (RLinf tests truthiness)"},
        {"rlinf.tracer-unknown-key", W, false, "a cluster.tracer key RLinf does not read"},
        {"rlinf.megatron-profiler-missing", E, true, "megatron.use_profiler without a megatron.profiler block"},
        {"rlinf.megatron-warmup-invalid", E, true, "megatron.profiler.schedule_warmup null or negative"},
        {"rlinf.megatron-active-invalid", E, true, "megatron.profiler.schedule_active null or not positive"},
        {"rlinf.megatron-profiler-unknown-key", E, true, "a megatron.profiler key PyTorchProfiler does not take"},
        {"rlinf.megatron-profiler-missing-key", E, true, "a megatron.profiler key PyTorchProfiler requires"},
        {"rlinf.megatron-activity-unknown", E, true, "a megatron.profiler activity other than cpu or cuda"},
        {"rlinf.megatron-schedule-wait-negative", E, true, "algorithm.n_minibatches below warmup + active"},
        {"rlinf.megatron-chrome-export-broken", W, false, "export_chrome_trace alone: RLinf's chrome handler fails"},
        {"rlinf.megatron-no-export", W, false, "neither export_tensorboard nor export_chrome_trace: no trace saved"},
        {"rlinf.vllm-profiler-dir-unused", W, false, "rollout.vllm.torch_profiler_dir with a non-vLLM rollout"},
        {"rlinf.vllm-profiler-never-started", I, false, "torch_profiler_dir set: RLinf never starts vLLM's profiler"},
        // ---- verl, raised by verl itself (B4, B5) ----
        {"verl.worker-nsight-options-missing", E, true, "tool nsys with steps but no worker_nsight_options"},
        {"verl.capture-range-end-missing", E, true, "worker_nsight_options lacks capture-range-end (KeyError)"},
        {"verl.ranks-type", E, true, "a role's ranks is not a list"},
        {"verl.tool-config-missing", E, true, "an enabled role without tool_config"},
        {"verl.torch-contents-invalid", E, true, "an unsupported torch profiler content"},
        {"verl.torch-contents-type", E, true, "torch profiler contents is not a list"},
        {"verl.torch-memory-type", E, true, "torch_memory trace_alloc_max_entries/stack_depth not an int"},
        {"verl.torch-memory-positive", E, true, "torch_memory trace_alloc_max_entries/stack_depth not positive"},
        {"verl.npu-contents-type", E, true, "npu contents is not a list"},
        {"verl.npu-contents-invalid", E, true, "an unsupported npu content"},
        {"verl.npu-level-type", E, true, "npu level is not a string"},
        {"verl.npu-level-invalid", E, true, "an unsupported npu level"},
        {"verl.npu-analysis-type", E, true, "npu analysis is not a bool"},
        {"verl.role-unknown-key", E, true, "a role profiler key ProfilerConfig does not have (struct merge)"},
        {"verl.legacy-worker-nsight-missing", E, true, "old schema: profile_steps without worker_nsight_options"},
        // ---- verl, extra checks ----
        {"verl.nothing-profiled", W, false, "the config profiles no worker (the warning says why)"},
        {"verl.tool-unknown", E, false, "global_profiler.tool is not null, nsys, npu, torch or torch_memory"},
        {"verl.role-tool-mismatch", E, false, "a role's tool differs from global_profiler.tool"},
        {"verl.steps-invalid", E, false, "global_profiler.steps is not null or a list of positive ints"},
        {"verl.steps-empty", I, false, "global_profiler.steps is [] (profiling disabled)"},
        {"verl.ranks-not-int", E, false, "a ranks entry that is not an int"},
        {"verl.no-role-enabled", W, false, "a tool and steps are set but no role is enabled"},
        {"verl.capture-range-not-cuda", W, false, "worker capture-range is not cudaProfilerApi"},
        {"verl.capture-range-end-invalid", W, false, "capture-range-end is not null, stop, repeat[-shutdown:N]"},
        {"verl.repeat-shutdown-too-small", W, false, "repeat-shutdown:N below the predicted number of ranges"},
        {"verl.multi-step-stop", W, false, "several capture ranges with capture-range-end=stop"},
        {"verl.o-without-rank", W, false,
         "worker o/output names no rank (%q{RANK}, file or folder): PIDs only < 2023.4"},
        {"verl.nsight-value-not-string", W, false, "a non-string nsight option value (Ray formats it with str())"},
        {"verl.nsight-value-unquoted", E, false, "an nsight option that the shell would split (Ray does not quote)"},
        {"verl.continuous-discrete", W, false, "profile_continuous_steps with nsys discrete"},
        {"verl.discrete-inconsistent", W, false, "discrete differs across roles"},
        {"verl.agent-loop-discrete", W, false, "agent-loop rollout profiled with npu/torch but not discrete"},
        {"verl.legacy-key", W, false, "an old-schema key, with the new key it maps to"},
        // ---- verl, per release (../shared/spec/profiling-config-2026.md V2-V10; verlversionrules.cpp) ----
        {"verl.reward-model-profiler-removed", E, false, "reward_model.profiler on verl >= 0.7.1 (removed by #5255)"},
        {"verl.torch-key-unknown", E, false, "a torch tool_config key that version's TorchProfilerToolConfig lacks"},
        {"verl.torch-schedule-type", E, true, "a torch schedule field that is not an int (0.9+)"},
        {"verl.torch-schedule-negative", E, true, "a negative torch schedule field (0.9+)"},
        {"verl.torch-schedule-inactive", W, false, "a torch schedule with active 0: verl ignores it (0.9+)"},
        {"verl.profile-token-type", E, true, "profile_token_start/_end not an int or None (0.9+)"},
        {"verl.profile-token-negative", E, true, "a negative profile_token_start/_end (0.9+)"},
        {"verl.profile-token-order", E, true, "profile_token_end not above profile_token_start (0.9+)"},
        {"verl.precision-debugger-type", E, true, "a precision_debugger field of the wrong type (0.8+)"},
        {"verl.precision-debugger-steps-deprecated", W, true, "precision_debugger.steps is ignored (0.8+)"},
        {"verl.precision-debugger-stage", W, true, "an unknown precision_debugger stage (0.8+)"},
        {"verl.precision-debugger-stage-strict", E, true, "an unknown precision_debugger stage with strict (0.8+)"},
        {"verl.finish-hook-cmd-type", E, true, "finish_hook_cmd is not a string or null (main)"},
        {"verl.finish-hook-ranks-type", E, true, "finish_hook_ranks is not a list (main)"},
        {"verl.finish-hook-double-quote", W, false, "finish_hook_cmd holds a double quote (main)"},
        {"verl.relocate-ray-temp-dir", W, false, "relocate_results with a non-default Ray temp dir (main)"},
        {"verl.py-executable-nsys", W, false, "ray_init.runtime_env.py_executable under nsys (Ray #66093, main)"},
        {"verl.rollout-tool-unsupported", W, true, "a profiler tool the rollout server does not accept (0.7.1+)"},
        {"verl.rank-out-of-range", W, false, "a role's profiler rank at or above nnodes x n_gpus_per_node"},
        {"verl.rollout-rank-out-of-range", W, false, "a rollout profiler rank that selects no replica (0.9+)"},
        {"verl.rollout-ranks-global", I, false, "main reads rollout ranks as global GPU ranks, not replicas"},
    };
    return k;
}

const RuleInfo *findRule(std::string_view id)
{
    for (const auto &r : ruleCatalogue())
        if (r.id == id)
            return &r;
    return nullptr;
}

} // namespace ps::core::profiling
