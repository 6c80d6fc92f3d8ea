#include "core/profiling/verllaunch.h"

#include "core/profiling/digesthook.h"

#include "core/common/shellquote.h"
#include "core/profiling/nsysoutput.h"
#include "core/profiling/pathutil.h"
#include "core/profiling/verloutputs.h"
#include "core/profiling/verlschema.h"

#include <algorithm>
#include <set>

namespace ps::core::profiling {

namespace {

std::string windowLabel(const std::vector<long long> &steps)
{
    if (steps.size() == 1)
        return "step " + std::to_string(steps.front());
    return "steps " + std::to_string(steps.front()) + "-" + std::to_string(steps.back());
}

} // namespace

RayNsightCommand rayNsightCommand(const OptionList &options, const std::string &raySessionDir)
{
    RayNsightCommand out;
    out.argv = {"nsys", "profile"};
    std::string userO;
    for (const auto &[k, v] : options) {
        if (k == "o") {
            userO = v;
            continue;
        }
        if (k.size() > 1) {
            out.argv.push_back("--" + k + "=" + v);
        } else {
            out.argv.push_back("-" + k);
            out.argv.push_back(v);
        }
    }
    const std::string dir = joinPath(raySessionDir, "logs/nsight/");
    std::string joined;
    for (const auto &t : out.argv)
        joined += (joined.empty() ? "" : " ") + t;
    out.argv.push_back("-o");
    if (userO.empty()) {
        out.argv.push_back(dir + "worker_process_%p");
        out.command = joined + " -o " + dir + "'worker_process_%p'";
    } else {
        out.argv.push_back(dir + userO);
        out.command = joined + " -o " + dir + userO;
    }
    out.argv.push_back("python");
    out.command += " python";
    return out;
}

OptionList verlWorkerNsightOptions(const VerlProfiling &p)
{
    OptionList opts = p.workerOptions.value_or(OptionList{});
    for (auto &[k, v] : opts)
        if (k == "capture-range-end" && p.workerCaptureRangeEndNull)
            v = "repeat-shutdown:" + std::to_string(6 * (p.steps ? p.steps->size() : 0));
    return opts;
}

namespace {

constexpr const char *kNvtxInjectionEnv = "NVTX_INJECTION64_PATH";
constexpr const char *kNvtxInjectionDisabled = "/nonexistent/verl-disabled-nvtx-injection.so";
constexpr const char *kVerlRayNsightDir = "/tmp/ray/session_latest/logs/nsight"; // hardcoded in nvtx_profile.py

// What every worker of the global pool shares.
struct PoolContext
{
    const VerlProfiling &p;
    const LaunchOptions &options;
    bool stepsSet = false;
    bool nsys = false;
    bool workersWrapped = false;
    RayNsightCommand workerCmd = {};
    std::vector<std::vector<long long>> windows = {};
    std::vector<std::string> roles = {};
    long long miniBatches = 0;
    std::string nsightDir = {};
};

// The report a `-o` (Ray's default when absent) names under the nsight folder: nsys expands %p and
// %q{VAR} (verl puts RANK and WORLD_SIZE in each worker's runtime_env), then adds `rangeSuffix`
// (.<RID> per capture range) and .nsys-rep.
std::string rayReportPath(const PoolContext &c, const std::optional<OptionList> &options,
                          const std::vector<std::pair<std::string, std::string>> &env, const std::string &rangeSuffix)
{
    const std::string *o = options ? findOption(*options, "o") : nullptr;
    std::string name = expandNsysOutput(o ? *o : "worker_process_%p", env);
    const std::string ext = ".nsys-rep";
    if (name.size() >= ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
        name.erase(name.size() - ext.size());
    return c.nsightDir + name + rangeSuffix + ext;
}

// relocate_results moves only the reports named worker_process_<PID>[.<RID>] (nvtx_profile.py).
bool relocated(const VerlProfiling &p)
{
    const std::string *o = p.workerOptions ? findOption(*p.workerOptions, "o") : nullptr;
    return p.relocateResults && verlVersionTraits(p.version).relocateAndFinishHook && (!o || *o == "worker_process_%p");
}

// main (#7408) names nsys ranges by the stage label, earlier releases by the method name.
std::string nsysRangeName(const VerlProfiling &p, const std::string &call)
{
    return verlVersionTraits(p.version).stageLabelIsNvtxMessage ? verlStageLabel(call) : call;
}

// main, tool torch: verl's runtime env disables NVTX injection so Kineto gets CUPTI (V10).
void addProfilingEnv(const VerlProfiling &p, WorkerLaunch &w)
{
    if (p.tool == "torch" && verlVersionTraits(p.version).nvtxInjectionForTorch)
        w.env.emplace_back(kNvtxInjectionEnv, kNvtxInjectionDisabled);
}

WorkerLaunch controllerLaunch(const PoolContext &c)
{
    const VerlProfiling &p = c.p;
    WorkerLaunch controller;
    controller.name = "TaskRunner";
    controller.group = "TaskRunner";
    controller.node = -1;
    if (c.nsys && c.stepsSet && p.controllerOptions) {
        const auto cmd = rayNsightCommand(*p.controllerOptions, c.options.raySessionDir);
        controller.wrapped = true;
        controller.argv = cmd.argv;
        controller.command = cmd.command;
        controller.captureRanges.push_back({"whole process (no capture range)", {}});
        controller.outputs.push_back(rayReportPath(c, p.controllerOptions, {}, ""));
    } else {
        controller.reason = p.device != "cuda" ? "device is not cuda"
                            : p.tool != "nsys" ? "tool is not nsys: runtime_env has no nsight entry"
                            : !c.stepsSet      ? "global_profiler.steps is null or empty"
                                               : "controller_nsight_options is null";
    }
    addProfilingEnv(p, controller);
    return controller;
}

void nsysWorker(const PoolContext &c, WorkerLaunch &w)
{
    const VerlProfiling &p = c.p;
    w.wrapped = true;
    w.argv = c.workerCmd.argv;
    w.command = c.workerCmd.command;
    const long long ranges = verlRangesForRank(p, w.rank);
    const bool discrete = ranges > 0 && ranges != static_cast<long long>(c.windows.size());
    if (ranges == 0) {
        w.reason = "runs under nsys but no role profiles this rank: no capture range opens";
        return;
    }
    if (!discrete) {
        for (const auto &win : c.windows)
            w.captureRanges.push_back({windowLabel(win), win});
    } else {
        const auto calls = verlAnnotatedCalls(p, w.rank);
        for (long long s : std::set<long long>(p.steps->begin(), p.steps->end()))
            for (const auto &call : calls)
                w.captureRanges.push_back({"step " + std::to_string(s) + ": " + nsysRangeName(p, call), {s}});
    }
    if (relocated(p)) {
        const VerlRoleProfiler *actor = p.role("actor");
        w.outputs.push_back(verlRelocatedNsysPath(actor && !actor->savePath.empty() ? actor->savePath : p.savePath,
                                                  verlHybridWorkerRole(p)));
    } else {
        const std::string world = std::to_string(p.nnodes * p.gpusPerNode);
        w.outputs.push_back(
            rayReportPath(c, p.workerOptions, {{"RANK", std::to_string(w.rank)}, {"WORLD_SIZE", world}}, ".<RID>"));
    }
}

void inProcessWorker(const PoolContext &c, WorkerLaunch &w)
{
    const VerlProfiling &p = c.p;
    w.reason = p.device != "cuda" && p.tool == "nsys" ? "device is not cuda"
               : p.tool == "nsys"
                   ? (c.stepsSet ? "worker_nsight_options is null" : "global_profiler.steps is null or empty")
               : p.tool ? "tool " + *p.tool + " profiles in process: no launch wrapper"
                        : "global_profiler.tool is null";
    if (!c.stepsSet || !p.tool || *p.tool == "nsys")
        return;
    w.outputs = verlInProcessOutputs(p, w.rank, c.miniBatches);
    if (!w.outputs.empty())
        for (const auto &win : c.windows)
            w.captureRanges.push_back({windowLabel(win), win});
}

// finish_hook_cmd (main): once, after the last profiled step, on the selected ranks (V3).
void finishHook(const PoolContext &c, WorkerLaunch &w)
{
    const VerlProfiling &p = c.p;
    if (!p.finishHookCmd || !c.stepsSet || !verlVersionTraits(p.version).relocateAndFinishHook)
        return;
    const VerlRoleProfiler *actor = p.role("actor");
    const bool selected = p.finishHookAllRanks         ? true
                          : !p.finishHookRanks.empty() ? std::find(p.finishHookRanks.begin(), p.finishHookRanks.end(),
                                                                   w.rank) != p.finishHookRanks.end()
                                                       : actor && actor->profilesRank(w.rank, p.legacy);
    if (!selected)
        return;
    HookRun hook;
    hook.when = "after step " + std::to_string(*std::max_element(p.steps->begin(), p.steps->end()));
    hook.argv = {"/bin/sh", "-c", *p.finishHookCmd};
    hook.command = shellJoin(hook.argv);
    const std::string save = actor && !actor->savePath.empty() ? actor->savePath : p.savePath;
    hook.env = {{kVerlProfileSavePath, save},
                {kVerlProfileTool, p.tool.value_or("")},
                {kVerlProfileRank, std::to_string(w.rank)},
                {kVerlProfilePid, "<PID>"},
                {kVerlProfileRole, verlHybridWorkerRole(p)}};
    if (p.tool == "nsys")
        hook.env.emplace_back(kVerlProfileRayNsightDir, kVerlRayNsightDir);
    w.hooks.push_back(std::move(hook));
}

// 0.9+: vLLM/SGLang write their own torch traces per rollout replica (V7).
void rolloutEngineOutputs(const PoolContext &c, WorkerLaunch &w)
{
    const VerlProfiling &p = c.p;
    const VerlRoleProfiler *rollout = p.role("rollout");
    if (p.version < VerlVersion::V0_9 || p.tool != "torch" || !c.stepsSet || !rollout || !rollout->enable ||
        (p.rolloutEngine != "vllm" && p.rolloutEngine != "sglang") || w.rank % p.rolloutGpusPerReplica != 0)
        return;
    const long long replica = w.rank / p.rolloutGpusPerReplica;
    // 0.9 keys the server's DistProfiler on its replica index; main maps the global GPU ranks in
    // `ranks` to the replicas that own them (build_rollout_dist_profiler).
    bool profiled = p.version < VerlVersion::Main && rollout->profilesRank(replica, false);
    for (long long g = w.rank; p.version >= VerlVersion::Main && g < w.rank + p.rolloutGpusPerReplica; ++g)
        profiled = profiled || rollout->profilesRank(g, false);
    if (!profiled)
        return;
    const std::string save = rollout->savePath.empty() ? p.savePath : rollout->savePath;
    if (p.relocateResults)
        w.outputs.push_back(joinPath(save, "rollout-replica" + std::to_string(replica) + "_<engine trace file>"));
    else
        w.outputs.push_back(joinPath(save, "agent_loop_rollout_replica_" + std::to_string(replica) + "/"));
}

WorkerLaunch poolWorker(const PoolContext &c, long long rank)
{
    WorkerLaunch w;
    w.group = "global_pool";
    w.rank = rank;
    w.node = c.p.gpusPerNode > 0 ? rank / c.p.gpusPerNode : 0;
    w.name = "global_pool:" + std::to_string(rank);
    w.roles = c.roles;
    if (c.workersWrapped)
        nsysWorker(c, w);
    else
        inProcessWorker(c, w);
    rolloutEngineOutputs(c, w);
    finishHook(c, w);
    addProfilingEnv(c.p, w);
    return w;
}

// Reports named without a rank are told apart by PID only, unless nsys (2023.4 and later) records
// the worker's environment; validate warns for a user's `o`, the plan says it for Ray's default.
void rankNamingNotes(const PoolContext &c, LaunchPlan &plan)
{
    const VerlProfiling &p = c.p;
    if (!c.workersWrapped)
        return;
    const std::string *o = findOption(*p.workerOptions, "o");
    if (!o)
        plan.notes.push_back("reports are named worker_process_<PID> (Ray's default -o): ranks are known only from "
                             "exports that record the environment (nsys 2023.4 and later); to name them with any "
                             "nsys, add o: " +
                             withRankVariable("worker_process_%p") + " to worker_nsight_options");
    if (o && p.relocateResults && verlVersionTraits(p.version).relocateAndFinishHook && !relocated(p))
        plan.notes.push_back("relocate_results moves only reports named worker_process_<PID>: with o: " + *o +
                             " they stay under " + c.nsightDir);
}

void addNotes(const PoolContext &c, LaunchPlan &plan)
{
    const VerlProfiling &p = c.p;
    plan.notes.push_back(std::string("verl ") + verlVersionName(p.version) +
                         (p.detection.overridden ? " (--verl-version)"
                          : p.detection.detected ? " (detected)"
                                                 : " (assumed)"));
    if (c.nsys && c.stepsSet) {
        if (relocated(p))
            plan.notes.push_back("relocate_results: each worker moves its reports from " +
                                 std::string(kVerlRayNsightDir) +
                                 " into save_path after every profiled step, named "
                                 "<role>_<hostname>_worker_process_<PID>.<RID>.nsys-rep");
        else
            plan.notes.push_back(
                "Ray writes the reports on each node under " + c.nsightDir +
                " (the session id is only known once Ray starts; /tmp/ray/session_latest links to it)");
        plan.notes.push_back("<RID> numbers the capture ranges of one process (one report per range), not the "
                             "training step");
        plan.notes.push_back("Ray joins the nsys command without shell quoting; the TaskRunner runs on whichever node "
                             "Ray picks");
    } else if (c.stepsSet && p.tool && *p.tool != "nsys") {
        if (p.savePath.empty() || p.savePath.front() != '/')
            plan.notes.push_back("save_path is relative to each worker's working directory on its node");
        if (p.tool == "torch" && p.continuous && p.version < VerlVersion::V0_7_1)
            plan.notes.push_back("torch continuous mode rewrites one file per rank and role on every profiled step");
    }
    if (p.tool == "torch" && verlVersionTraits(p.version).nvtxInjectionForTorch)
        plan.notes.push_back(
            "tool torch: verl sets NVTX_INJECTION64_PATH=/nonexistent/verl-disabled-nvtx-injection.so "
            "for all workers so Kineto can subscribe to CUPTI (keep yours with VERL_KEEP_NVTX_INJECTION=1)");
    if (p.fullyAsync && p.version >= VerlVersion::V0_8)
        plan.notes.push_back("fully-async trainer: global_profiler.steps counts parameter versions "
                             "(current_param_version + 1, #6461), not rollout or trainer iterations");
    if (verlVersionTraits(p.version).relocateAndFinishHook && c.stepsSet && p.tool && !p.finishHookCmd)
        plan.notes.push_back(std::string("finish_hook_cmd='") + kVerlDigestHookCommand +
                             "' would digest each profiled rank's reports on its node after the last profiled step, "
                             "so that only the digests need collecting");
    if (verlVersionTraits(p.version).engineWorkers && c.stepsSet && p.tool)
        plan.notes.push_back("V1 engine workers: rollout generation is not inside the worker's profiling window; the "
                             "inference servers are profiled around the whole step (rollout profiler block)");
    if (p.legacy)
        plan.notes.push_back("old verl profiling schema (before #2894): see `export --as migration`");
    rankNamingNotes(c, plan);
}

} // namespace

LaunchPlan buildVerlLaunchPlan(const VerlProfiling &p, const LaunchOptions &options, const std::string &configName,
                               const std::vector<std::string> &overrides)
{
    LaunchPlan plan;
    plan.framework = Framework::Verl;
    plan.backend = p.tool.value_or(std::string());
    plan.driverArgv = {"python3", "-m", "verl.trainer.main_ppo"};
    if (!options.remoteConfigDir.empty())
        plan.driverArgv.push_back("--config-path=" + options.remoteConfigDir);
    if (!configName.empty() && configName != "ppo_trainer")
        plan.driverArgv.push_back("--config-name=" + configName);
    plan.driverArgv.insert(plan.driverArgv.end(), overrides.begin(), overrides.end());
    plan.driverCommand = shellJoin(plan.driverArgv);

    PoolContext c{p, options};
    c.stepsSet = p.steps && !p.steps->empty();
    c.nsys = p.tool == "nsys" && p.device == "cuda";
    c.nsightDir = joinPath(options.raySessionDir, "logs/nsight/");
    c.workersWrapped = c.nsys && c.stepsSet && p.workerOptions.has_value();
    if (c.workersWrapped)
        c.workerCmd = rayNsightCommand(verlWorkerNsightOptions(p), options.raySessionDir);
    c.windows = verlWindows(p);
    c.roles = {"actor_rollout"};
    if (p.refUsed)
        c.roles.push_back("ref");
    if (p.criticUsed)
        c.roles.push_back("critic");
    c.miniBatches = p.updateMiniBatches;

    plan.workers.push_back(controllerLaunch(c));
    const long long world = p.nnodes * p.gpusPerNode;
    plan.workers.reserve(static_cast<size_t>(world) + 1);
    std::set<long long> nodes;
    for (long long rank = 0; rank < world; ++rank) {
        plan.workers.push_back(poolWorker(c, rank));
        if (!plan.workers.back().outputs.empty())
            nodes.insert(plan.workers.back().node);
    }
    const VerlRoleProfiler *actor = p.role("actor");
    const std::string save = actor ? actor->savePath : p.savePath;
    const bool inRayDir = c.nsys && !relocated(p);
    for (long long n : nodes)
        plan.collect.emplace_back(n, inRayDir ? c.nsightDir : save);
    addNotes(c, plan);
    return plan;
}

} // namespace ps::core::profiling
