#include "core/analysis/phases/phasemapping.h"

#include <cctype>

namespace ps::core::analysis {

namespace {

// (label, phase), in the order phases run within a step.
const PhaseRule kDefaultRules[] = {
    // Weight sync between trainer and rollout engines.
    {"update_weights", "weight_sync"},              // verl V1 trainer_sync / colocate_async
    {"switch_to_rollout", "weight_sync"},           // verl trainer_separate_async
    {"switch_to_trainer", "weight_sync"},           //
    {"actor/sync_model_to_rollout", "weight_sync"}, // RLinf actor workers
    {"sync_model_from_actor", "weight_sync"},       // RLinf rollout worker
    {"rollout/poll_weight_sync", "weight_sync"},    //
    {"rollout/request_weight_sync", "weight_sync"}, //
    // Generation.
    {"gen", "rollout"}, // verl marked_timer
    {"generate_sequences", "rollout"},
    {"rollout_generate", "rollout"},
    {"rollout/generate", "rollout"}, // RLinf
    {"generate_one_epoch", "rollout"},
    {"predict", "rollout"},
    {"predict_rtc", "rollout"},
    // Environment interaction (RLinf embodied).
    {"env_interact_step", "env"},
    {"interact", "env"},
    {"run_interact_once", "env"},
    {"env/bootstrap_step", "env"},
    {"env/send_rollout_trajectories", "env"},
    // The trainer waiting for and assembling trajectories.
    {"actor/recv_traj", "recv_trajectories"},
    {"drain_received_trajectories", "recv_trajectories"},
    {"wait_for_rollout_store_ready", "recv_trajectories"},
    {"construct_rollout_batch", "recv_trajectories"},
    // Rewards.
    {"reward", "reward"}, // verl marked_timer
    {"compute_rm_score", "reward"},
    {"compute_rewards", "reward"}, // RLinf
    {"compute_reward", "reward"},
    {"compute_bootstrap_rewards", "reward"},
    {"get_reward_model_output", "reward"},
    // Log-probs of the rollout policy, the reference, values.
    {"old_log_prob", "old_log_prob"}, // verl marked_timer
    {"actor_compute_log_prob", "old_log_prob"},
    {"compute_log_prob", "old_log_prob"},
    {"ref", "ref"},
    {"ref_compute_log_prob", "ref"},
    {"compute_ref_log_prob", "ref"},
    {"actor/compute_opd_teacher_logprobs", "ref"},
    {"values", "values"},
    {"compute_values", "values"},
    // Advantages.
    {"adv", "adv"},
    {"actor/compute_adv", "adv"},
    {"compute_advantages_and_returns", "adv"},
    // Updates.
    {"update_critic", "update_critic"},
    {"critic_update", "update_critic"},
    {"update_actor", "update_actor"},
    {"actor_update", "update_actor"},
    {"run_training", "update_actor"}, // RLinf
    {"forward_backward", "update_actor"},
    // Outside training proper.
    {"testing", "validation"},
    {"evaluate", "validation"},
    {"run_eval", "validation"},
    {"save_checkpoint", "checkpoint"},
};

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

} // namespace

bool globMatch(std::string_view pattern, std::string_view text)
{
    // Iterative matching with backtracking to the last '*'.
    size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = t;
        } else if (p < pattern.size() && pattern[p] == text[t]) {
            ++p;
            ++t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

PhaseMapping PhaseMapping::defaults()
{
    PhaseMapping m;
    m.m_rules.assign(std::begin(kDefaultRules), std::end(kDefaultRules));
    return m;
}

std::optional<PhaseMapping> PhaseMapping::parse(std::string_view text, const std::string &file, std::string &error)
{
    PhaseMapping m;
    size_t lineNo = 0;
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        ++lineNo;
        if (const size_t hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        line = trim(line);
        if (line.empty())
            continue;
        const size_t eq = line.rfind('=');
        const std::string_view label = eq == std::string_view::npos ? std::string_view() : trim(line.substr(0, eq));
        const std::string_view phase = eq == std::string_view::npos ? std::string_view() : trim(line.substr(eq + 1));
        if (label.empty() || phase.empty()) {
            error = file + ":" + std::to_string(lineNo) + ": error: expected 'LABEL = PHASE', got '" +
                    std::string(line) + "'";
            return std::nullopt;
        }
        m.m_rules.push_back({std::string(label), std::string(phase)});
    }
    return m;
}

void PhaseMapping::prepend(const PhaseMapping &user)
{
    m_rules.insert(m_rules.begin(), user.m_rules.begin(), user.m_rules.end());
}

std::optional<std::string> PhaseMapping::phaseOf(std::string_view label) const
{
    for (const PhaseRule &r : m_rules)
        if (globMatch(r.pattern, label))
            return r.phase;
    if (const size_t colon = label.find(':'); colon != std::string_view::npos)
        for (const PhaseRule &r : m_rules)
            if (globMatch(r.pattern, label.substr(colon + 1)))
                return r.phase;
    return std::nullopt;
}

namespace {
// A glob as a regular expression: '*' any run of characters, ASCII punctuation escaped.
std::string globAsRegex(std::string_view glob)
{
    std::string out;
    for (const char c : glob) {
        if (c == '*')
            out += ".*";
        else if (std::ispunct(static_cast<unsigned char>(c)) && c != '_')
            out += std::string("\\") + c;
        else
            out += c;
    }
    return out;
}
} // namespace

std::string PhaseMapping::labelPattern(std::string_view phase) const
{
    std::string alternatives;
    for (const PhaseRule &r : m_rules)
        if (r.phase == phase)
            alternatives += (alternatives.empty() ? "" : "|") + globAsRegex(r.pattern);
    return "^([^:]*:)?(" + (alternatives.empty() ? globAsRegex(std::string(phase)) : alternatives) + ")$";
}

size_t PhaseMapping::orderOf(std::string_view phase) const
{
    for (size_t i = 0; i < m_rules.size(); ++i)
        if (m_rules[i].phase == phase)
            return i;
    return m_rules.size();
}

} // namespace ps::core::analysis
