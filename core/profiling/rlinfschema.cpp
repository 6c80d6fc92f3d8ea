#include "core/profiling/rlinfschema.h"

#include "core/profiling/rlinftorchprofiler.h"
#include "core/profiling/rlinftracer.h"

#include "core/profiling/nsysoutput.h"
#include "core/profiling/pathutil.h"
#include "core/profiling/pyconvert.h"
#include "core/profiling/pythonrepr.h"
#include "core/profiling/rlinfplacement.h"

#include <algorithm>
#include <set>

namespace ps::core::profiling {

using config::Node;

namespace {

const std::vector<std::string> kKnownBackends = {"nsight", "rocprof_sys"};
const std::vector<std::string> kCommonFields = {"backend", "enabled", "worker_groups", "steps", "output_dir"};

std::string knownBackendsRepr()
{
    return pythonListRepr(kKnownBackends);
}

// Python's set repr of the field names, in declaration order (Python's own order depends on
// string hashing, so no fixed order can match it byte for byte).
std::string setRepr(const std::vector<std::string> &names)
{
    std::string out = "{";
    for (size_t i = 0; i < names.size(); ++i)
        out += (i ? ", " : "") + pythonReprString(names[i]);
    return out + "}";
}

std::string defaultGroupName(const std::string &component)
{
    std::string g = component;
    if (!g.empty())
        g[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(g[0])));
    return g + "Group";
}

bool equalsIgnoreCase(const std::string &a, const std::string &b)
{
    return toLower(a) == toLower(b);
}

// Converts a mapping's values the way NsightConfig/RocprofSysConfig do, checking the extras.
OptionList stringifyMapping(const ConfigReader &cfg, const Node &map, const std::string &path, bool lowerBools,
                            bool isRocprofArgs, Diagnostics &diags)
{
    OptionList out;
    for (size_t i = 0; i < map.size(); ++i) {
        const std::string &k = map.keyAt(i);
        const Node &v = map.valueAt(i);
        const std::string keyPath = path + "." + k;
        if (v.isNull() || v.isContainer())
            cfg.report(diags, "rlinf.option-value-not-scalar",
                       "value of '" + k + "' is " +
                           (v.isNull()   ? "null"
                            : v.isList() ? "a list"
                                         : "a mapping") +
                           "; RLinf passes it through str() and renders '" + pythonStr(v) + "'",
                       keyPath);
        std::string s;
        if (v.kind() == Node::Kind::Bool && lowerBools)
            s = v.asBool() ? "true" : "false";
        else
            s = pythonStr(v);
        if (isRocprofArgs && v.kind() == Node::Kind::Bool)
            cfg.report(diags, "rlinf.rocprof-bool-arg",
                       "rocprof_sys arg '" + k + "' is a bool; RLinf renders it as '" + s + "' (write the string \"" +
                           toLower(s) + "\")",
                       keyPath);
        out.emplace_back(k, s);
    }
    return out;
}

// NsightConfig's flags: a string or a list of non-empty names.
void readNsightFlags(const ConfigReader &cfg, const Node &flags, RLinfProfiling &out, Diagnostics &diags)
{
    const std::string base = "cluster.profiling";
    if (flags.isStringLike()) {
        out.flags = {flags.asString()};
    } else if (flags.isList()) {
        for (const Node &f : flags.items())
            out.flags.push_back(pythonStr(f));
    } else {
        cfg.report(diags, "rlinf.flags-type",
                   "flags must be a list of strings or a single string in cluster profiling config. But got " +
                       pythonTypeName(flags) + ": " + pythonStr(flags),
                   base + ".flags");
    }
    for (size_t i = 0; i < out.flags.size(); ++i)
        if (out.flags[i].empty())
            cfg.report(diags, "rlinf.flags-empty", "Nsight flags must not contain empty names.",
                       base + ".flags." + std::to_string(i));
}

// NsightConfig's options as it normalises them: the stop-on-range-end alias, o vs output, the
// capture range steps inject (user values win; appended after the user's keys), and names
// given both as a flag and an option.
void normaliseNsightOptions(const ConfigReader &cfg, RLinfProfiling &out, Diagnostics &diags)
{
    const std::string base = "cluster.profiling";
    auto it = std::find_if(out.options.begin(), out.options.end(),
                           [](const auto &kv) { return kv.first == "stop-on-range-end"; });
    if (it != out.options.end()) {
        if (findOption(out.options, "capture-range-end")) {
            cfg.report(diags, "rlinf.options-alias-conflict",
                       "Nsight options must not specify both 'stop-on-range-end' and 'capture-range-end'.",
                       base + ".options.stop-on-range-end");
        } else {
            const std::string v = toLower(it->second);
            std::string converted = it->second;
            if (v == "true" || v == "1" || v == "yes" || v == "on")
                converted = "stop";
            else if (v == "false" || v == "0" || v == "no" || v == "off")
                converted = "none";
            out.options.erase(it);
            out.options.emplace_back("capture-range-end", converted);
        }
    }
    if (findOption(out.options, "o") && findOption(out.options, "output"))
        cfg.report(diags, "rlinf.options-o-and-output", "Nsight options must not specify both 'o' and 'output'.",
                   base + ".options.output");
    if (out.steps) {
        if (!findOption(out.options, "capture-range"))
            out.options.emplace_back("capture-range", "cudaProfilerApi");
        if (!findOption(out.options, "capture-range-end"))
            out.options.emplace_back("capture-range-end", "stop");
    }
    std::vector<std::string> dups;
    for (const auto &f : out.flags)
        if (findOption(out.options, f))
            dups.push_back(f);
    std::sort(dups.begin(), dups.end());
    dups.erase(std::unique(dups.begin(), dups.end()), dups.end());
    if (!dups.empty())
        cfg.report(diags, "rlinf.flags-options-duplicate",
                   "Nsight flags and options must not specify the same names. Got duplicates: " + pythonListRepr(dups),
                   base + ".flags");
}

// Several steps with capture-range-end 'stop' capture only the first one.
void checkMultiStepStop(const ConfigReader &cfg, const Node &prof, const RLinfProfiling &out, Diagnostics &diags)
{
    const std::string base = "cluster.profiling";
    const std::string *cre = findOption(out.options, "capture-range-end");
    if (!out.steps || !cre || *cre != "stop")
        return;
    const std::set<long long> distinct(out.steps->begin(), out.steps->end());
    if (distinct.size() <= 1)
        return;
    const Node *userOpts = prof.find("options");
    const bool explicitEnd = userOpts && userOpts->isDict() && userOpts->find("capture-range-end");
    const bool aliasEnd = userOpts && userOpts->isDict() && userOpts->find("stop-on-range-end");
    const bool injected = !explicitEnd && !aliasEnd;
    cfg.report(diags, "rlinf.multi-step-stop",
               std::to_string(distinct.size()) + " steps are listed but capture-range-end is 'stop'" +
                   (injected ? " (injected by RLinf)" : "") +
                   ": nsys ends collection after the first capture range, so only step " +
                   std::to_string(*distinct.begin()) + " is captured; set capture-range-end: repeat",
               injected      ? base + ".steps"
               : explicitEnd ? base + ".options.capture-range-end"
                             : base + ".options.stop-on-range-end");
}

// Checks beyond NsightConfig's own: options that are accepted but do not do what users expect.
void checkNsightOptions(const ConfigReader &cfg, const Node &prof, const RLinfProfiling &out, Diagnostics &diags)
{
    const std::string base = "cluster.profiling";
    for (const auto &[k, v] : out.options) {
        if (k.empty())
            cfg.report(diags, "rlinf.option-name-empty", "Nsight option names must not be empty.", base + ".options");
    }
    if (findOption(out.options, "output") && !findOption(out.options, "o"))
        cfg.report(diags, "rlinf.option-output",
                   "option 'output' does not replace RLinf's default '-o <output_dir>/rlinf_profile_<worker>_%p': "
                   "nsys gets both --output and -o; use 'o' instead",
                   base + ".options.output");
    if (const std::string *o = findOption(out.options, "o"); o && o->find("%p") == std::string::npos)
        cfg.report(diags, "rlinf.o-without-pid",
                   "option 'o' (" + *o +
                       ") has no %p: every process of a profiled group writes the same report path; add %p",
                   base + ".options.o");
    if (const std::string *o = findOption(out.options, "o"); o && !namesRankVariable(*o))
        cfg.report(diags, "rlinf.o-without-rank",
                   "option 'o' (" + *o +
                       ") names no rank, in the file or a folder: RLinf's default names the worker's rank "
                       "(rlinf_profile_<Group>_<rank>_%p), and nsys before 2023.4 records no environment to read "
                       "it from; use o: " +
                       withRankVariable(*o),
                   base + ".options.o");
    checkMultiStepStop(cfg, prof, out, diags);
    if (const std::string *cr = findOption(out.options, "capture-range"); cr && toLower(*cr) == "nvtx") {
        const std::string *t = findOption(out.options, "t");
        if (!t)
            t = findOption(out.options, "trace");
        const bool nvtxTraced = t && t->find("nvtx") != std::string::npos;
        cfg.report(diags, "rlinf.capture-range-nvtx",
                   std::string("capture-range=nvtx starts a capture only at an NVTX range, and RLinf emits NVTX ranges "
                               "only inside an already open profiling window") +
                       (nvtxTraced ? "" : "; 'nvtx' is not traced (option t)") +
                       ": the capture may stay empty; prefer cudaProfilerApi",
                   base + ".options.capture-range");
    }
}

void readNsight(const ConfigReader &cfg, const Node &prof, RLinfProfiling &out, Diagnostics &diags)
{
    const std::string base = "cluster.profiling";
    if (const Node *flags = prof.find("flags"); flags && !flags->isNull())
        readNsightFlags(cfg, *flags, out, diags);
    if (const Node *opts = prof.find("options"); opts && !opts->isNull()) {
        if (!opts->isDict())
            cfg.report(diags, "rlinf.options-type",
                       "Nsight options must be a dictionary in cluster profiling config. But got " +
                           pythonTypeName(*opts) + ": " + pythonStr(*opts),
                       base + ".options");
        else
            out.options = stringifyMapping(cfg, *opts, base + ".options", true, false, diags);
    }
    normaliseNsightOptions(cfg, out, diags);
    checkNsightOptions(cfg, prof, out, diags);
}

void readRocprof(const ConfigReader &cfg, const Node &prof, RLinfProfiling &out, Diagnostics &diags)
{
    const std::string base = "cluster.profiling";
    if (const Node *args = prof.find("args"); args && !args->isNull()) {
        if (!args->isDict())
            cfg.report(diags, "rlinf.rocprof-args-type",
                       "RocprofSys args must be a dictionary in cluster profiling config. But got " +
                           pythonTypeName(*args) + ": " + pythonStr(*args),
                       base + ".args");
        else
            out.args = stringifyMapping(cfg, *args, base + ".args", false, true, diags);
    }
    if (const Node *env = prof.find("env"); env && !env->isNull()) {
        if (!env->isDict())
            cfg.report(diags, "rlinf.rocprof-env-type",
                       "RocprofSys env must be a dictionary in cluster profiling config. But got " +
                           pythonTypeName(*env) + ": " + pythonStr(*env),
                       base + ".env");
        else
            out.env = stringifyMapping(cfg, *env, base + ".env", false, false, diags);
    }
    for (const auto &[k, v] : out.args)
        if (k.empty())
            cfg.report(diags, "rlinf.option-name-empty", "RocprofSys arg names must not be empty.", base + ".args");
}

void readSteps(const ConfigReader &cfg, const Node &steps, RLinfProfiling &out, Diagnostics &diags)
{
    const std::string path = "cluster.profiling.steps";
    if (steps.isNull())
        return;
    if (!steps.isList()) {
        cfg.report(diags, "rlinf.steps-type",
                   "steps must be a list of ints in profiling config. But got " + pythonTypeName(steps) + ": " +
                       pythonStr(steps),
                   path);
        return;
    }
    std::vector<long long> converted;
    bool failed = false;
    for (size_t i = 0; i < steps.size(); ++i) {
        const Node &s = steps.items()[i];
        const std::string itemPath = path + "." + std::to_string(i);
        std::string error;
        const auto n = pythonInt(s, error);
        if (!n) {
            cfg.report(diags, "rlinf.steps-not-number", error, itemPath);
            failed = true;
            continue;
        }
        if (s.kind() != Node::Kind::Int)
            cfg.report(diags, "rlinf.steps-not-int",
                       "steps entry " + pythonRepr(s) + " is not an int; RLinf converts it with int() to " +
                           std::to_string(*n),
                       itemPath);
        converted.push_back(*n);
    }
    if (failed)
        return;
    if (std::any_of(converted.begin(), converted.end(), [](long long v) { return v < 0; })) {
        size_t bad = 0;
        while (converted[bad] >= 0)
            ++bad;
        cfg.report(diags, "rlinf.steps-negative",
                   "Profiling steps must be non-negative ints. But got: " + pythonListRepr(converted),
                   path + "." + std::to_string(bad));
        return;
    }
    std::set<long long> seen;
    for (size_t i = 0; i < converted.size(); ++i)
        if (!seen.insert(converted[i]).second)
            cfg.report(diags, "rlinf.steps-duplicate",
                       "step " + std::to_string(converted[i]) + " is listed twice; the window opens once per step",
                       path + "." + std::to_string(i));
    out.steps = converted;
}

} // namespace

