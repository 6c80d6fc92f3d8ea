#include "core/profiling/rlinftorchprofiler.h"

#include "core/profiling/pathutil.h"
#include "core/profiling/pyconvert.h"
#include "core/profiling/pythonrepr.h"

#include <algorithm>
#include <set>

namespace ps::core::profiling {

using config::Node;

namespace {

// PyTorchProfiler.from_config's required_params: exactly these keys, no more, no fewer.
const std::vector<std::string> kProfilerParams = {
    "output_dir",      "activities",      "record_shapes",      "profile_memory",      "with_stack",
    "with_flops",      "with_modules",    "export_tensorboard", "export_chrome_trace", "chrome_filename_prefix",
    "schedule_warmup", "schedule_active", "schedule_repeat"};

// Python's repr of a set of strings. CPython's order depends on string hashing (randomised per
// process), so a message with several names is printed sorted: same members, stable text.
std::string setRepr(std::vector<std::string> names)
{
    std::sort(names.begin(), names.end());
    std::string s = "{";
    for (size_t i = 0; i < names.size(); ++i)
        s += (i ? ", " : "") + pythonReprString(names[i]);
    return s + "}";
}

void checkKeys(const ConfigReader &cfg, const Node &prof, const std::string &path, Diagnostics &diags)
{
    std::vector<std::string> unknown, missing;
    for (const std::string &k : prof.keys())
        if (std::find(kProfilerParams.begin(), kProfilerParams.end(), k) == kProfilerParams.end())
            unknown.push_back(k);
    // validate_cfg has already set schedule_warmup and schedule_active (defaults 3 and 1).
    for (const std::string &k : kProfilerParams)
        if (!prof.find(k) && k != "schedule_warmup" && k != "schedule_active")
            missing.push_back(k);
    if (!unknown.empty())
        cfg.report(diags, "rlinf.megatron-profiler-unknown-key",
                   "ValueError: Unknown profiler parameters: " + setRepr(unknown), path + "." + unknown.front());
    else if (!missing.empty())
        cfg.report(diags, "rlinf.megatron-profiler-missing-key",
                   "ValueError: Missing required profiler parameters: " + setRepr(missing), path);
}

// init_profiler's asserts: warmup is tested >= 0 (its message says "greater than 0"), active > 0.
void checkSchedule(const ConfigReader &cfg, RLinfMegatronProfiler &m, const Node &prof, Diagnostics &diags)
{
    auto number = [&](const char *key, long long fallback, bool &ok) {
        const Node *v = prof.find(key);
        ok = true;
        if (!v)
            return fallback; // validate_cfg's default
        std::string error;
        const std::optional<long long> n = v->isNull() ? std::nullopt : pythonInt(*v, error);
        ok = n.has_value();
        return n.value_or(-1);
    };
    bool ok = true;
    m.scheduleWarmup = number("schedule_warmup", 3, ok);
    if (!ok || m.scheduleWarmup < 0)
        cfg.report(diags, "rlinf.megatron-warmup-invalid",
                   "AssertionError: <schedule_warmup> must be set and greater than 0 when using profiler.",
                   m.path + ".schedule_warmup");
    m.scheduleActive = number("schedule_active", 1, ok);
    if (!ok || m.scheduleActive <= 0)
        cfg.report(diags, "rlinf.megatron-active-invalid",
                   "AssertionError: <schedule_active> must be set and greater than 0 when using profiler.",
                   m.path + ".schedule_active");
    m.scheduleRepeat = number("schedule_repeat", 0, ok);
    // init_fwd_bwd_schedule(algorithm.n_minibatches) on the first training step.
    const Node *nmb = cfg.get("algorithm.n_minibatches");
    std::string error;
    if (nmb && !nmb->isNull())
        if (const auto n = pythonInt(*nmb, error); n) {
            const long long wait = *n - m.scheduleWarmup - m.scheduleActive;
            if (wait < 0)
                cfg.report(diags, "rlinf.megatron-schedule-wait-negative",
                           "AssertionError: schedule_wait should greater than or equal to 0,got " +
                               std::to_string(wait),
                           m.path + ".schedule_active");
        }
}

void checkActivities(const ConfigReader &cfg, const RLinfMegatronProfiler &m, const Node &prof, Diagnostics &diags)
{
    const Node *acts = prof.find("activities");
    if (!acts || !acts->isList())
        return;
    for (size_t i = 0; i < acts->size(); ++i) {
        const std::string a = pythonStr(acts->items()[i]);
        if (toLower(a) != "cpu" && toLower(a) != "cuda")
            cfg.report(diags, "rlinf.megatron-activity-unknown", "ValueError: Unknown profiler activity '" + a + "'.",
                       m.path + ".activities." + std::to_string(i));
    }
}

void checkExports(const ConfigReader &cfg, const RLinfMegatronProfiler &m, Diagnostics &diags)
{
    if (m.exportTensorboard)
        return;
    if (m.exportChromeTrace)
        cfg.report(diags, "rlinf.megatron-chrome-export-broken",
                   "export_chrome_trace without export_tensorboard writes nothing: RLinf's chrome handler builds the "
                   "path as str / str and prints \"Failed to export Chrome trace: unsupported operand type(s) for /: "
                   "'str' and 'str'\" for every trace",
                   m.path + ".export_chrome_trace");
    else
        cfg.report(diags, "rlinf.megatron-no-export",
                   "export_tensorboard and export_chrome_trace are both false: the profiler runs but no trace is saved",
                   m.path + ".export_tensorboard");
}

// validate_cfg: `<role>.megatron.use_profiler` is read only when the role trains with Megatron.
bool roleUsesMegatron(const ConfigReader &cfg, const std::string &role)
{
    if (cfg.string(role + ".training_backend") != "megatron")
        return false;
    if (role == "critic") {
        const Node *use = cfg.get("critic.use_critic_model");
        return use && pythonTruthy(*use);
    }
    return true;
}

void readMegatronProfiler(const ConfigReader &cfg, const std::string &role, RLinfProfiling &out, Diagnostics &diags)
{
    const std::string megatron = role + ".megatron";
    const Node *use = cfg.get(megatron + ".use_profiler");
    if (!roleUsesMegatron(cfg, role) || !use || !pythonTruthy(*use))
        return;
    RLinfMegatronProfiler m;
    m.role = role;
    m.path = megatron + ".profiler";
    const Node *prof = cfg.get(m.path);
    if (!prof || !prof->isDict()) {
        cfg.report(diags, "rlinf.megatron-profiler-missing",
                   "Missing key profiler\n    full_key: " + m.path + "\n    object_type=dict (" + megatron +
                       ".use_profiler is true, so validate_cfg sets profiler.schedule_warmup)",
                   prof ? m.path : megatron + ".use_profiler");
        return;
    }
    if (const Node *od = prof->find("output_dir"); od && !od->isNull())
        m.outputDir = pythonStr(*od);
    const Node *tb = prof->find("export_tensorboard");
    const Node *chrome = prof->find("export_chrome_trace");
    m.exportTensorboard = tb && pythonTruthy(*tb);
    m.exportChromeTrace = chrome && pythonTruthy(*chrome);
    checkSchedule(cfg, m, *prof, diags);
    checkKeys(cfg, *prof, m.path, diags);
    checkActivities(cfg, m, *prof, diags);
    checkExports(cfg, m, diags);
    out.megatronProfilers.push_back(std::move(m));
}

} // namespace

void readRLinfTorchProfilers(const ConfigReader &cfg, RLinfProfiling &out, Diagnostics &diags)
{
    out.megatronProfilers.clear();
    for (const char *role : {"actor", "critic"})
        readMegatronProfiler(cfg, role, out, diags);
    out.vllmTorchProfilerDir.clear();
    const std::string dirPath = "rollout.vllm.torch_profiler_dir";
    const Node *dir = cfg.get(dirPath);
    if (!dir || dir->isNull())
        return;
    const std::string backend = cfg.string("rollout.rollout_backend", "sglang");
    if (backend == "vllm")
        out.vllmTorchProfilerDir = pythonStr(*dir);
    if (backend != "vllm")
        cfg.report(diags, "rlinf.vllm-profiler-dir-unused",
                   "rollout.vllm.torch_profiler_dir is set but rollout.rollout_backend is '" + backend +
                       "': only the vLLM rollout worker exports VLLM_TORCH_PROFILER_DIR",
                   dirPath);
    else
        cfg.report(diags, "rlinf.vllm-profiler-never-started",
                   "RLinf exports VLLM_TORCH_PROFILER_DIR and creates the folder, but never calls the engine's "
                   "start_profile/stop_profile: vLLM writes traces there only if something else does",
                   dirPath);
}

void planRLinfTorchProfilers(const RLinfProfiling &p,
                             const std::vector<std::pair<std::string, std::string>> &roleGroups, LaunchPlan &plan)
{
    auto groupOf = [&](const std::string &role) {
        for (const auto &[r, g] : roleGroups)
            if (r == role)
                return g;
        return std::string();
    };
    for (const RLinfMegatronProfiler &m : p.megatronProfilers) {
        const std::string group = groupOf(m.role);
        if (!m.exportTensorboard || group.empty())
            continue;
        // tensorboard_trace_handler(dir) names files "<hostname>_<pid>.<time_ns>.pt.trace.json".
        for (WorkerLaunch &w : plan.workers)
            if (w.group == group)
                for (const char *kind : {"fwd", "fwd_bwd"})
                    w.outputs.push_back(joinPath(joinPath(joinPath(m.outputDir, "tensorboard"), kind),
                                                 "<hostname>_<PID>.<time_ns>.pt.trace.json"));
        plan.notes.push_back(
            m.path + ": torch.profiler on every " + group + " rank: forward-only passes traced " + "for the first " +
            std::to_string(m.scheduleRepeat) + " calls, training passes on schedule(wait=n_minibatches-" +
            std::to_string(m.scheduleWarmup) + "-" + std::to_string(m.scheduleActive) +
            ", warmup=" + std::to_string(m.scheduleWarmup) + ", active=" + std::to_string(m.scheduleActive) +
            ", repeat=" + std::to_string(m.scheduleRepeat) +
            "); a relative output_dir is taken "
            "against each worker's working directory");
    }
    if (p.vllmTorchProfilerDir.empty())
        return;
    const std::string rollout = groupOf("rollout");
    for (WorkerLaunch &w : plan.workers)
        if (w.group == rollout)
            w.env.emplace_back("VLLM_TORCH_PROFILER_DIR", p.vllmTorchProfilerDir);
}

} // namespace ps::core::profiling
