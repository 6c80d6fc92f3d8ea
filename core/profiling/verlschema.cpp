#include "core/profiling/verlschema.h"

#include "core/profiling/nsysoutput.h"
#include "core/profiling/pyconvert.h"
#include "core/profiling/pythonrepr.h"
#include "core/profiling/verlversionrules.h"

#include <algorithm>
#include <set>

namespace ps::core::profiling {

using config::Node;

namespace {

const std::vector<std::string> kTools = {"nsys", "npu", "torch", "torch_memory"};
const std::vector<std::string> kTorchContents = {
    "cuda", "cpu", "memory", "shapes", "stack", "profile-by-stage", "merge-profiles"};
const std::vector<std::string> kNpuContents = {"npu", "cpu", "memory", "shapes", "module", "stack"};
const std::vector<std::string> kNpuLevels = {"level_none", "level0", "level1", "level2"};

bool contains(const std::vector<std::string> &v, const std::string &s)
{
    return std::find(v.begin(), v.end(), s) != v.end();
}

// Braces bash leaves alone: a group without ',' or '..' is no brace expansion, so nsys's
// %q{RANK} reaches it as written.
bool bracesLiteral(const std::string &s)
{
    for (size_t open = s.find('{'); open != std::string::npos; open = s.find('{', open + 1)) {
        const size_t close = s.find('}', open);
        if (close == std::string::npos)
            return true;
        const std::string inside = s.substr(open + 1, close - open - 1);
        if (inside.find(',') != std::string::npos || inside.find("..") != std::string::npos)
            return false;
    }
    return true;
}

// Characters a shell leaves alone: Ray joins nsight options without quoting (B5).
bool shellSafe(const std::string &s)
{
    if (s.empty())
        return false;
    for (unsigned char c : s)
        if (!(std::isalnum(c) || std::string_view("_@%+=:,./-{}").find(static_cast<char>(c)) != std::string_view::npos))
            return false;
    return bracesLiteral(s);
}

std::optional<OptionList> readNsightOptions(const ConfigReader &cfg, const std::string &path, bool isWorker,
                                            bool &captureRangeEndNull, Diagnostics &diags)
{
    const Node *opts = cfg.get(path);
    if (!opts || opts->isNull())
        return std::nullopt;
    OptionList out;
    if (!opts->isDict())
        return out;
    for (size_t i = 0; i < opts->size(); ++i) {
        const std::string &k = opts->keyAt(i);
        const Node &v = opts->valueAt(i);
        const std::string keyPath = path + "." + k;
        if (isWorker && k == "capture-range-end" && v.isNull()) {
            captureRangeEndNull = true;
            out.emplace_back(k, std::string());
            continue;
        }
        const std::string s = pythonStr(v);
        if (v.kind() != Node::Kind::String)
            cfg.report(diags, "verl.nsight-value-not-string",
                       "nsight option '" + k + "' is " + pythonRepr(v) + " (" + pythonTypeName(v) +
                           "), not a string: Ray formats it with str() and passes --" + k + "=" + s +
                           (v.kind() == Node::Kind::Bool ? std::string(" (write \"") + toLower(s) + "\")" : ""),
                       keyPath);
        if (!shellSafe(k) || !shellSafe(s))
            cfg.report(diags, "verl.nsight-value-unquoted",
                       "nsight option '" + k + "=" + s +
                           "' holds characters the shell interprets; Ray joins the nsys command without quoting, "
                           "so bash splits or expands it",
                       keyPath);
        out.emplace_back(k, s);
    }
    return out;
}

void readSteps(const ConfigReader &cfg, const std::string &path, VerlProfiling &out, Diagnostics &diags)
{
    const Node *steps = cfg.get(path);
    if (!steps || steps->isNull())
        return;
    if (!steps->isList()) {
        cfg.report(diags, "verl.steps-invalid",
                   path + " must be null or a list of 1-based step numbers, got " + pythonRepr(*steps), path);
        return;
    }
    std::vector<long long> v;
    for (size_t i = 0; i < steps->size(); ++i) {
        const Node &s = steps->items()[i];
        if (s.kind() != Node::Kind::Int || s.asInt() < 1) {
            cfg.report(diags, "verl.steps-invalid",
                       path + " entry " + pythonRepr(s) +
                           " is not a positive int: verl counts training steps from 1 and compares with ==",
                       path + "." + std::to_string(i));
            continue;
        }
        v.push_back(s.asInt());
    }
    if (steps->size() == 0)
        cfg.report(diags, "verl.steps-empty", path + " is []: nothing is profiled (same as null)", path);
    out.steps = v;
}

void checkTorchConfig(const ConfigReader &cfg, const std::string &path, const VerlVersionTraits &traits,
                      VerlRoleProfiler &r, Diagnostics &diags)
{
    const std::vector<std::string> &allowed = traits.torchContents;
    const Node *contents = cfg.get(path + ".contents");
    if (contents && !contents->isNull()) {
        // Membership runs before the type check: a string fails on its first character.
        std::vector<std::string> items;
        if (contents->isList())
            for (const Node &c : contents->items())
                items.push_back(pythonStr(c));
        else if (contents->isStringLike())
            for (char c : contents->asString())
                items.emplace_back(1, c);
        else if (contents->isDict())
            items = contents->keys(); // iterating a mapping yields its keys
        bool bad = false;
        for (size_t i = 0; i < items.size() && !bad; ++i)
            if (!contains(allowed, items[i])) {
                cfg.report(diags, "verl.torch-contents-invalid",
                           "Profiler contents only supports " + pythonListRepr(allowed) + ", but gets " + items[i],
                           contents->isList() ? path + ".contents." + std::to_string(i) : path + ".contents");
                bad = true;
            }
        if (!bad && !contents->isList())
            cfg.report(diags, "verl.torch-contents-type",
                       "Profiler contents must be of type list, got " + pythonTypeName(*contents), path + ".contents");
        if (contents->isList())
            r.torchContents = items;
    }
    r.torchDiscrete = cfg.boolean(path + ".discrete", false);
}

void checkTorchMemoryConfig(const ConfigReader &cfg, const std::string &path, Diagnostics &diags)
{
    for (const char *field : {"trace_alloc_max_entries", "stack_depth"}) {
        const std::string p = path + "." + field;
        const Node *v = cfg.get(p);
        if (!v)
            continue;
        if (v->kind() != Node::Kind::Int && v->kind() != Node::Kind::Bool) {
            cfg.report(diags, "verl.torch-memory-type", std::string(field) + " must be int, got " + pythonTypeName(*v),
                       p);
            continue;
        }
        const long long n = v->kind() == Node::Kind::Bool ? (v->asBool() ? 1 : 0) : v->asInt();
        if (n <= 0)
            cfg.report(diags, "verl.torch-memory-positive",
                       std::string(field) + " must be positive, got " + std::to_string(n), p);
    }
}

void checkNpuConfig(const ConfigReader &cfg, const std::string &path, VerlRoleProfiler &r, Diagnostics &diags)
{
    const Node *contents = cfg.get(path + ".contents");
    const Node *level = cfg.get(path + ".level");
    const Node *analysis = cfg.get(path + ".analysis");
    bool typesOk = true;
    if (contents && !contents->isList()) {
        cfg.report(diags, "verl.npu-contents-type",
                   "Profiler contents must be of type list, got " + pythonTypeName(*contents), path + ".contents");
        typesOk = false;
    }
    if (level && !level->isStringLike()) {
        cfg.report(diags, "verl.npu-level-type", "Profiler level must be of type str, got " + pythonTypeName(*level),
                   path + ".level");
        typesOk = false;
    }
    if (analysis && analysis->kind() != Node::Kind::Bool) {
        cfg.report(diags, "verl.npu-analysis-type",
                   "Profiler analysis must be of type bool, got " + pythonTypeName(*analysis), path + ".analysis");
        typesOk = false;
    }
    if (contents && contents->isList()) {
        for (size_t i = 0; i < contents->size(); ++i) {
            const std::string c = pythonStr(contents->items()[i]);
            r.npuContents.push_back(c);
            if (typesOk && !contains(kNpuContents, c))
                cfg.report(diags, "verl.npu-contents-invalid",
                           "Profiler contents only supports npu, cpu, memory, shapes, module, stack, but gets " + c,
                           path + ".contents." + std::to_string(i));
        }
    }
    if (level && level->isStringLike()) {
        r.npuLevel = level->asString();
        if (typesOk && !contains(kNpuLevels, r.npuLevel))
            cfg.report(diags, "verl.npu-level-invalid",
                       "Profiler level only supports level0, 1, 2, and level_none, but gets " + r.npuLevel,
                       path + ".level");
    }
    if (analysis && analysis->kind() == Node::Kind::Bool)
        r.npuAnalysis = analysis->asBool();
    r.npuDiscrete = cfg.boolean(path + ".discrete", false);
}

struct RoleSpec
{
    const char *role;
    const char *path;
};

// The schedule as composed, enabled or not, so plans and the Configure workspace see what the YAML
// holds; verlversionrules.cpp checks the field types for the releases that have it.
void readTorchSchedule(const ConfigReader &cfg, VerlRoleProfiler &r)
{
    const std::string base = r.path + ".tool_config.torch.schedule.";
    auto &s = r.torchSchedule;
    s.skipFirst = cfg.integer(base + "skip_first", 0);
    s.wait = cfg.integer(base + "wait", 0);
    s.warmup = cfg.integer(base + "warmup", 0);
    s.active = cfg.integer(base + "active", 0);
    s.repeat = cfg.integer(base + "repeat", 0);
}

void readRole(const ConfigReader &cfg, const RoleSpec &spec, bool validate, const VerlProfiling &global,
              VerlRoleProfiler &r, Diagnostics &diags)
{
    r.role = spec.role;
    r.path = spec.path;
    const Node *block = cfg.get(r.path);
    if (!block || !block->isDict())
        return;
    r.present = true;
    for (const auto &k : block->keys()) {
        if (contains(verlVersionTraits(global.version).roleKeys, k))
            continue;
        if (validate)
            cfg.report(diags, "verl.role-unknown-key", "Key '" + k + "' not in 'ProfilerConfig'", r.path + "." + k);
        if (k == "discrete")
            cfg.report(diags, "verl.legacy-key",
                       "old-schema key " + r.path +
                           ".discrete: the new schema reads global_profiler.global_tool_config.nsys.discrete "
                           "(and tool_config.<tool>.discrete)",
                       r.path + ".discrete");
    }
    if (const Node *tool = block->find("tool"); tool && tool->isStringLike())
        r.tool = tool->asString();
    r.enable = cfg.boolean(r.path + ".enable", false);
    r.allRanks = cfg.boolean(r.path + ".all_ranks", false);
    if (const Node *ranks = block->find("ranks"); ranks && !ranks->isNull()) {
        if (!ranks->isList()) {
            if (validate)
                cfg.report(diags, "verl.ranks-type",
                           "Profiler ranks must be of type list, got " + pythonTypeName(*ranks), r.path + ".ranks");
        } else {
            for (size_t i = 0; i < ranks->size(); ++i) {
                const Node &x = ranks->items()[i];
                if (x.kind() == Node::Kind::Int)
                    r.ranks.push_back(x.asInt());
                else if (validate)
                    cfg.report(diags, "verl.ranks-not-int",
                               "ranks entry " + pythonRepr(x) + " is not an int (ProfilerConfig.ranks is list[int])",
                               r.path + ".ranks." + std::to_string(i));
            }
        }
    }
    r.savePath = cfg.string(r.path + ".save_path", global.savePath);
    r.nsysDiscrete = cfg.boolean(r.path + ".tool_config.nsys.discrete", global.nsysDiscrete);
    r.npuDiscrete = cfg.boolean(r.path + ".tool_config.npu.discrete", false);
    r.torchDiscrete = cfg.boolean(r.path + ".tool_config.torch.discrete", false);
    readTorchSchedule(cfg, r);
    if (!validate || !r.tool || !contains(verlVersionTraits(global.version).tools, *r.tool))
        return;
    // Only the selected tool's config is instantiated (fsdp_workers.py), so only it is checked.
    const Node *tc = block->find("tool_config");
    const std::string tcPath = r.path + ".tool_config." + *r.tool;
    if (!tc || tc->isNull() || !tc->isDict() || !tc->find(*r.tool) || tc->find(*r.tool)->isNull()) {
        if (r.enable)
            cfg.report(diags, "verl.tool-config-missing",
                       *r.tool == "npu" ? "tool_config must be set when profiler is enabled"
                                        : "tool_config must be provided when profiler is enabled",
                       r.path + ".tool_config");
        return;
    }
    if (*r.tool == "torch")
        checkTorchConfig(cfg, tcPath, verlVersionTraits(global.version), r, diags);
    else if (*r.tool == "npu")
        checkNpuConfig(cfg, tcPath, r, diags);
    else if (*r.tool == "torch_memory")
        checkTorchMemoryConfig(cfg, tcPath, diags);
}

void readLegacy(const ConfigReader &cfg, VerlProfiling &out, Diagnostics &diags)
{
    out.legacy = true;
    readSteps(cfg, "trainer.profile_steps", out, diags);
    out.continuous = cfg.boolean("trainer.profile_continuous_steps", false);
    bool ignored = false;
    out.controllerOptions = readNsightOptions(cfg, "trainer.controller_nsight_options", false, ignored, diags);
    out.workerOptions =
        readNsightOptions(cfg, "trainer.worker_nsight_options", true, out.workerCaptureRangeEndNull, diags);
    if (out.steps && !out.steps->empty() && out.device == "cuda")
        out.tool = "nsys";
    // Old per-role blocks: discrete, all_ranks, ranks; profiled iff all_ranks or listed (no rank-0 default).
    const RoleSpec roles[] = {{"actor", "actor_rollout_ref.profiler"},
                              {"critic", "critic.profiler"},
                              {"reward_model", "reward_model.profiler"}};
    for (const auto &spec : roles) {
        VerlRoleProfiler r;
        r.role = spec.role;
        r.path = spec.path;
        if (const Node *b = cfg.get(r.path); b && b->isDict()) {
            r.present = true;
            r.allRanks = cfg.boolean(r.path + ".all_ranks", false);
            if (const Node *ranks = b->find("ranks"); ranks && ranks->isList())
                for (const Node &x : ranks->items())
                    if (x.kind() == Node::Kind::Int)
                        r.ranks.push_back(x.asInt());
            r.nsysDiscrete = cfg.boolean(r.path + ".discrete", false);
            r.enable = r.allRanks || !r.ranks.empty();
            r.tool = out.tool;
            if (b->find("discrete") && !b->find("tool") && !b->find("enable"))
                cfg.report(diags, "verl.legacy-key",
                           "old-schema key " + r.path +
                               ".discrete maps to global_profiler.global_tool_config.nsys.discrete; the new schema "
                               "also needs " +
                               (r.role == "actor" ? std::string("actor_rollout_ref.actor") : r.role) +
                               ".profiler.enable: True",
                           r.path + ".discrete");
        }
        out.roles.push_back(r);
    }
    // The hybrid worker's rollout and ref use the actor_rollout_ref block.
    VerlRoleProfiler rollout = out.roles[0];
    rollout.role = "rollout";
    VerlRoleProfiler ref = out.roles[0];
    ref.role = "ref";
    out.roles.insert(out.roles.begin() + 1, {rollout, ref});

    const std::pair<const char *, const char *> moved[] = {
        {"trainer.profile_steps", "global_profiler.steps (and global_profiler.tool: nsys)"},
        {"trainer.profile_continuous_steps", "global_profiler.profile_continuous_steps"},
        {"trainer.controller_nsight_options", "global_profiler.global_tool_config.nsys.controller_nsight_options"},
        {"trainer.worker_nsight_options", "global_profiler.global_tool_config.nsys.worker_nsight_options"},
    };
    for (const auto &[oldKey, newKey] : moved)
        if (cfg.has(oldKey))
            cfg.report(diags, "verl.legacy-key",
                       std::string("old-schema key ") + oldKey + ": verl since #2894 (2025-08) reads " + newKey,
                       oldKey);
    if (out.steps && !out.steps->empty() && !out.workerOptions)
        cfg.report(diags, "verl.legacy-worker-nsight-missing",
                   "worker_nsight_options must be set when profile_steps is set", "trainer.worker_nsight_options");
}

} // namespace

const std::vector<std::string> &verlTools()
{
    return kTools;
}
const std::vector<std::string> &verlTorchContents()
{
    return kTorchContents;
}
const std::vector<std::string> &verlNpuContents()
{
    return kNpuContents;
}
const std::vector<std::string> &verlNpuLevels()
{
    return kNpuLevels;
}

bool isVerlLegacySchema(const ConfigReader &cfg)
{
    return !cfg.has("global_profiler") &&
           (cfg.has("trainer.profile_steps") || cfg.has("trainer.worker_nsight_options"));
}

std::vector<std::vector<long long>> verlWindows(const VerlProfiling &p)
{
    std::vector<std::vector<long long>> windows;
    if (!p.steps)
        return windows;
    // The trainer walks steps 1, 2, ... and tests membership; order the listed steps the same way.
    std::set<long long> steps(p.steps->begin(), p.steps->end());
    for (long long s : steps) {
        if (p.continuous && !windows.empty() && windows.back().back() == s - 1)
            windows.back().push_back(s);
        else
            windows.push_back({s});
    }
    return windows;
}

long long verlWindowCount(const VerlProfiling &p)
{
    return static_cast<long long>(verlWindows(p).size());
}

std::vector<std::string> verlAnnotatedCalls(const VerlProfiling &p, long long rank)
{
    std::vector<std::string> calls;
    const auto profiles = [&](const char *role) {
        const VerlRoleProfiler *r = p.role(role);
        return r && r->profilesRank(rank, p.legacy);
    };
    // 0.8+ runs engine_workers.py only: no generate_sequences / compute_values annotations, the
    // critic's one annotated call is its TrainingWorker's train_batch (V8).
    const bool engine = verlVersionTraits(p.version).engineWorkers;
    if (profiles("actor")) {
        if (engine)
            calls.insert(calls.end(), {"compute_log_prob", "update_actor"});
        else
            calls.insert(calls.end(), {"generate_sequences", "compute_log_prob", "update_actor"});
    }
    if (p.refUsed && profiles("ref"))
        calls.push_back("compute_ref_log_prob");
    if (p.criticUsed && profiles("critic")) {
        if (engine)
            calls.push_back("train_batch");
        else
            calls.insert(calls.end(), {"compute_values", "update_critic"});
    }
    return calls;
}

long long verlRangesForRank(const VerlProfiling &p, long long rank)
{
    if (!p.steps || p.steps->empty())
        return 0;
    const auto calls = verlAnnotatedCalls(p, rank);
    if (calls.empty())
        return 0;
    const VerlRoleProfiler *actor = p.role("actor");
    const bool discrete = p.legacy ? (actor && actor->nsysDiscrete) : p.nsysDiscrete;
    if (discrete)
        return static_cast<long long>(std::set<long long>(p.steps->begin(), p.steps->end()).size() * calls.size());
    return verlWindowCount(p);
}

namespace {

void readRunFacts(const ConfigReader &cfg, const ClusterDescription &cluster, VerlProfiling &out)
{
    out.device = cfg.string("trainer.device", "cuda");
    out.nnodes = cluster.numNodes.value_or(cfg.integer("trainer.nnodes", 1));
    out.gpusPerNode = cluster.gpusPerNode.value_or(cfg.integer("trainer.n_gpus_per_node", 8));
    out.refUsed =
        cfg.boolean("algorithm.use_kl_in_reward", false) || cfg.boolean("actor_rollout_ref.actor.use_kl_loss", false);
    if (const Node *ce = cfg.get("critic.enable"); ce && ce->kind() == Node::Kind::Bool)
        out.criticUsed = ce->asBool();
    else
        out.criticUsed = cfg.string("algorithm.adv_estimator") == "gae";
    out.rewardModelUsed =
        cfg.boolean("reward_model.enable", false) && !cfg.boolean("reward_model.use_reward_loop", false);
    out.agentLoop = cfg.string("actor_rollout_ref.rollout.mode") == "async";
    const std::string rollout = "actor_rollout_ref.rollout.";
    out.rolloutEngine = cfg.string(rollout + "name");
    if (out.rolloutEngine == "???") // verl's tree leaves the engine mandatory-missing: unknown, not a name
        out.rolloutEngine.clear();
    out.rolloutGpusPerReplica = std::max<long long>(1, cfg.integer(rollout + "tensor_model_parallel_size", 1) *
                                                           cfg.integer(rollout + "data_parallel_size", 1) *
                                                           cfg.integer(rollout + "pipeline_model_parallel_size", 1));
    out.megatron = cfg.string("actor_rollout_ref.actor.strategy") == "megatron";
    const auto sizesAt = [&](const std::string &block) {
        return VerlProfiling::MegatronSizes{cfg.integer(block + ".tensor_model_parallel_size", 1),
                                            cfg.integer(block + ".pipeline_model_parallel_size", 1),
                                            cfg.integer(block + ".context_parallel_size", 1)};
    };
    out.actorMegatron = sizesAt("actor_rollout_ref.actor.megatron");
    out.criticMegatron = sizesAt("critic.megatron");
    const long long miniBatch = cfg.integer("actor_rollout_ref.actor.ppo_mini_batch_size", 0);
    if (miniBatch > 0)
        out.updateMiniBatches = cfg.integer("data.train_batch_size", 0) / miniBatch *
                                std::max<long long>(1, cfg.integer("actor_rollout_ref.actor.ppo_epochs", 1));
    out.fullyAsync = cfg.has("async_training") || cfg.string("trainer.v1.trainer_mode").find("async") == 0;
}

void readGlobalProfiler(const ConfigReader &cfg, VerlProfiling &out, Diagnostics &diags)
{
    const std::string g = "global_profiler";
    const VerlVersionTraits &traits = verlVersionTraits(out.version);
    if (const Node *tool = cfg.get(g + ".tool"); tool && !tool->isNull()) {
        const std::string t = pythonStr(*tool);
        out.tool = t;
        if (!contains(traits.tools, t)) {
            std::string list = "null";
            for (size_t i = 0; i < traits.tools.size(); ++i)
                list += (i + 1 == traits.tools.size() ? " or " : ", ") + traits.tools[i];
            cfg.report(diags, "verl.tool-unknown",
                       "global_profiler.tool must be " + list + " in verl " + verlVersionName(out.version) + ", got '" +
                           t + "' (verl then profiles nothing)",
                       g + ".tool");
        }
    }
    readSteps(cfg, g + ".steps", out, diags);
    out.continuous = cfg.boolean(g + ".profile_continuous_steps", false);
    out.savePath = cfg.string(g + ".save_path", "outputs/profile");
    const std::string nsysPath = g + ".global_tool_config.nsys";
    out.nsysDiscrete = cfg.boolean(nsysPath + ".discrete", false);
    bool ignored = false;
    const bool nsysActive = out.tool == "nsys" && out.steps && !out.steps->empty();
    Diagnostics optionDiags; // Ray only sees the options when nsys runs; report them then.
    out.controllerOptions =
        readNsightOptions(cfg, nsysPath + ".controller_nsight_options", false, ignored, optionDiags);
    out.workerOptions =
        readNsightOptions(cfg, nsysPath + ".worker_nsight_options", true, out.workerCaptureRangeEndNull, optionDiags);
    if (nsysActive)
        diags.insert(diags.end(), optionDiags.begin(), optionDiags.end());
}

void readRoleBlocks(const ConfigReader &cfg, VerlProfiling &out, Diagnostics &diags)
{
    const bool rewardModelBlock = verlVersionTraits(out.version).rewardModelProfiler;
    const RoleSpec specs[] = {{"actor", "actor_rollout_ref.actor.profiler"},
                              {"rollout", "actor_rollout_ref.rollout.profiler"},
                              {"ref", "actor_rollout_ref.ref.profiler"},
                              {"critic", "critic.profiler"},
                              {"reward_model", "reward_model.profiler"}};
    for (const auto &spec : specs) {
        const std::string role = spec.role;
        if (role == "reward_model" && !rewardModelBlock)
            continue; // gone since 0.7.1 (#5255); a copied block is reported by the version rules
        // Workers instantiate only the blocks of roles that run: the hybrid worker reads the
        // actor's block; ref, critic and the reward model only when used.
        const bool used = role == "actor" || (role == "ref" && out.refUsed) || (role == "critic" && out.criticUsed) ||
                          (role == "reward_model" && cfg.boolean("reward_model.enable", false));
        VerlRoleProfiler r;
        readRole(cfg, spec, used, out, r, diags);
        const auto &tools = verlVersionTraits(out.version).tools;
        if (used && r.present && r.tool != out.tool && !(r.tool && !contains(tools, *r.tool) && !out.tool))
            cfg.report(diags, "verl.role-tool-mismatch",
                       spec.path + std::string(".tool is ") + (r.tool ? "'" + *r.tool + "'" : "null") +
                           " but global_profiler.tool is " + (out.tool ? "'" + *out.tool + "'" : "null") +
                           ": roles run a different profiler than the trainer starts",
                       spec.path + std::string(".tool"));
        out.roles.push_back(std::move(r));
    }
}

std::vector<const VerlRoleProfiler *> usedRoleBlocks(const VerlProfiling &out)
{
    std::vector<const VerlRoleProfiler *> used;
    for (const auto &r : out.roles) {
        const bool runs = r.role == "actor" || r.role == "rollout" || (r.role == "ref" && out.refUsed) ||
                          (r.role == "critic" && out.criticUsed) || (r.role == "reward_model" && out.rewardModelUsed);
        if (runs && r.present)
            used.push_back(&r);
    }
    return used;
}

// capture-range-end against the number of ranges the plan predicts per worker (B5).
void checkCaptureRangeEnd(const ConfigReader &cfg, const VerlProfiling &out, const std::string &wo,
                          const std::string &v, Diagnostics &diags)
{
    long long predicted = 0;
    const long long world = out.nnodes * out.gpusPerNode;
    for (long long rank = 0; rank < std::min<long long>(world, 1 << 20); ++rank)
        predicted = std::max(predicted, verlRangesForRank(out, rank));
    long long n = -1;
    bool valid = v == "stop" || v == "stop-shutdown" || v == "repeat" || v == "none";
    for (const char *prefix : {"repeat-shutdown:", "repeat:"}) {
        const std::string pre = prefix;
        if (v.rfind(pre, 0) == 0) {
            const std::string num = v.substr(pre.size());
            valid = !num.empty() && num.size() < 10 &&
                    std::all_of(num.begin(), num.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (valid)
                n = std::stoll(num);
        }
    }
    if (!valid)
        cfg.report(diags, "verl.capture-range-end-invalid",
                   "capture-range-end '" + v +
                       "' is not null, stop, stop-shutdown, repeat[:N], repeat-shutdown:N or none",
                   wo + ".capture-range-end");
    else if (n >= 0 && n < predicted)
        cfg.report(diags, "verl.repeat-shutdown-too-small",
                   "capture-range-end '" + v + "' allows " + std::to_string(n) +
                       " capture ranges but the plan predicts " + std::to_string(predicted) +
                       " per worker: nsys shuts the capture down early",
                   wo + ".capture-range-end");
    else if ((v == "stop" || v == "stop-shutdown") && predicted > 1)
        cfg.report(diags, "verl.multi-step-stop",
                   "capture-range-end '" + v +
                       "' ends collection after the first capture range, but the plan predicts " +
                       std::to_string(predicted) + " per worker; use repeat-shutdown:" + std::to_string(predicted),
                   wo + ".capture-range-end");
}

// verl tells a worker its rank only in the environment (RANK): a report name without it leaves the
// rank to exports that record the environment. Ray's default name (no o) is said by the plan's
// notes instead, so that every default config does not warn.
void checkOutputNamesRank(const ConfigReader &cfg, const VerlProfiling &out, const std::string &wo, Diagnostics &diags)
{
    const bool relocating = out.relocateResults && verlVersionTraits(out.version).relocateAndFinishHook;
    for (const std::string key : {"o", "output"}) {
        const std::string *o = findOption(*out.workerOptions, key);
        if (!o || namesRankVariable(*o))
            continue;
        cfg.report(diags, "verl.o-without-rank",
                   "worker nsight option '" + key + "' (" + *o +
                       ") names no rank, in the file or a folder: verl gives each worker its rank only in its "
                       "environment (RANK), which exports record from nsys 2023.4 on; before that, reports are "
                       "told apart by PID only. Use " +
                       key + ": " + withRankVariable(*o) +
                       (relocating ? " (relocate_results moves only worker_process_<PID> names: these stay under "
                                     "Ray's nsight folder)"
                                   : ""),
                   wo + "." + key);
    }
}

void checkWorkerNsightOptions(const ConfigReader &cfg, const VerlProfiling &out, Diagnostics &diags)
{
    const bool stepsSet = out.steps && !out.steps->empty();
    if (out.tool != "nsys" || !stepsSet || out.device != "cuda")
        return;
    const std::string wo =
        out.legacy ? "trainer.worker_nsight_options" : "global_profiler.global_tool_config.nsys.worker_nsight_options";
    if (!out.legacy && !out.workerOptions)
        cfg.report(diags, "verl.worker-nsight-options-missing",
                   "worker_nsight_options must be set when using nsys with profile_steps", wo);
    if (!out.workerOptions)
        return;
    const std::string *cre = findOption(*out.workerOptions, "capture-range-end");
    if (!cre)
        cfg.report(diags, "verl.capture-range-end-missing", "KeyError: 'capture-range-end'", wo);
    const std::string *cr = findOption(*out.workerOptions, "capture-range");
    if (!cr || *cr != "cudaProfilerApi")
        cfg.report(diags, "verl.capture-range-not-cuda",
                   std::string("worker capture-range is ") + (cr ? "'" + *cr + "'" : "not set") +
                       ": verl opens and closes captures with torch.cuda.profiler start/stop, which needs "
                       "capture-range: cudaProfilerApi",
                   cr ? wo + ".capture-range" : wo);
    if (cre && !out.workerCaptureRangeEndNull)
        checkCaptureRangeEnd(cfg, out, wo, *cre, diags);
    checkOutputNamesRank(cfg, out, wo, diags);
}

void checkDiscreteAcrossRoles(const ConfigReader &cfg, const VerlProfiling &out,
                              const std::vector<const VerlRoleProfiler *> &usedRoles, Diagnostics &diags)
{
    if (out.tool == "nsys" && out.continuous) {
        const bool discrete = out.legacy ? (out.role("actor") && out.role("actor")->nsysDiscrete) : out.nsysDiscrete;
        if (discrete)
            cfg.report(diags, "verl.continuous-discrete",
                       "profile_continuous_steps: True requires nsys discrete: False (ppo_trainer.yaml); discrete "
                       "mode opens one range per annotated call anyway",
                       (out.legacy ? "trainer" : "global_profiler") + std::string(".profile_continuous_steps"));
    }
    // discrete must agree across the roles that profile (verl's docs: set all or none).
    const auto &tools = verlVersionTraits(out.version).tools;
    if (!out.tool || !contains(tools, *out.tool) || *out.tool == "torch_memory" || *out.tool == "precision_debugger")
        return;
    const VerlRoleProfiler *first = nullptr;
    for (const auto *r : usedRoles) {
        if (!r->enable || r->role == "rollout")
            continue;
        if (!first) {
            first = r;
            continue;
        }
        if (r->discreteFor(*out.tool) != first->discreteFor(*out.tool)) {
            const std::string key =
                out.legacy ? r->path + ".discrete" : r->path + ".tool_config." + *out.tool + ".discrete";
            cfg.report(diags, "verl.discrete-inconsistent",
                       r->role + " has discrete " + (r->discreteFor(*out.tool) ? "True" : "False") + " but " +
                           first->role + " has " + (first->discreteFor(*out.tool) ? "True" : "False") +
                           ": set discrete the same on every profiled role",
                       key);
        }
    }
}

void checkAcrossBlocks(const ConfigReader &cfg, const VerlProfiling &out, Diagnostics &diags)
{
    const bool stepsSet = out.steps && !out.steps->empty();
    const auto usedRoles = usedRoleBlocks(out);
    const bool anyEnabled = std::any_of(usedRoles.begin(), usedRoles.end(), [](auto *r) { return r->enable; });
    if (out.tool && contains(verlVersionTraits(out.version).tools, *out.tool) && stepsSet && !anyEnabled)
        cfg.report(diags, "verl.no-role-enabled",
                   "tool '" + *out.tool + "' and steps are set but no role has profiler.enable: True" +
                       (*out.tool == "nsys" ? ": workers run under nsys but never open a capture range"
                                            : ": nothing is profiled"),
                   out.legacy ? "trainer.profile_steps" : "global_profiler.tool");
    checkWorkerNsightOptions(cfg, out, diags);
    checkDiscreteAcrossRoles(cfg, out, usedRoles, diags);
    if (out.agentLoop && (out.tool == "npu" || out.tool == "torch") && out.version < VerlVersion::V0_9) {
        const VerlRoleProfiler *actor = out.role("actor");
        if (actor && actor->enable && !actor->discreteFor(*out.tool))
            cfg.report(diags, "verl.agent-loop-discrete",
                       "rollout runs as an agent loop (rollout.mode: async): profiling it with " + *out.tool +
                           " needs discrete: True (docs/perf/torch_profiling.md)",
                       actor->path + ".tool_config." + *out.tool + ".discrete");
    }
}

} // namespace

void readVerlProfiling(const ConfigReader &cfg, const ClusterDescription &cluster, VerlProfiling &out,
                       Diagnostics &diags, const VerlReadOptions &options)
{
    out = VerlProfiling{};
    out.detection = detectVerlVersion(cfg.rawRoot());
    if (options.version) {
        out.detection.overridden = out.detection.version != *options.version;
        out.detection.version = *options.version;
    }
    out.version = out.detection.version;
    readRunFacts(cfg, cluster, out);
    if (isVerlLegacySchema(cfg)) {
        readLegacy(cfg, out, diags);
    } else {
        readGlobalProfiler(cfg, out, diags);
        readRoleBlocks(cfg, out, diags);
    }
    checkAcrossBlocks(cfg, out, diags);
    checkVerlVersionRules(cfg, options, out, diags);
}

} // namespace ps::core::profiling