RLinfTopology readRLinfTopology(const ConfigReader &cfg, const ClusterDescription &cluster, Diagnostics &diags)
{
    RLinfTopology t;
    t.numNodes = cluster.numNodes.value_or(cfg.integer("cluster.num_nodes", 1));
    t.gpusPerNode = cluster.gpusPerNode.value_or(8);
    const Node *placement = cfg.get("cluster.component_placement");
    RLinfPlacementInput where{t.numNodes, t.gpusPerNode, readRLinfNodeGroups(cfg.get("cluster.node_groups"))};
    if (placement && placement->isDict()) {
        for (size_t i = 0; i < placement->size(); ++i) {
            const std::string &key = placement->keyAt(i);
            const std::string keyPath = "cluster.component_placement." + key;
            std::vector<long long> gpus;
            std::string error;
            if (!placeRLinfComponent(placement->valueAt(i), where, gpus, error)) {
                cfg.report(diags, "rlinf.placement-invalid",
                           "cannot read placement '" + pythonStr(placement->valueAt(i)) + "' of '" + key +
                               "': " + error,
                           keyPath);
                gpus.clear(); // the groups exist, their ranks are unknown
            }
            for (const std::string &component : splitStripped(key, ',')) {
                RLinfComponent c;
                c.component = component;
                c.group = cfg.string(component + ".group_name", defaultGroupName(component));
                c.placementKey = keyPath;
                c.gpus = gpus;
                t.components.push_back(std::move(c));
            }
        }
    }
    // Embodied runners create the Env, Rollout and Actor channels, and Reward when a reward
    // worker exists (embodied_runner.py L94-100).
    if (cfg.string("runner.task_type") == "embodied") {
        t.channels = {"Env", "Rollout", "Actor"};
        if (cfg.boolean("reward.use_reward_model", false))
            t.channels.push_back("Reward");
    }
    return t;
}

