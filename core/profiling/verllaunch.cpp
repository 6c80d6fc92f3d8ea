#include "core/profiling/verllaunch.h"

#include "core/common/shellquote.h"
#include "core/profiling/pathutil.h"
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

// Annotated call -> the `role` argument verl passes (sub-folder of torch/npu discrete output).
std::string annotateRole(const std::string &call)
{
    if (call == "generate_sequences")
        return "rollout_generate";
    if (call == "compute_log_prob")
        return "actor_compute_log_prob";
    if (call == "update_actor")
        return "actor_update";
    if (call == "compute_ref_log_prob")
        return "ref_compute_log_prob";
    if (call == "update_critic")
        return "critic_update";
    return call; // compute_values, compute_rm_score
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

LaunchPlan buildVerlLaunchPlan(const VerlProfiling &p, const LaunchOptions &options, const std::string &configName,
                               const std::vector<std::string> &overrides)
{
    LaunchPlan plan;
    plan.framework = Framework::Verl;
    plan.backend = p.tool.value_or(std::string());
    plan.driverArgv = {"python3", "-m", "verl.trainer.main_ppo"};
    if (!options.remoteConfigDir.empty()) {
        plan.driverArgv.push_back("--config-path=" + options.remoteConfigDir);
    }
    if (!configName.empty() && configName != "ppo_trainer")
        plan.driverArgv.push_back("--config-name=" + configName);
    plan.driverArgv.insert(plan.driverArgv.end(), overrides.begin(), overrides.end());
    plan.driverCommand = shellJoin(plan.driverArgv);

    const bool stepsSet = p.steps && !p.steps->empty();
    const bool cuda = p.device == "cuda";
    const bool nsys = p.tool == "nsys" && cuda;
    const std::string nsightDir = joinPath(options.raySessionDir, "logs/nsight/");

    // Controller (main_ppo.py): TaskRunner under nsys when steps are set.
    WorkerLaunch controller;
    controller.name = "TaskRunner";
    controller.group = "TaskRunner";
    controller.node = -1;
    if (nsys && stepsSet && p.controllerOptions) {
        const auto cmd = rayNsightCommand(*p.controllerOptions, options.raySessionDir);
        controller.wrapped = true;
        controller.argv = cmd.argv;
        controller.command = cmd.command;
        controller.captureRanges.push_back({"whole process (no capture range)", {}});
        controller.outputs.push_back(nsightDir + "worker_process_<PID>.nsys-rep");
    } else {
        controller.reason = !cuda              ? "device is not cuda"
                            : p.tool != "nsys" ? "tool is not nsys: runtime_env has no nsight entry"
                            : !stepsSet        ? "global_profiler.steps is null or empty"
                                               : "controller_nsight_options is null";
    }
    plan.workers.push_back(std::move(controller));

    const long long world = p.nnodes * p.gpusPerNode;
    std::vector<std::string> roles = {"actor_rollout"};
    if (p.refUsed)
        roles.push_back("ref");
    if (p.criticUsed)
        roles.push_back("critic");
    const bool workersWrapped = nsys && stepsSet && p.workerOptions.has_value();
    RayNsightCommand workerCmd;
    if (workersWrapped)
        workerCmd = rayNsightCommand(verlWorkerNsightOptions(p), options.raySessionDir);
    const auto windows = verlWindows(p);
    const VerlRoleProfiler *actor = p.role("actor");
    std::set<long long> nodes;
    plan.workers.reserve(static_cast<size_t>(world) + 1);
    for (long long rank = 0; rank < world; ++rank) {
        WorkerLaunch w;
        w.group = "global_pool";
        w.rank = rank;
        w.node = p.gpusPerNode > 0 ? rank / p.gpusPerNode : 0;
        w.name = "global_pool:" + std::to_string(rank);
        w.roles = roles;
        const auto calls = verlAnnotatedCalls(p, rank);
        if (workersWrapped) {
            w.wrapped = true;
            w.argv = workerCmd.argv;
            w.command = workerCmd.command;
            const long long ranges = verlRangesForRank(p, rank);
            const bool discrete = ranges > 0 && ranges != static_cast<long long>(windows.size());
            if (ranges == 0) {
                w.reason = "runs under nsys but no role profiles this rank: no capture range opens";
            } else if (!discrete) {
                for (const auto &win : windows)
                    w.captureRanges.push_back({windowLabel(win), win});
            } else {
                for (long long s : std::set<long long>(p.steps->begin(), p.steps->end()))
                    for (const auto &c : calls)
                        w.captureRanges.push_back({"step " + std::to_string(s) + ": " + c, {s}});
            }
            if (ranges > 0) {
                w.outputs.push_back(nsightDir + "worker_process_<PID>.<RID>.nsys-rep");
                nodes.insert(w.node);
            }
        } else {
            w.reason = !cuda && p.tool == "nsys" ? "device is not cuda"
                       : p.tool == "nsys"
                           ? (stepsSet ? "worker_nsight_options is null" : "global_profiler.steps is null or empty")
                       : p.tool ? "tool " + *p.tool + " profiles in process: no launch wrapper"
                                : "global_profiler.tool is null";
            if (stepsSet && p.tool && *p.tool != "nsys" && !calls.empty()) {
                const std::string &t = *p.tool;
                const bool discrete = actor && actor->discreteFor(t);
                const std::string base = actor ? actor->savePath : p.savePath;
                for (const auto &win : windows)
                    w.captureRanges.push_back({windowLabel(win), win});
                if (t == "torch") {
                    if (discrete)
                        for (const auto &c : calls)
                            w.outputs.push_back(joinPath(joinPath(base, annotateRole(c)),
                                                         "prof_rank-" + std::to_string(rank) + ".json.gz"));
                    else {
                        // Continuous mode: actor_rollout starts with role "e2e", the other
                        // roles without a role, i.e. straight under their save_path.
                        const std::string file = "prof_rank-" + std::to_string(rank) + ".json.gz";
                        if (actor && actor->profilesRank(rank, p.legacy))
                            w.outputs.push_back(joinPath(base, "e2e/" + file));
                        for (const char *other : {"ref", "critic"}) {
                            const VerlRoleProfiler *r = p.role(other);
                            const bool used = std::string(other) == "ref" ? p.refUsed : p.criticUsed;
                            const std::string path = r ? joinPath(r->savePath, file) : std::string();
                            if (used && r && r->profilesRank(rank, p.legacy) &&
                                std::find(w.outputs.begin(), w.outputs.end(), path) == w.outputs.end())
                                w.outputs.push_back(path);
                        }
                    }
                } else if (t == "npu") {
                    if (discrete)
                        for (const auto &c : calls)
                            w.outputs.push_back(
                                joinPath(joinPath(base, annotateRole(c)), "<hostname>_<PID>_<timestamp>_ascend_pt/"));
                    else
                        w.outputs.push_back(joinPath(base, "e2e/<hostname>_<PID>_<timestamp>_ascend_pt/"));
                } else if (t == "torch_memory") {
                    for (long long s : std::set<long long>(p.steps->begin(), p.steps->end()))
                        w.outputs.push_back(joinPath(base.empty() ? "outputs/profile" : base,
                                                     "step" + std::to_string(s) + "/torch_memory_rank" +
                                                         std::to_string(rank) + "_pid<PID>.pickle"));
                }
                if (!w.outputs.empty())
                    nodes.insert(w.node);
            }
        }
        plan.workers.push_back(std::move(w));
    }
    for (long long n : nodes)
        plan.collect.emplace_back(n, nsys ? nsightDir : (actor ? actor->savePath : p.savePath));
    if (nsys && stepsSet) {
        plan.notes.push_back("Ray writes the reports on each node under " + nsightDir +
                             " (the session id is only known once Ray starts; /tmp/ray/session_latest links to it)");
        plan.notes.push_back("<RID> numbers the capture ranges of one process (one report per range), not the "
                             "training step");
        plan.notes.push_back("Ray joins the nsys command without shell quoting; the TaskRunner runs on whichever node "
                             "Ray picks");
    } else if (stepsSet && p.tool && *p.tool != "nsys") {
        plan.notes.push_back("save_path is relative to each worker's working directory on its node");
        if (p.tool == "torch" && p.continuous)
            plan.notes.push_back("torch continuous mode rewrites one file per rank and role on every profiled step");
    }
    if (p.legacy)
        plan.notes.push_back("old verl profiling schema (before #2894): see `export --as migration`");
    return plan;
}

} // namespace ps::core::profiling
