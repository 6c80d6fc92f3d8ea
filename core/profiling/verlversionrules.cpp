#include "core/profiling/verlversionrules.h"

#include "core/profiling/pythonrepr.h"

#include <algorithm>
#include <set>

namespace ps::core::profiling {

using config::Node;

namespace {

struct RuleContext
{
    const ConfigReader &cfg;
    const VerlReadOptions &options;
    VerlProfiling &out;
    Diagnostics &diags;
};

bool contains(const std::vector<std::string> &v, const std::string &s)
{
    return std::find(v.begin(), v.end(), s) != v.end();
}

bool stepsSet(const VerlProfiling &p)
{
    return p.steps && !p.steps->empty();
}

bool isInt(const Node *v)
{
    return v && v->kind() == Node::Kind::Int;
}

// The role blocks whose selected tool's config verl instantiates: the used roles that enable.
std::vector<VerlRoleProfiler *> enabledRoles(VerlProfiling &p)
{
    std::vector<VerlRoleProfiler *> roles;
    for (auto &r : p.roles)
        if (r.present && r.enable)
            roles.push_back(&r);
    return roles;
}

// V2: the reward-model role block went with the reward refactor; the nsight doc still shows it.
void rewardModelProfilerRemoved(RuleContext &c)
{
    if (c.cfg.has("reward_model.profiler"))
        c.cfg.report(c.diags, "verl.reward-model-profiler-removed",
                     "reward_model.profiler was removed in verl 0.7.1 (#5255); docs/perf/nsight_profiling.md still "
                     "shows it, but Hydra rejects it: Key 'profiler' is not in struct",
                     "reward_model.profiler");
}

// V4: step_start/step_end (and anything else) are not TorchProfilerToolConfig fields any more.
void torchUnknownKeys(RuleContext &c)
{
    const auto &keys = verlVersionTraits(c.out.version).torchKeys;
    for (const auto &r : c.out.roles) {
        const Node *torch = c.cfg.get(r.path + ".tool_config.torch");
        if (!r.present || !torch || !torch->isDict())
            continue;
        for (const auto &k : torch->keys())
            if (!contains(keys, k))
                c.cfg.report(c.diags, "verl.torch-key-unknown",
                             "Key '" + k + "' not in 'TorchProfilerToolConfig'" +
                                 (k == "step_start" || k == "step_end"
                                      ? " (step_start/step_end were removed in verl 0.7.1, #5121)"
                                      : ""),
                             r.path + ".tool_config.torch." + k);
    }
}

// V4: TorchProfilerScheduleConfig.__post_init__, and the trap of a schedule that never runs.
void torchSchedule(RuleContext &c)
{
    if (c.out.tool != "torch")
        return;
    for (VerlRoleProfiler *r : enabledRoles(c.out)) {
        const std::string path = r->path + ".tool_config.torch.schedule";
        const Node *sched = c.cfg.get(path);
        if (!sched || !sched->isDict())
            continue;
        // The values themselves are read into r->torchSchedule by the schema reader; this only checks.
        const char *names[] = {"skip_first", "wait", "warmup", "active", "repeat"};
        bool othersSet = false;
        for (size_t i = 0; i < 5; ++i) {
            const Node *v = sched->find(names[i]);
            if (!v)
                continue;
            if (!isInt(v)) {
                c.cfg.report(c.diags, "verl.torch-schedule-type",
                             std::string(names[i]) + " must be int, got " + pythonTypeName(*v), path + "." + names[i]);
                continue;
            }
            if (v->asInt() < 0)
                c.cfg.report(c.diags, "verl.torch-schedule-negative",
                             std::string(names[i]) + " must be >= 0, got " + std::to_string(v->asInt()),
                             path + "." + names[i]);
            othersSet = othersSet || (i != 3 && v->asInt() > 0);
        }
        if (othersSet && r->torchSchedule.active <= 0)
            c.cfg.report(c.diags, "verl.torch-schedule-inactive",
                         "schedule.active is 0, so verl ignores the schedule (it is enabled only when active > 0) "
                         "and records every mini-batch of the step; set active to the number of update "
                         "mini-batches to keep",
                         path + ".active");
    }
}

// V4/V7: profile_token_start/_end on the torch and npu tool configs (and the rollout's).
void profileTokens(RuleContext &c)
{
    if (c.out.tool != "torch" && c.out.tool != "npu")
        return;
    for (VerlRoleProfiler *r : enabledRoles(c.out)) {
        const std::string path = r->path + ".tool_config." + *c.out.tool;
        const Node *start = c.cfg.get(path + ".profile_token_start");
        const Node *stop = c.cfg.get(path + ".profile_token_end");
        bool ok = true;
        for (const auto &[name, v] : {std::pair{"profile_token_start", start}, std::pair{"profile_token_end", stop}}) {
            if (!v || v->isNull())
                continue;
            if (!isInt(v)) {
                c.cfg.report(c.diags, "verl.profile-token-type",
                             std::string(name) + " must be int or None, got " + pythonTypeName(*v), path + "." + name);
                ok = false;
            } else if (v->asInt() < 0) {
                c.cfg.report(c.diags, "verl.profile-token-negative",
                             std::string(name) + " must be >= 0, got " + std::to_string(v->asInt()), path + "." + name);
                ok = false;
            }
        }
        if (ok && isInt(start) && isInt(stop) && stop->asInt() <= start->asInt())
            c.cfg.report(c.diags, "verl.profile-token-order",
                         "profile_token_end must be > profile_token_start, got start=" +
                             std::to_string(start->asInt()) + ", stop=" + std::to_string(stop->asInt()),
                         path + ".profile_token_end");
    }
}

// Where a role's precision_debugger field was written: the role block interpolates the global
// block, so a value set there is reported there.
std::string precisionFieldKey(const ConfigReader &cfg, const std::string &rolePath, const char *field)
{
    const std::string own = rolePath + "." + field;
    const std::string global = std::string("global_profiler.global_tool_config.precision_debugger.") + field;
    const Node *raw = cfg.raw(own);
    return raw && raw->kind() == Node::Kind::Interpolation && cfg.has(global) ? global : own;
}

void precisionDebuggerRole(RuleContext &c, VerlRoleProfiler &r)
{
    const std::string path = r.path + ".tool_config.precision_debugger";
    const auto typed = [&](const char *field, bool good, const char *expected) {
        const Node *v = c.cfg.get(path + "." + field);
        if (v && !v->isNull() && !good)
            c.cfg.report(c.diags, "verl.precision-debugger-type",
                         std::string(field) + " must be " + expected + ", got " + pythonTypeName(*v),
                         precisionFieldKey(c.cfg, path, field));
    };
    const Node *configPath = c.cfg.get(path + ".config_path");
    const Node *steps = c.cfg.get(path + ".steps");
    const Node *stages = c.cfg.get(path + ".stages");
    const Node *strict = c.cfg.get(path + ".strict");
    typed("config_path", configPath && configPath->isStringLike(), "str");
    typed("steps", steps && steps->isList(), "list[int]");
    typed("stages", stages && stages->isList(), "list[str]");
    if (strict && strict->kind() != Node::Kind::Bool)
        c.cfg.report(c.diags, "verl.precision-debugger-type", "strict must be bool, got " + pythonTypeName(*strict),
                     precisionFieldKey(c.cfg, path, "strict"));
    if (steps && !steps->isNull())
        c.cfg.report(c.diags, "verl.precision-debugger-steps-deprecated",
                     "`precision_debugger.steps` is deprecated and ignored. Use `global_profiler.steps` to control "
                     "profiling steps.",
                     precisionFieldKey(c.cfg, path, "steps"));
    if (!stages || !stages->isList())
        return;
    r.precisionStages = std::vector<std::string>{};
    std::set<std::string> unknown;
    const auto &known = verlVersionTraits(c.out.version).precisionDebuggerStages;
    for (const Node &s : stages->items()) {
        const std::string stage = s.isStringLike() ? s.asString() : pythonStr(s);
        if (stage == "rollout_generate")
            continue; // verl skips it ("Ignoring precision_debugger stages")
        if (contains(known, stage))
            r.precisionStages->push_back(stage);
        else
            unknown.insert(stage);
    }
    if (!unknown.empty()) {
        const bool isStrict = strict && strict->kind() == Node::Kind::Bool && strict->asBool();
        c.cfg.report(c.diags, isStrict ? "verl.precision-debugger-stage-strict" : "verl.precision-debugger-stage",
                     "Unknown precision_debugger stages: " +
                         pythonListRepr(std::vector<std::string>(unknown.begin(), unknown.end())),
                     precisionFieldKey(c.cfg, path, "stages"));
    }
}

// V6: PrecisionDebuggerToolConfig.__post_init__ and the stage filter.
void precisionDebugger(RuleContext &c)
{
    if (c.out.tool != "precision_debugger")
        return;
    // Roles share the global block: report each finding once. The rollout's stage is skipped.
    Diagnostics found;
    RuleContext local{c.cfg, c.options, c.out, found};
    for (VerlRoleProfiler *r : enabledRoles(c.out))
        if (r->role != "rollout")
            precisionDebuggerRole(local, *r);
    for (const auto &d : found)
        if (std::none_of(c.diags.begin(), c.diags.end(),
                         [&](const Diagnostic &e) { return e.rule == d.rule && e.key == d.key; }))
            c.diags.push_back(d);
}

// V3: the relocation and finish-hook keys of ProfilerConfig (main).
void relocationAndFinishHook(RuleContext &c)
{
    const std::string g = "global_profiler.";
    VerlProfiling &p = c.out;
    p.relocateResults = c.cfg.boolean(g + "relocate_results", false);
    p.finishHookAllRanks = c.cfg.boolean(g + "finish_hook_all_ranks", false);
    if (const Node *cmd = c.cfg.get(g + "finish_hook_cmd"); cmd && !cmd->isNull()) {
        if (!cmd->isStringLike())
            c.cfg.report(c.diags, "verl.finish-hook-cmd-type",
                         "finish_hook_cmd must be str or None, got " + pythonTypeName(*cmd), g + "finish_hook_cmd");
        else
            p.finishHookCmd = cmd->asString();
        if (p.finishHookCmd && p.finishHookCmd->find('"') != std::string::npos)
            c.cfg.report(c.diags, "verl.finish-hook-double-quote",
                         "finish_hook_cmd contains a double quote; verl's docs say it must not (Hydra's override "
                         "parser ends the value there): use single quotes",
                         g + "finish_hook_cmd");
    }
    if (const Node *ranks = c.cfg.get(g + "finish_hook_ranks"); ranks && !ranks->isNull()) {
        if (!ranks->isList())
            c.cfg.report(c.diags, "verl.finish-hook-ranks-type",
                         "Profiler finish_hook_ranks must be of type list, got " + pythonTypeName(*ranks),
                         g + "finish_hook_ranks");
        else
            for (const Node &x : ranks->items())
                if (x.kind() == Node::Kind::Int)
                    p.finishHookRanks.push_back(x.asInt());
    }
    const Node *tempDir = c.cfg.get("ray_kwargs.ray_init._temp_dir");
    const bool customTemp = (tempDir && !tempDir->isNull()) || c.options.raySessionDir != "/tmp/ray/session_latest";
    if (p.relocateResults && p.tool == "nsys" && customTemp)
        c.cfg.report(
            c.diags, "verl.relocate-ray-temp-dir",
            "relocate_results looks for nsys reports in the hardcoded /tmp/ray/session_latest/logs/nsight, "
            "but Ray writes them under " +
                (tempDir && !tempDir->isNull() ? pythonStr(*tempDir) + "/session_latest" : c.options.raySessionDir) +
                "/logs/nsight: nothing is relocated",
            g + "relocate_results");
}

// V9 + Ray #66093: Ray's nsight plugin replaces py_executable with `nsys profile ... python`.
void pyExecutableUnderNsys(RuleContext &c)
{
    const std::string key = "ray_kwargs.ray_init.runtime_env.py_executable";
    const Node *v = c.cfg.get(key);
    if (!v || v->isNull())
        return;
    c.out.pyExecutable = pythonStr(*v);
    if (c.out.tool == "nsys" && stepsSet(c.out))
        c.cfg.report(c.diags, "verl.py-executable-nsys",
                     "py_executable '" + c.out.pyExecutable +
                         "' is dropped under nsys: Ray's nsight plugin runs `nsys profile ... python` (Ray #66093), "
                         "so the TaskRunner and workers start the bare `python` of the node, not this command",
                     key);
}

// V7: which rollout servers accept which profiler tool.
void rolloutEngineTool(RuleContext &c)
{
    const VerlRoleProfiler *rollout = c.out.role("rollout");
    if (!c.out.tool || !stepsSet(c.out) || !rollout || !rollout->enable)
        return;
    const std::string &tool = *c.out.tool;
    const std::string &engine = c.out.rolloutEngine;
    if ((engine == "vllm" || engine == "sglang") && tool != "torch" && tool != "npu")
        c.cfg.report(c.diags, "verl.rollout-tool-unsupported",
                     "agent loop only support torch and npu profiler, got " + tool + " (the " + engine +
                         " server is not profiled" +
                         (tool == "nsys" ? ": it does not run under nsys, verl #4575)" : ")"),
                     "actor_rollout_ref.rollout.name");
    else if (engine == "trtllm" && tool != "torch" && tool != "npu" && tool != "nsys")
        c.cfg.report(c.diags, "verl.rollout-tool-unsupported",
                     "trtllm rollout: unsupported profiler tool '" + tool + "', disabling",
                     "actor_rollout_ref.rollout.name");
}

// A role's profiler ranks index the role's workers, which run on at most nnodes x
// n_gpus_per_node GPUs: a rank at or above that profiles nothing (the worker never exists). The
// rollout of 0.9+ has its own reading (rolloutRanks below).
void ranksBeyondWorld(RuleContext &c)
{
    const long long world = c.out.nnodes * c.out.gpusPerNode;
    if (world <= 0)
        return;
    for (const VerlRoleProfiler &r : c.out.roles) {
        if (!r.enable || r.allRanks || (r.role == "rollout" && c.out.version >= VerlVersion::V0_9))
            continue;
        std::string outside;
        for (long long rank : r.ranks)
            if (rank >= world || rank < 0)
                outside += (outside.empty() ? "" : ", ") + std::to_string(rank);
        if (!outside.empty())
            c.cfg.report(c.diags, "verl.rank-out-of-range",
                         r.role + " profiler rank(s) " + outside + " are outside the run's " + std::to_string(world) +
                             " GPUs (trainer.nnodes x trainer.n_gpus_per_node = " + std::to_string(c.out.nnodes) +
                             " x " + std::to_string(c.out.gpusPerNode) +
                             "): no worker has them, so they profile nothing",
                         r.path + ".ranks");
    }
}

// V7: what the rollout's `ranks` select. 0.9 reads them as replica indices; main as global GPU
// ranks, each profiling the replica that owns it (replica = rank // (tp * dp * pp)).
void rolloutRanks(RuleContext &c)
{
    const VerlRoleProfiler *rollout = c.out.role("rollout");
    if (!c.out.tool || !stepsSet(c.out) || !rollout || !rollout->enable || rollout->allRanks || rollout->ranks.empty())
        return;
    const long long perReplica = c.out.rolloutGpusPerReplica;
    const long long world = c.out.nnodes * c.out.gpusPerNode;
    const long long replicas = perReplica > 0 ? world / perReplica : 0;
    const bool global = c.out.version >= VerlVersion::Main;
    const std::string key = rollout->path + ".ranks";
    std::set<long long> selected;
    for (long long rank : rollout->ranks) {
        const long long limit = global ? world : replicas;
        if (rank >= limit) {
            c.cfg.report(c.diags, "verl.rollout-rank-out-of-range",
                         "rollout profiler rank " + std::to_string(rank) + " selects no rollout replica: verl " +
                             verlVersionName(c.out.version) + " reads rollout ranks as " +
                             (global ? "global GPU ranks, and there are " + std::to_string(world) + " GPUs"
                                     : "replica indices, and there are " + std::to_string(replicas) + " replicas of " +
                                           std::to_string(perReplica) + " GPUs"),
                         key);
            continue;
        }
        selected.insert(global ? rank / perReplica : rank);
    }
    if (!global || perReplica <= 1 || selected.empty())
        return;
    std::string list;
    for (long long r : selected)
        list += (list.empty() ? "" : ", ") + std::to_string(r);
    c.cfg.report(c.diags, "verl.rollout-ranks-global",
                 "on verl main the rollout's ranks are global GPU ranks: they profile rollout replica(s) [" + list +
                     "] (" + std::to_string(perReplica) +
                     " GPUs per replica = tensor * data * pipeline parallel size); before main they were replica "
                     "indices",
                 key);
}

struct VersionRule
{
    VerlVersion from;
    VerlVersion until;
    void (*check)(RuleContext &);
};

using V = VerlVersion;
const VersionRule kRules[] = {
    {V::V0_7_1, V::Main, rewardModelProfilerRemoved},
    {V::V0_7_1, V::Main, torchUnknownKeys},
    {V::V0_7_1, V::Main, rolloutEngineTool},
    {V::V0_5, V::Main, ranksBeyondWorld},
    {V::V0_9, V::Main, rolloutRanks},
    {V::V0_8, V::Main, precisionDebugger},
    {V::V0_9, V::Main, torchSchedule},
    {V::V0_9, V::Main, profileTokens},
    {V::Main, V::Main, relocationAndFinishHook},
    {V::Main, V::Main, pyExecutableUnderNsys},
};

} // namespace

void checkVerlVersionRules(const ConfigReader &cfg, const VerlReadOptions &options, VerlProfiling &out,
                           Diagnostics &diags)
{
    if (out.legacy)
        return;
    RuleContext c{cfg, options, out, diags};
    for (const VersionRule &rule : kRules)
        if (out.version >= rule.from && out.version <= rule.until)
            rule.check(c);
}

} // namespace ps::core::profiling
