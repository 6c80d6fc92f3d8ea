#include "core/profiling/rlinflaunch.h"

#include "core/profiling/rlinftorchprofiler.h"
#include "core/profiling/rlinftracer.h"

#include "core/common/shellquote.h"
#include "core/profiling/pathutil.h"
#include "core/profiling/pythonrepr.h"

#include <algorithm>
#include <set>

namespace ps::core::profiling {

namespace {

std::string sanitizeWorkerName(const std::string &name)
{
    std::string out = name;
    for (char &c : out) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                        c == '_' || c == '-';
        if (!ok)
            c = '_';
    }
    return out;
}

std::string replaceAll(std::string s, const std::string &from, const std::string &to)
{
    for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
        s.replace(pos, from.size(), to);
    return s;
}

void appendOption(std::vector<std::string> &tokens, const std::string &k, const std::string &v)
{
    if (k.size() > 1) {
        tokens.push_back("--" + k + "=" + v);
    } else {
        tokens.push_back("-" + k);
        tokens.push_back(v);
    }
}

std::string stepsLabel(const std::vector<long long> &steps)
{
    std::string s;
    for (size_t i = 0; i < steps.size(); ++i)
        s += (i ? ", " : "") + std::to_string(steps[i]);
    return s;
}

} // namespace

std::string rlinfOutputPrefix(const RLinfProfiling &p, const std::string &workerName, const std::string &tempDir)
{
    const std::string dir = p.outputDir.empty() ? tempDir : p.outputDir;
    return joinPath(dir, "rlinf_profile_" + sanitizeWorkerName(workerName) + "_%p");
}

std::vector<std::string> rlinfNsysArgv(const RLinfProfiling &p, const std::string &workerName,
                                       const std::string &python, const std::string &tempDir)
{
    std::vector<std::string> tokens = {"nsys", "profile"};
    for (const auto &f : p.flags)
        tokens.push_back(f.size() > 1 ? "--" + f : "-" + f);
    for (const auto &[k, v] : p.options)
        appendOption(tokens, k, v);
    if (!findOption(p.options, "o"))
        appendOption(tokens, "o", rlinfOutputPrefix(p, workerName, tempDir));
    tokens.push_back(python);
    return tokens;
}

std::vector<std::string> rlinfRocprofArgv(const RLinfProfiling &p, const std::string &python)
{
    std::vector<std::string> tokens = {"rocprof-sys-python"};
    for (const auto &[k, v] : p.args)
        appendOption(tokens, k, v);
    tokens.push_back("--");
    tokens.push_back(python);
    return tokens;
}

std::vector<std::pair<std::string, std::string>> rlinfRocprofEnv(const RLinfProfiling &p, const std::string &workerName,
                                                                 const std::string &tempDir)
{
    const std::string prefix = rlinfOutputPrefix(p, workerName, tempDir);
    std::vector<std::pair<std::string, std::string>> env = {{"ROCPROFSYS_TIME_OUTPUT", "false"},
                                                            {"ROCPROFSYS_OUTPUT_PATH", dirName(prefix)},
                                                            {"ROCPROFSYS_OUTPUT_PREFIX", baseName(prefix)}};
    // dict.update: the user's env wins, keeping the key's place; new keys go last.
    for (const auto &[k, v] : p.env) {
        auto it = std::find_if(env.begin(), env.end(), [&](const auto &kv) { return kv.first == k; });
        if (it != env.end())
            it->second = v;
        else
            env.emplace_back(k, v);
    }
    return env;
}

