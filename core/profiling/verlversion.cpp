#include "core/profiling/verlversion.h"

#include "core/config/node.h"

#include <array>

namespace ps::core::profiling {

using config::Node;

namespace {

const Node *at(const Node &root, std::string_view path)
{
    const Node *n = &root;
    while (n && !path.empty()) {
        const size_t dot = path.find('.');
        const std::string key(path.substr(0, dot));
        n = n->isDict() ? n->find(key) : nullptr;
        path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
    }
    return n;
}

// One schema mark per release, newest first: the first mark present decides. Each is a key
// that release's own tree writes (or, for 0.5-0.7.0, a block 0.7.1 removed), read from the
// upstream trees at the tags (verl-project/verl) and ../shared/testdata/configs/verl-versions.
// Marks are keys users do not write themselves (`_target_`, the per-role interpolations), so a
// block copied from the docs or an older config does not change the answer.
struct SchemaMark
{
    VerlVersion version;
    const char *key;
};
constexpr std::array<SchemaMark, 5> kMarks = {{
    {VerlVersion::Main, "actor_rollout_ref.actor.profiler.relocate_results"},
    {VerlVersion::V0_9, "actor_rollout_ref.actor.profiler.tool_config.torch.schedule._target_"},
    {VerlVersion::V0_9, "actor_rollout_ref.rollout.profiler.tool_config.torch.profile_token_start"},
    {VerlVersion::V0_8, "global_profiler.global_tool_config.precision_debugger._target_"},
    {VerlVersion::V0_5, "reward_model.profiler._target_"},
}};

// Core ProfilerConfig fields every release since #2894 has.
const std::vector<std::string> kBaseRoleKeys = {"_target_", "tool",      "enable",      "all_ranks",
                                                "ranks",    "save_path", "tool_config", "global_tool_config"};

std::vector<std::string> plus(std::vector<std::string> a, const std::vector<std::string> &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

std::vector<VerlVersionTraits> makeTraits()
{
    const std::vector<std::string> oldTools = {"nsys", "npu", "torch", "torch_memory"};
    const std::vector<std::string> newTools = plus(oldTools, {"precision_debugger"});
    const std::vector<std::string> oldContents = {
        "cuda", "cpu", "memory", "shapes", "stack", "profile-by-stage", "merge-profiles"};
    const std::vector<std::string> contents = {"cuda", "cpu", "memory", "shapes", "stack"};
    const std::vector<std::string> hookKeys = {"relocate_results", "finish_hook_cmd", "finish_hook_all_ranks",
                                               "finish_hook_ranks"};
    const std::vector<std::string> torchOld = {"_target_", "contents", "discrete", "step_start", "step_end", "name"};
    const std::vector<std::string> torch071 = {"_target_", "contents", "discrete", "name"};
    const std::vector<std::string> torch09 = plus(torch071, {"profile_token_start", "profile_token_end", "schedule"});
    const std::vector<std::string> pdStages = {"actor_update",   "actor_compute_log_prob", "ref_compute_log_prob",
                                               "compute_values", "critic_update",          "compute_rm_score"};
    using V = VerlVersion;
    // clang-format off
    return {
        //  version    tools     contents     roleKeys                     torchKeys rm     sched  tokens hooks  nvtx   rayenv engine label  scope    stages
        {V::Legacy, oldTools, oldContents, kBaseRoleKeys,                torchOld, true,  false, false, false, false, false, false, false, "e2e", {}},
        {V::V0_5,   oldTools, oldContents, kBaseRoleKeys,                torchOld, true,  false, false, false, false, false, false, false, "e2e", {}},
        {V::V0_7_1, oldTools, contents,    kBaseRoleKeys,                torch071, false, false, false, false, false, false, false, false, "e2e", {}},
        {V::V0_8,   newTools, contents,    kBaseRoleKeys,                torch071, false, false, false, false, false, false, true,  false, "e2e", pdStages},
        {V::V0_9,   newTools, contents,    kBaseRoleKeys,                torch09,  false, true,  true,  false, false, false, true,  false, "e2e", pdStages},
        {V::Main,   newTools, contents,    plus(kBaseRoleKeys, hookKeys), torch09, false, true,  true,  true,  true,  true,  true,  true,  "train", pdStages},
    };
    // clang-format on
}

} // namespace

const char *verlVersionName(VerlVersion version)
{
    switch (version) {
    case VerlVersion::Legacy:
        return "legacy";
    case VerlVersion::V0_5:
        return "0.5-0.7.0";
    case VerlVersion::V0_7_1:
        return "0.7.1";
    case VerlVersion::V0_8:
        return "0.8";
    case VerlVersion::V0_9:
        return "0.9";
    case VerlVersion::Main:
        return "main";
    }
    return "?";
}

std::string supportedVerlVersions()
{
    return "legacy, 0.5-0.7.0, 0.7.1, 0.8, 0.9, main";
}

std::optional<VerlVersion> parseVerlVersion(std::string_view text)
{
    if (!text.empty() && (text.front() == 'v' || text.front() == 'V'))
        text.remove_prefix(1);
    using V = VerlVersion;
    static const std::pair<std::string_view, VerlVersion> names[] = {
        {"legacy", V::Legacy}, {"0.5-0.7.0", V::V0_5}, {"0.5", V::V0_5}, {"0.5.0", V::V0_5}, {"0.6", V::V0_5},
        {"0.6.0", V::V0_5},    {"0.6.1", V::V0_5},     {"0.7", V::V0_5}, {"0.7.0", V::V0_5}, {"0.7.1", V::V0_7_1},
        {"0.8", V::V0_8},      {"0.8.0", V::V0_8},     {"0.9", V::V0_9}, {"0.9.0", V::V0_9}, {"main", V::Main},
    };
    for (const auto &[name, v] : names)
        if (text == name)
            return v;
    return std::nullopt;
}

VerlVersionDetection detectVerlVersion(const Node &config)
{
    VerlVersionDetection d;
    if (!at(config, "global_profiler")) {
        for (const char *key : {"trainer.profile_steps", "trainer.worker_nsight_options"})
            if (at(config, key)) {
                d.version = VerlVersion::Legacy;
                d.detected = true;
                d.why.push_back(std::string(key) + " present, global_profiler absent (flat schema before #2894)");
                return d;
            }
        d.why.push_back("no global_profiler and no trainer.profile_steps: version assumed");
        return d;
    }
    d.detected = true;
    for (const SchemaMark &m : kMarks)
        if (at(config, m.key)) {
            d.version = m.version;
            d.why.push_back(std::string(m.key) + " present");
            return d;
        }
    d.version = VerlVersion::V0_7_1;
    d.why.push_back("global_profiler present; no reward_model.profiler (removed by #5255), no "
                    "global_tool_config.precision_debugger (added in 0.8)");
    return d;
}

const VerlVersionTraits &verlVersionTraits(VerlVersion version)
{
    static const std::vector<VerlVersionTraits> traits = makeTraits();
    return traits[static_cast<size_t>(version)];
}

} // namespace ps::core::profiling