bool rlinfProfilesGroup(const RLinfProfiling &p, const std::string &rootGroupName)
{
    if (!p.present || !p.enabled)
        return false;
    for (const auto &g : p.workerGroups)
        if (equalsIgnoreCase(g, "all") || equalsIgnoreCase(g, rootGroupName))
            return true;
    return false;
}

namespace {

// cluster.nsight: the block RLinf read before cluster.profiling; read for the plan, reported as
// ignored.
void readLegacyNsight(const ConfigReader &cfg, const Node &legacy, RLinfProfiling &out, Diagnostics &diags)
{
    out.legacyNsight = true;
    if (legacy.isDict()) {
        RLinfLegacyNsight &l = out.legacy;
        if (const Node *en = legacy.find("enabled"))
            l.enabled = pythonTruthy(*en);
        if (const Node *wg = legacy.find("worker_groups"); wg && wg->isList())
            for (const Node &g : wg->items())
                l.workerGroups.push_back(pythonStr(g));
        if (const Node *fl = legacy.find("flags"); fl && fl->isList())
            for (const Node &f : fl->items())
                l.flags.push_back(pythonStr(f));
        if (const Node *opts = legacy.find("options"); opts && opts->isDict())
            for (size_t i = 0; i < opts->size(); ++i) {
                const Node &v = opts->valueAt(i);
                l.options.emplace_back(opts->keyAt(i),
                                       v.kind() == Node::Kind::Bool ? (v.asBool() ? "true" : "false") : pythonStr(v));
            }
        if (!out.logPath.empty())
            l.outputDir = joinPath(joinPath(out.logPath, out.experimentName), "nsights");
    }
    cfg.report(diags, "rlinf.legacy-nsight-block",
               "cluster.nsight is silently ignored by RLinf since profiling moved to cluster.profiling; use "
               "'- profile/default@cluster.profiling' (backend: nsight) instead",
               "cluster.nsight");
}

// `enabled` and `backend`, then the fields that backend's config class accepts. False when the
// backend is missing or unknown (RLinf raises there; nothing further is read).
bool readBackendAndFields(const ConfigReader &cfg, const Node &prof, RLinfProfiling &out, Diagnostics &diags)
{
    const std::string base = "cluster.profiling";
    if (const Node *en = prof.find("enabled")) {
        out.enabled = pythonTruthy(*en);
        if (en->kind() != Node::Kind::Bool)
            cfg.report(diags, "rlinf.enabled-not-bool",
                       "enabled is " + pythonRepr(*en) + ", not a bool; RLinf tests its truthiness, so profiling is " +
                           (out.enabled ? "ON" : "OFF"),
                       base + ".enabled");
    }
    const Node *backend = prof.find("backend");
    out.backend = backend && !backend->isNull() ? pythonStr(*backend) : std::string();
    if (out.backend.empty()) {
        cfg.report(diags, "rlinf.backend-missing",
                   "cluster.profiling.backend must be specified (known backends: " + knownBackendsRepr() + ")",
                   base + ".backend");
        return false;
    }
    if (std::find(kKnownBackends.begin(), kKnownBackends.end(), out.backend) == kKnownBackends.end()) {
        cfg.report(diags, "rlinf.backend-unknown",
                   "Unknown profiling backend '" + out.backend + "'. Known backends: " + knownBackendsRepr(),
                   base + ".backend");
        return false;
    }
    const bool nsight = out.backend == "nsight";
    std::vector<std::string> valid = kCommonFields;
    if (nsight)
        valid.insert(valid.end(), {"options", "flags"});
    else
        valid.insert(valid.end(), {"args", "env"});
    if (prof.find("BACKEND_TYPE"))
        cfg.report(diags, "rlinf.backend-type-key",
                   std::string(nsight ? "NsightConfig" : "RocprofSysConfig") +
                       ".__init__() got an unexpected keyword argument 'BACKEND_TYPE'",
                   base + ".BACKEND_TYPE");
    std::vector<std::string> unknown;
    for (const auto &k : prof.keys())
        if (k != "BACKEND_TYPE" && std::find(valid.begin(), valid.end(), k) == valid.end())
            unknown.push_back(k);
    if (!unknown.empty())
        cfg.report(diags, "rlinf.unknown-field",
                   "Unknown fields '" + setRepr(unknown) +
                       "' detected in cluster profiling yaml config. Valid fields are: " + setRepr(valid) + ".",
                   base + "." + unknown.front());
    return true;
}

// worker_groups: a string or a list; false when it is neither (RLinf raises).
bool readWorkerGroups(const ConfigReader &cfg, const Node &prof, RLinfProfiling &out, Diagnostics &diags)
{
    const Node *wg = prof.find("worker_groups");
    if (!wg || wg->isNull())
        return true;
    if (wg->isStringLike()) {
        out.workerGroups = {wg->asString()};
    } else if (wg->isList()) {
        for (const Node &g : wg->items())
            out.workerGroups.push_back(pythonStr(g));
    } else {
        cfg.report(diags, "rlinf.worker-groups-type",
                   "worker_groups must be a list of strings or a single string in profiling config. But got " +
                       pythonTypeName(*wg) + ": " + pythonStr(*wg),
                   "cluster.profiling.worker_groups");
        return false;
    }
    return true;
}

// One worker_groups entry against the run's groups and channels.
void checkWorkerGroup(const ConfigReader &cfg, const RLinfTopology &topology, const RLinfProfiling &out, size_t index,
                      Diagnostics &diags)
{
    const std::string &g = out.workerGroups[index];
    const std::string itemPath = "cluster.profiling.worker_groups." + std::to_string(index);
    if (equalsIgnoreCase(g, "all"))
        return;
    const bool isComponent = std::any_of(topology.components.begin(), topology.components.end(),
                                         [&](const RLinfComponent &c) { return equalsIgnoreCase(c.group, g); });
    const bool isChannel = std::any_of(topology.channels.begin(), topology.channels.end(),
                                       [&](const std::string &c) { return equalsIgnoreCase(c, g); });
    if (!isComponent && !isChannel) {
        std::string known;
        for (const auto &c : topology.components)
            known += (known.empty() ? "" : ", ") + c.group;
        for (const auto &c : topology.channels)
            known += (known.empty() ? "" : ", ") + c + " (channel)";
        cfg.report(diags, "rlinf.unknown-worker-group",
                   "worker_groups entry '" + g + "' names no worker group of this run" +
                       (known.empty() ? std::string() : " (groups: " + known + ")") +
                       "; RLinf matches names case-insensitively and ignores the rest silently",
                   itemPath);
    }
    if (out.steps && (isChannel || equalsIgnoreCase(g, "RewardGroup")))
        cfg.report(diags, "rlinf.channel-group-steps",
                   "'" + g + "' is " + (isChannel ? "a channel worker group" : "the reward group") +
                       ": the runner never calls start_profile on it, so with steps (capture-range "
                       "cudaProfilerApi) its nsys capture stays empty",
                   itemPath);
}

// What an enabled profiling block still needs: worker groups that exist and an output dir.
void checkEnabled(const ConfigReader &cfg, const RLinfTopology &topology, const LaunchOptions &options,
                  const RLinfProfiling &out, Diagnostics &diags)
{
    if (out.workerGroups.empty()) {
        cfg.report(diags, "rlinf.no-worker-groups",
                   "profiling is enabled but worker_groups is empty: RLinf wraps no worker (list groups, or 'all')",
                   "cluster.profiling.worker_groups");
        return;
    }
    for (size_t i = 0; i < out.workerGroups.size(); ++i)
        checkWorkerGroup(cfg, topology, out, i, diags);
    if (out.outputDir.empty())
        cfg.report(diags, "rlinf.no-output-dir",
                   "Profiling is enabled for worker group '" + out.workerGroups.front() +
                       "' but no output directory is configured. Reports will be saved to: " + options.tempDir + ".",
                   "cluster.profiling.output_dir");
}

} // namespace

