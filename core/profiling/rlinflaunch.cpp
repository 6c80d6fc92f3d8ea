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
        auto it = std::find_if(env.begin(), env.end(), [&key = k](const auto &kv) { return kv.first == key; });
        if (it != env.end())
            it->second = v;
        else
            env.emplace_back(k, v);
    }
    return env;
}

namespace {

// Why a worker runs without the profiler; empty when it is wrapped.
std::string unwrappedReason(const RLinfProfiling &p, const std::string &group, bool channel)
{
    if (!p.present)
        return "no cluster.profiling in the config";
    if (!p.enabled)
        return "cluster.profiling.enabled is false";
    if (p.backend != "nsight" && p.backend != "rocprof_sys")
        return "no valid profiling backend";
    if (!rlinfProfilesGroup(p, group))
        return std::string("'") + group + "' is not in cluster.profiling.worker_groups" +
               (channel ? " (a channel worker group, launched by Channel.create)" : "");
    return {};
}

// An nsys-wrapped worker: its command, report and the capture ranges that fill it.
void planNsightWorker(const RLinfProfiling &p, const LaunchOptions &options, bool channel, WorkerLaunch &w)
{
    w.argv = rlinfNsysArgv(p, w.name, options.python, options.tempDir);
    const std::string *o = findOption(p.options, "o");
    std::string report = replaceAll(o ? *o : rlinfOutputPrefix(p, w.name, options.tempDir), "%p", "<PID>");
    if (report.size() < 9 || report.compare(report.size() - 9, 9, ".nsys-rep") != 0)
        report += ".nsys-rep";
    w.outputs.push_back(report);
    const std::string *cr = findOption(p.options, "capture-range");
    const std::string *cre = findOption(p.options, "capture-range-end");
    const bool windowed = cr && *cr == "cudaProfilerApi";
    if (p.steps && windowed && !channel && w.group != "RewardGroup") {
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
}

// A rocprof-sys-wrapped worker: command, environment and the output files' prefix.
void planRocprofWorker(const RLinfProfiling &p, const LaunchOptions &options, WorkerLaunch &w)
{
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

// Plans the workers one by one; remembers the nodes that will hold reports.
class WorkerPlanner
{
public:
    WorkerPlanner(const RLinfProfiling &p, const ClusterDescription &cluster, const LaunchOptions &options,
                  const ConfigReader &cfg, Diagnostics &diags, LaunchPlan &plan)
        : m_p(p), m_cluster(cluster), m_options(options), m_cfg(cfg), m_diags(diags), m_plan(plan)
    {
    }

    void add(const std::string &group, long long rank, long long node, bool channel)
    {
        WorkerLaunch w;
        w.group = group;
        w.rank = rank;
        w.node = node;
        w.name = group + ":" + std::to_string(rank);
        w.reason = unwrappedReason(m_p, group, channel);
        w.wrapped = w.reason.empty();
        if (w.wrapped)
            checkBackendAvailable(group, node);
        if (w.wrapped) {
            if (m_p.backend == "nsight")
                planNsightWorker(m_p, m_options, channel, w);
            else
                planRocprofWorker(m_p, m_options, w);
            w.command = shellJoin(w.argv);
            nodesWithReports.insert(node);
        }
        m_plan.workers.push_back(std::move(w));
    }

    std::set<long long> nodesWithReports;

private:
    void checkBackendAvailable(const std::string &group, long long node)
    {
        if (!m_cluster.availableBackends)
            return;
        const auto &avail = *m_cluster.availableBackends;
        if (std::find(avail.begin(), avail.end(), m_p.backend) != avail.end() ||
            !m_unavailableReported.insert(group).second)
            return;
        m_cfg.report(m_diags, "rlinf.backend-unavailable",
                     "Profiling backend '" + m_p.backend + "' is enabled for worker group '" + group +
                         "' but is not available on node " + std::to_string(node) +
                         " (<node-ip>). Available backends: " + pythonListRepr(avail) +
                         ". Please install the required tools before running with profiling enabled.",
                     "cluster.profiling.backend");
    }

    const RLinfProfiling &m_p;
    const ClusterDescription &m_cluster;
    const LaunchOptions &m_options;
    const ConfigReader &m_cfg;
    Diagnostics &m_diags;
    LaunchPlan &m_plan;
    std::set<std::string> m_unavailableReported;
};

// The notes of a plan with a backend: where reports land and what was not verified.
void addBackendNotes(const RLinfProfiling &p, const std::set<long long> &nodesWithReports, LaunchPlan &plan)
{
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
}

} // namespace

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

    WorkerPlanner workers(p, cluster, options, cfg, diags, plan);
    for (const auto &c : topology.components)
        for (size_t r = 0; r < c.gpus.size(); ++r)
            workers.add(c.group, static_cast<long long>(r),
                        topology.gpusPerNode > 0 ? c.gpus[r] / topology.gpusPerNode : 0, false);
    for (const auto &ch : topology.channels)
        workers.add(ch, 0, 0, true);

    const std::string outDir = p.outputDir.empty() ? options.tempDir : p.outputDir;
    for (long long node : workers.nodesWithReports) {
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
    if (!plan.backend.empty())
        addBackendNotes(p, workers.nodesWithReports, plan);
    return plan;
}

} // namespace ps::core::profiling