LaunchPlan buildRLinfLaunchPlan(const RLinfProfiling &p, const RLinfTopology &topology,
                                const ClusterDescription &cluster, const LaunchOptions &options,
                                const std::string &configName, const std::vector<std::string> &overrides,
                                const ConfigReader &cfg, Diagnostics &diags)
{
    LaunchPlan plan;
    plan.framework = Framework::RLinf;
    plan.backend = p.present && p.enabled ? p.backend : std::string();
    const std::string configDir = options.remoteConfigDir.empty()
                                      ? joinPath(options.rlinfRepo, "examples/embodiment/config/")
                                      : options.remoteConfigDir;
    plan.driverArgv = {"python",        joinPath(options.rlinfRepo, "examples/embodiment/train_embodied_agent.py"),
                       "--config-path", configDir,
                       "--config-name", configName};
    plan.driverArgv.insert(plan.driverArgv.end(), overrides.begin(), overrides.end());
    plan.driverCommand = shellJoin(plan.driverArgv);

    const bool backendKnown = p.backend == "nsight" || p.backend == "rocprof_sys";
    const std::string outDir = p.outputDir.empty() ? options.tempDir : p.outputDir;
    std::set<long long> nodesWithReports;
    std::set<std::string> unavailableReported;

    auto planWorker = [&](const std::string &group, long long rank, long long node, bool channel) {
        WorkerLaunch w;
        w.group = group;
        w.rank = rank;
        w.node = node;
        w.name = group + ":" + std::to_string(rank);
        if (!p.present) {
            w.reason = "no cluster.profiling in the config";
        } else if (!p.enabled) {
            w.reason = "cluster.profiling.enabled is false";
        } else if (!backendKnown) {
            w.reason = "no valid profiling backend";
        } else if (!rlinfProfilesGroup(p, group)) {
            w.reason = std::string("'") + group + "' is not in cluster.profiling.worker_groups" +
                       (channel ? " (a channel worker group, launched by Channel.create)" : "");
        } else {
            w.wrapped = true;
        }
        if (w.wrapped && cluster.availableBackends) {
            const auto &avail = *cluster.availableBackends;
            if (std::find(avail.begin(), avail.end(), p.backend) == avail.end() &&
                unavailableReported.insert(group).second)
                cfg.report(diags, "rlinf.backend-unavailable",
                           "Profiling backend '" + p.backend + "' is enabled for worker group '" + group +
                               "' but is not available on node " + std::to_string(node) +
                               " (<node-ip>). Available backends: " + pythonListRepr(avail) +
                               ". Please install the required tools before running with profiling enabled.",
                           "cluster.profiling.backend");
        }
        if (!w.wrapped) {
            plan.workers.push_back(std::move(w));
            return;
        }
        const std::string prefix = rlinfOutputPrefix(p, w.name, options.tempDir);
        if (p.backend == "nsight") {
            w.argv = rlinfNsysArgv(p, w.name, options.python, options.tempDir);
            const std::string *o = findOption(p.options, "o");
            std::string report = replaceAll(o ? *o : prefix, "%p", "<PID>");
            if (report.size() < 9 || report.compare(report.size() - 9, 9, ".nsys-rep") != 0)
                report += ".nsys-rep";
            w.outputs.push_back(report);
            const std::string *cr = findOption(p.options, "capture-range");
            const std::string *cre = findOption(p.options, "capture-range-end");
            const bool windowed = cr && *cr == "cudaProfilerApi";
            if (p.steps && windowed && !channel && group != "RewardGroup") {
                const std::set<long long> distinct(p.steps->begin(), p.steps->end());
                std::vector<long long> steps(distinct.begin(), distinct.end());
                if (cre && *cre == "stop" && steps.size() > 1)
                    steps.erase(steps.begin() + 1, steps.end()); // only the first range is captured
                for (long long s : steps)
                    w.captureRanges.push_back({"global_step " + std::to_string(s), {s}});
            } else if (p.steps && windowed) {
                w.reason = "never receives start_profile: the cudaProfilerApi capture stays empty";
            } else if (!p.steps) {
                w.captureRanges.push_back({"whole process (NVTX ranges in every step window)", {}});
            } else {
                w.captureRanges.push_back(
                    {"capture-range " + (cr ? *cr : std::string()) + " for steps " + stepsLabel(*p.steps), *p.steps});
            }
        } else {
            w.argv = rlinfRocprofArgv(p, options.python);
            w.env = rlinfRocprofEnv(p, w.name, options.tempDir);
            std::string path, pre;
            for (const auto &[k, v] : w.env) {
                if (k == "ROCPROFSYS_OUTPUT_PATH")
                    path = v;
                if (k == "ROCPROFSYS_OUTPUT_PREFIX")
                    pre = v;
            }
            w.outputs.push_back(joinPath(path, replaceAll(pre, "%p", "<PID>")) + "*");
            w.captureRanges.push_back({"whole process", {}});
        }
        w.command = shellJoin(w.argv);
        nodesWithReports.insert(node);
        plan.workers.push_back(std::move(w));
    };

    for (const auto &c : topology.components)
        for (size_t r = 0; r < c.gpus.size(); ++r)
            planWorker(c.group, static_cast<long long>(r),
                       topology.gpusPerNode > 0 ? c.gpus[r] / topology.gpusPerNode : 0, false);
    for (const auto &ch : topology.channels)
        planWorker(ch, 0, 0, true);

    for (long long node : nodesWithReports) {
        const std::string dir =
            p.backend == "nsight" && findOption(p.options, "o") ? dirName(*findOption(p.options, "o")) : outDir;
        plan.collect.emplace_back(node, dir);
    }
    std::vector<std::pair<std::string, std::string>> roleGroups;
    for (const auto &c : topology.components)
        roleGroups.emplace_back(c.component, c.group);
    planRLinfTorchProfilers(p, roleGroups, plan);
    planRLinfTracer(p.tracer, plan);
    if (p.legacyNsight && p.legacy.enabled && !p.legacy.workerGroups.empty()) {
        std::string groups;
        for (const auto &g : p.legacy.workerGroups)
            groups += (groups.empty() ? "" : ", ") + g;
        plan.notes.push_back("cluster.nsight (RL@8054ca5 schema) asks to profile " + groups +
                             (p.legacy.outputDir.empty() ? std::string() : " into " + p.legacy.outputDir) +
                             ", but RLinf ignores that block today: move it to cluster.profiling with backend: nsight");
    }
    if (plan.backend.empty())
        return plan;
    if (p.outputDirDerived)
        plan.notes.push_back("output_dir derived as abspath(runner.logger.log_path/experiment_name/profiling) = " +
                             p.outputDir);
    if (!nodesWithReports.empty() && (nodesWithReports.size() > 1 || *nodesWithReports.begin() != 0))
        plan.notes.push_back("RLinf creates output_dir only on the driver's node; on the other nodes it must exist "
                             "(or be a shared file system) before the run");
    if (p.backend == "nsight")
        plan.notes.push_back("nsys replaces %p by the worker's PID and appends .nsys-rep");
    else
        plan.notes.push_back("whether rocprof-sys expands %p in ROCPROFSYS_OUTPUT_PREFIX is not verified");
    if (p.steps)
        plan.notes.push_back("steps are RLinf global steps, 0-based (the first step of a fresh run is 0)");
    return plan;
}

} // namespace ps::core::profiling