void readRLinfProfiling(const ConfigReader &cfg, const RLinfTopology &topology, const LaunchOptions &options,
                        RLinfProfiling &out, Diagnostics &diags)
{
    out = RLinfProfiling{};
    out.logPath = options.logPath.value_or(cfg.string("runner.logger.log_path"));
    out.experimentName = options.experimentName.value_or(cfg.string("runner.logger.experiment_name"));
    // Outside cluster.profiling, so read whether or not it exists.
    readRLinfTracer(cfg, out, diags);
    readRLinfTorchProfilers(cfg, out, diags);
    if (const Node *legacy = cfg.get("cluster.nsight"); legacy && !legacy->isNull())
        readLegacyNsight(cfg, *legacy, out, diags);

    const std::string base = "cluster.profiling";
    const Node *prof = cfg.get(base);
    if (!prof || prof->isNull())
        return;
    if (!prof->isDict()) {
        cfg.report(diags, "rlinf.profiling-not-dict",
                   "cluster.profiling must be a dictionary. But got " + pythonTypeName(*prof) + ": " + pythonStr(*prof),
                   base);
        return;
    }
    out.present = true;
    if (!readBackendAndFields(cfg, *prof, out, diags) || !readWorkerGroups(cfg, *prof, out, diags))
        return;
    if (const Node *steps = prof->find("steps"))
        readSteps(cfg, *steps, out, diags);
    if (out.backend == "nsight")
        readNsight(cfg, *prof, out, diags);
    else
        readRocprof(cfg, *prof, out, diags);

    // output_dir (validate_cfg, A6): filled before any check when enabled and unset.
    if (const Node *od = prof->find("output_dir"); od && pythonTruthy(*od))
        out.outputDir = pythonStr(*od);
    if (out.outputDir.empty() && out.enabled && !out.logPath.empty()) {
        const std::string cwd = options.driverCwd.value_or(options.rlinfRepo);
        out.outputDir = absolutePath(joinPath(joinPath(out.logPath, out.experimentName), "profiling"), cwd);
        out.outputDirDerived = true;
    }
    if (out.enabled)
        checkEnabled(cfg, topology, options, out, diags);
}

} // namespace ps::core::profiling
