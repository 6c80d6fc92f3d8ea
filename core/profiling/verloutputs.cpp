#include "core/profiling/verloutputs.h"

#include "core/profiling/pathutil.h"
#include "core/profiling/verlschema.h"

#include <algorithm>
#include <set>

namespace ps::core::profiling {

namespace {

bool labelChar(unsigned char c)
{
    return std::isalnum(c) || c == '.' || c == '=' || c == '+' || c == '-';
}

// One profiled (rank, role) pair: which worker writes, under which prefix and save_path.
struct RoleWriter
{
    std::string role;       // "actor", "ref", "critic"
    std::string workerRole; // save_file_prefix
    std::string savePath;
    std::vector<std::string> calls; // annotated calls of this role
};

std::vector<RoleWriter> writersForRank(const VerlProfiling &p, long long rank)
{
    std::vector<RoleWriter> out;
    const bool v09 = p.version >= VerlVersion::V0_9;
    const auto add = [&](const char *role, bool used, std::vector<std::string> calls, std::string prefix) {
        const VerlRoleProfiler *r = p.role(role);
        if (used && r && r->present && r->profilesRank(rank, p.legacy))
            out.push_back({role, std::move(prefix), r->savePath.empty() ? p.savePath : r->savePath, std::move(calls)});
    };
    const bool engine = verlVersionTraits(p.version).engineWorkers;
    add("actor", true,
        engine ? std::vector<std::string>{"compute_log_prob", "update_actor"}
               : std::vector<std::string>{"generate_sequences", "compute_log_prob", "update_actor"},
        v09 ? verlHybridWorkerRole(p) : "");
    add("ref", p.refUsed, {"compute_ref_log_prob"}, v09 ? verlHybridWorkerRole(p) : "");
    add("critic", p.criticUsed,
        engine ? std::vector<std::string>{"train_batch"} : std::vector<std::string>{"compute_values", "update_critic"},
        v09 ? "value_model" : "");
    return out;
}

// The `tp<i>-pp<i>-dp<i>-cp<i>` part a Megatron process puts in its trace names (verl's
// get_dist_topology reads them from megatron.core.parallel_state). verl initialises Megatron
// with its default rank order "tp-cp-ep-dp-pp": tp varies fastest, then cp, dp and pp, so
// rank = tp + TP * (cp + CP * (dp + DP * pp)). Placeholders when the sizes do not divide the
// world (the launch would fail) or are not plain integers.
std::string parallelPart(const VerlProfiling &p, const std::string &role, long long rank)
{
    if (!p.megatron)
        return "";
    const VerlProfiling::MegatronSizes s = role == "critic" ? p.criticMegatron : p.actorMegatron;
    const long long world = p.nnodes * p.gpusPerNode;
    const long long modelParallel = s.tp * s.pp * s.cp;
    if (s.tp <= 0 || s.pp <= 0 || s.cp <= 0 || world <= 0 || world % modelParallel != 0)
        return "tp<TP>-pp<PP>-dp<DP>-cp<CP>";
    const long long dp = world / modelParallel;
    const long long tpRank = rank % s.tp;
    const long long cpRank = rank / s.tp % s.cp;
    const long long dpRank = rank / (s.tp * s.cp) % dp;
    const long long ppRank = rank / (s.tp * s.cp * dp);
    return "tp" + std::to_string(tpRank) + "-pp" + std::to_string(ppRank) + "-dp" + std::to_string(dpRank) + "-cp" +
           std::to_string(cpRank);
}

std::vector<long long> sortedSteps(const VerlProfiling &p)
{
    if (!p.steps)
        return {};
    const std::set<long long> s(p.steps->begin(), p.steps->end());
    return {s.begin(), s.end()};
}

// 0.5-0.7.0, as the spec's B6 describes it (prof_rank-<r>.json.gz, one file per role).
void torchOutputsOld(const VerlProfiling &p, long long rank, std::vector<std::string> &out)
{
    const VerlRoleProfiler *actor = p.role("actor");
    const bool discrete = actor && actor->discreteFor("torch");
    const std::string base = actor ? actor->savePath : p.savePath;
    const std::string file = "prof_rank-" + std::to_string(rank) + ".json.gz";
    if (discrete) {
        for (const auto &c : verlAnnotatedCalls(p, rank))
            out.push_back(joinPath(joinPath(base, verlStageLabel(c)), file));
        return;
    }
    // Continuous mode: actor_rollout starts with role "e2e", the other roles without a role.
    if (actor && actor->profilesRank(rank, p.legacy))
        out.push_back(joinPath(base, "e2e/" + file));
    for (const char *other : {"ref", "critic"}) {
        const VerlRoleProfiler *r = p.role(other);
        const bool used = std::string(other) == "ref" ? p.refUsed : p.criticUsed;
        const std::string path = r ? joinPath(r->savePath, file) : std::string();
        if (used && r && r->profilesRank(rank, p.legacy) && std::find(out.begin(), out.end(), path) == out.end())
            out.push_back(path);
    }
}

// Files of one start/stop window or one discrete stage (0.7.1+).
void torchWindowFiles(const VerlProfiling &p, const RoleWriter &w, const std::string &scope, long long step,
                      const std::vector<std::string> &suffixes, long long rank, std::vector<std::string> &out)
{
    TorchTraceName n;
    n.workerRole = w.workerRole;
    n.scope = scope;
    n.rank = rank;
    n.worldSize = p.nnodes * p.gpusPerNode;
    n.parallel = parallelPart(p, w.role, rank);
    if (p.version >= VerlVersion::Main)
        n.step = step;
    else
        n.timestamp = "<timestamp-step" + std::to_string(step) + ">"; // one file per window
    for (const auto &suffix : suffixes) {
        n.suffix = suffix;
        out.push_back(verlTorchTracePath(p.version, w.savePath, n));
    }
}

std::vector<std::string> continuousSuffixes(const VerlProfiling &p, const VerlRoleProfiler *r)
{
    std::vector<std::string> suffixes = {""};
    if (!r || r->torchSchedule.active <= 0 || p.version < VerlVersion::V0_9)
        return suffixes;
    const long long repeat =
        p.version >= VerlVersion::Main ? std::max<long long>(1, r->torchSchedule.repeat) : r->torchSchedule.repeat;
    for (long long k = 1; k < repeat; ++k)
        suffixes.push_back((p.version >= VerlVersion::Main ? "_part" : "_cycle") + std::to_string(k));
    return suffixes;
}

void torchOutputsNew(const VerlProfiling &p, long long rank, long long miniBatches, std::vector<std::string> &out)
{
    const std::string scope = verlVersionTraits(p.version).wholeStepScope;
    const auto writers = writersForRank(p, rank);
    for (const auto &w : writers) {
        const VerlRoleProfiler *r = p.role(w.role);
        if (!r->discreteFor("torch")) {
            // The process-global torch profiler: the hybrid worker's window covers its ref.
            if (w.role == "ref" && p.role("actor") && p.role("actor")->profilesRank(rank, p.legacy))
                continue;
            for (const auto &win : verlWindows(p))
                torchWindowFiles(p, w, scope, win.front(), continuousSuffixes(p, r), rank, out);
            continue;
        }
        for (long long s : sortedSteps(p))
            for (const auto &c : w.calls) {
                std::vector<std::string> suffixes = {""};
                if (c == "update_actor" && r->torchSchedule.active > 0 && p.version >= VerlVersion::Main) {
                    suffixes.clear();
                    for (const auto &[a, b] : verlScheduleWindows(r->torchSchedule, miniBatches))
                        suffixes.push_back(a == b ? "_mb" + std::to_string(a)
                                                  : "_mb" + std::to_string(a) + "-" + std::to_string(b));
                }
                torchWindowFiles(p, w, verlStageLabel(c), s, suffixes, rank, out);
            }
    }
}

void npuOutputs(const VerlProfiling &p, long long rank, std::vector<std::string> &out)
{
    const VerlRoleProfiler *actor = p.role("actor");
    const std::string base = actor ? actor->savePath : p.savePath;
    const std::string dir = "<hostname>_<PID>_<timestamp>_ascend_pt/";
    if (actor && actor->discreteFor("npu")) {
        for (const auto &c : verlAnnotatedCalls(p, rank))
            out.push_back(joinPath(joinPath(base, verlStageLabel(c)), dir));
        return;
    }
    out.push_back(joinPath(joinPath(base, verlVersionTraits(p.version).wholeStepScope), dir));
}

void precisionDebuggerOutputs(const VerlProfiling &p, long long rank, std::vector<std::string> &out)
{
    // msprobe's own json decides the ranks (verl forces the rank gate open), so every rank of a
    // profiled role dumps; the stage filter is the role's `stages` (null = all it runs).
    const std::vector<std::pair<const char *, std::vector<std::string>>> stagesByRole = {
        {"actor", {"actor_compute_log_prob", "actor_update"}},
        {"ref", {"ref_compute_log_prob"}},
        {"critic", {"compute_values", "critic_update"}}};
    for (long long s : sortedSteps(p))
        for (const auto &[role, stages] : stagesByRole) {
            const VerlRoleProfiler *r = p.role(role);
            const bool used = std::string(role) == "actor" || (std::string(role) == "ref" && p.refUsed) ||
                              (std::string(role) == "critic" && p.criticUsed);
            if (!used || !r || !r->enable)
                continue;
            for (const auto &stage : stages)
                if (!r->precisionStages || std::find(r->precisionStages->begin(), r->precisionStages->end(), stage) !=
                                               r->precisionStages->end())
                    out.push_back(joinPath(r->savePath.empty() ? p.savePath : r->savePath,
                                           "step_" + std::to_string(s) + "/" + stage + "/"));
        }
    (void)rank;
}

} // namespace

std::string verlSanitizeLabel(const std::string &text)
{
    std::string out;
    for (size_t i = 0; i < text.size();) {
        if (labelChar(static_cast<unsigned char>(text[i]))) {
            out += text[i++];
            continue;
        }
        while (i < text.size() && !labelChar(static_cast<unsigned char>(text[i])))
            ++i;
        out += '-';
    }
    const size_t a = out.find_first_not_of('-');
    if (a == std::string::npos)
        return {};
    return out.substr(a, out.find_last_not_of('-') - a + 1);
}

std::string verlTorchTraceBasename(VerlVersion version, const TorchTraceName &n)
{
    if (version < VerlVersion::V0_9)
        return "prof_rank-" + std::to_string(n.rank) + "_" + n.pid + "_" + n.timestamp;
    std::vector<std::string> parts;
    if (!n.workerRole.empty())
        parts.push_back(verlSanitizeLabel(n.workerRole));
    if (!n.scope.empty())
        parts.push_back(verlSanitizeLabel(n.scope));
    if (n.step && version >= VerlVersion::Main)
        parts.push_back("step" + verlSanitizeLabel(std::to_string(*n.step)));
    std::string rankPart = "rank" + std::to_string(n.rank);
    if (n.worldSize && *n.worldSize)
        rankPart += "-of-" + std::to_string(*n.worldSize);
    parts.push_back(rankPart);
    if (!n.parallel.empty())
        parts.push_back(n.parallel);
    parts.push_back("pid" + n.pid);
    parts.push_back(n.timestamp);
    std::string joined;
    for (const auto &part : parts)
        joined += (joined.empty() ? "" : "_") + part;
    return joined;
}

std::string verlTorchTracePath(VerlVersion version, const std::string &savePath, const TorchTraceName &n)
{
    if (version < VerlVersion::V0_7_1)
        return joinPath(n.scope.empty() ? savePath : joinPath(savePath, n.scope),
                        "prof_rank-" + std::to_string(n.rank) + ".json.gz");
    const std::string file = verlTorchTraceBasename(version, n) + n.suffix + ".json.gz";
    if (version >= VerlVersion::Main || n.scope.empty())
        return joinPath(savePath, file); // flat since #7408: the role is in the name
    return joinPath(joinPath(savePath, n.scope), file);
}

std::string verlRelocatedNsysPath(const std::string &savePath, const std::string &workerRole, const std::string &host,
                                  const std::string &pid, const std::string &rangeId)
{
    const std::string prefix = workerRole.empty() ? "" : workerRole + "_";
    return joinPath(savePath,
                    prefix + host + "_worker_process_" + pid + (rangeId.empty() ? "" : "." + rangeId) + ".nsys-rep");
}

std::vector<std::pair<long long, long long>> verlScheduleWindows(const VerlRoleProfiler::TorchSchedule &s,
                                                                 long long miniBatches)
{
    std::vector<std::pair<long long, long long>> windows;
    if (s.active <= 0 || miniBatches <= 0)
        return windows;
    const long long cycle = s.wait + s.warmup + s.active;
    for (long long k = 0; s.repeat == 0 || k < s.repeat; ++k) {
        const long long first = s.skipFirst + k * cycle + s.wait + s.warmup;
        if (first >= miniBatches)
            break;
        windows.emplace_back(first, std::min(first + s.active - 1, miniBatches - 1));
    }
    return windows;
}

std::vector<std::string> verlInProcessOutputs(const VerlProfiling &p, long long rank, long long miniBatches)
{
    std::vector<std::string> out;
    if (!p.steps || p.steps->empty() || !p.tool)
        return out;
    const std::string &t = *p.tool;
    if (t == "precision_debugger") {
        precisionDebuggerOutputs(p, rank, out);
        return out;
    }
    if (verlAnnotatedCalls(p, rank).empty())
        return out;
    if (t == "torch" && p.version < VerlVersion::V0_7_1)
        torchOutputsOld(p, rank, out);
    else if (t == "torch")
        torchOutputsNew(p, rank, miniBatches, out);
    else if (t == "npu")
        npuOutputs(p, rank, out);
    else if (t == "torch_memory") {
        const VerlRoleProfiler *actor = p.role("actor");
        const std::string base = actor && !actor->savePath.empty() ? actor->savePath : "outputs/profile";
        for (long long s : sortedSteps(p))
            out.push_back(joinPath(base, "step" + std::to_string(s) + "/torch_memory_rank" + std::to_string(rank) +
                                             "_pid<PID>.pickle"));
    }
    return out;
}

std::string verlStageLabel(const std::string &call)
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
    return call; // compute_values, compute_rm_score, train_batch
}

std::string verlHybridWorkerRole(const VerlProfiling &p)
{
    return p.refUsed ? "actor_rollout_ref" : "actor_rollout";
}

} // namespace ps::core::profiling
