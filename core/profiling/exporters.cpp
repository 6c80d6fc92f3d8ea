#include "core/profiling/exporters.h"

#include "core/common/jsonwriter.h"
#include "core/common/shellquote.h"
#include "core/config/override.h"
#include "core/config/yamlemitter.h"

#include <algorithm>

namespace ps::core::profiling {

using config::Node;

namespace {

// Whether an override selects a config group option (it names a group of the composition).
bool isGroupOverride(const config::Override &o, const config::ComposeResult &composed)
{
    if (o.hasPackage)
        return true;
    for (const auto &[group, choice] : composed.choices) {
        (void)choice;
        const std::string g = group.substr(0, group.find('@'));
        if (g == o.key || group == o.key)
            return true;
    }
    return false;
}

// Keeps in `out` the parts of `now` that differ from `before`; records keys that vanished.
void diffTrees(const Node &now, const Node *before, const std::string &path, Node &out,
               std::vector<std::string> &removed)
{
    for (size_t i = 0; i < now.size(); ++i) {
        const std::string &k = now.keyAt(i);
        const Node &v = now.valueAt(i);
        const Node *b = before ? before->find(k) : nullptr;
        if (b && *b == v)
            continue;
        if (b && v.isDict() && b->isDict()) {
            Node sub = Node::dict();
            diffTrees(v, b, path + k + ".", sub, removed);
            if (sub.size() > 0)
                out.set(k, std::move(sub));
            continue;
        }
        out.set(k, v);
    }
    if (before && before->isDict())
        for (const auto &k : before->keys())
            if (!now.find(k))
                removed.push_back(path + k);
}

std::string overrideValueText(const Node &v)
{
    return config::toOverrideValue(v);
}

} // namespace

std::string exportOverrides(const std::vector<std::string> &overrides)
{
    std::string out;
    for (const auto &o : overrides)
        out += shellQuote(o) + "\n";
    return out;
}

std::string exportMigration(const std::vector<MigrationStep> &steps)
{
    std::string out;
    for (const auto &s : steps)
        out += "# " + s.note + "\n" + shellQuote(s.override) + "\n";
    return out;
}

std::string exportRayJob(Framework framework, const std::vector<std::string> &driverArgv, const LaunchOptions &options)
{
    if (framework != Framework::Verl)
        return shellJoin(driverArgv) + "\n";
    JsonWriter json(0);
    json.beginObject().key("working_dir").value(options.workingDir).endObject();
    std::vector<std::string> argv = {"ray", "job", "submit", "--runtime-env-json", json.str(), "--"};
    argv.insert(argv.end(), driverArgv.begin(), driverArgv.end());
    return shellJoin(argv) + "\n";
}

std::vector<MigrationStep> migrateVerlLegacy(const VerlProfiling &p, const ConfigReader &cfg)
{
    std::vector<MigrationStep> steps;
    if (!p.legacy)
        return steps;
    const Node *ps = cfg.get("trainer.profile_steps");
    if (ps && ps->isList() && ps->size() > 0) {
        steps.push_back({"global_profiler.tool=nsys",
                         "new required key: the old schema ran nsys whenever trainer.profile_steps was set on CUDA"});
        steps.push_back(
            {"global_profiler.steps=" + overrideValueText(*ps), "trainer.profile_steps -> global_profiler.steps"});
    }
    if (p.continuous)
        steps.push_back({"global_profiler.profile_continuous_steps=True",
                         "trainer.profile_continuous_steps -> global_profiler.profile_continuous_steps"});
    // New defaults of global_tool_config.nsys (ppo_trainer.yaml); only differing values move.
    const std::vector<std::pair<std::string, std::string>> controllerDefaults = {
        {"trace", "cuda,nvtx,cublas,ucx"}, {"cuda-memory-usage", "true"}, {"cuda-graph-trace", "graph"}};
    auto workerDefaults = controllerDefaults;
    workerDefaults.insert(workerDefaults.end(), {{"capture-range", "cudaProfilerApi"}, {"kill", "none"}});
    const std::pair<const char *, const std::vector<std::pair<std::string, std::string>> *> blocks[] = {
        {"controller_nsight_options", &controllerDefaults}, {"worker_nsight_options", &workerDefaults}};
    for (const auto &[name, defaults] : blocks) {
        const std::string oldPath = std::string("trainer.") + name;
        const std::string newPath = std::string("global_profiler.global_tool_config.nsys.") + name;
        const Node *block = cfg.get(oldPath);
        if (!block || !block->isDict())
            continue;
        for (size_t i = 0; i < block->size(); ++i) {
            const std::string &k = block->keyAt(i);
            const Node &v = block->valueAt(i);
            bool same = v.isNull() && k == "capture-range-end";
            for (const auto &[dk, dv] : *defaults)
                if (dk == k && v.isStringLike() && v.asString() == dv)
                    same = true;
            if (same)
                continue;
            const bool exists = k == "capture-range-end" ||
                                std::any_of(defaults->begin(), defaults->end(), [&](auto &d) { return d.first == k; });
            steps.push_back({(exists ? "" : "+") + newPath + "." + k + "=" + overrideValueText(v),
                             oldPath + "." + k + " -> " + newPath + "." + k});
        }
    }
    bool anyDiscrete = false;
    for (const auto &r : p.roles)
        if (r.role != "rollout" && r.role != "ref" && r.present && r.nsysDiscrete)
            anyDiscrete = true;
    if (anyDiscrete)
        steps.push_back({"global_profiler.global_tool_config.nsys.discrete=True",
                         "<role>.profiler.discrete -> global_profiler.global_tool_config.nsys.discrete (one switch "
                         "for all roles)"});
    for (const auto &r : p.roles) {
        if (r.role == "rollout" || r.role == "ref" || !r.present || !r.enable)
            continue;
        const std::string newRole = r.role == "actor" ? "actor_rollout_ref.actor.profiler" : r.path;
        steps.push_back(
            {newRole + ".enable=True", "new required key: " + r.path + " profiled ranks without an enable switch"});
        if (r.allRanks)
            steps.push_back({newRole + ".all_ranks=True", r.path + ".all_ranks -> " + newRole + ".all_ranks"});
        if (!r.ranks.empty()) {
            Node list = Node::list();
            for (long long x : r.ranks)
                list.append(Node::integer(x));
            steps.push_back(
                {newRole + ".ranks=" + overrideValueText(list), r.path + ".ranks -> " + newRole + ".ranks"});
        }
    }
    return steps;
}

std::string exportYamlMinimal(const config::ComposeOptions &options, const config::ComposeResult &composed)
{
    std::vector<config::Override> groupOverrides;
    config::ComposeOptions baselineOptions = options;
    baselineOptions.overrides.clear();
    for (const auto &text : options.overrides) {
        config::Override o = config::parseOverride(text);
        if (isGroupOverride(o, composed)) {
            groupOverrides.push_back(o);
            baselineOptions.overrides.push_back(text);
        }
    }
    const config::ComposeResult baseline = config::compose(baselineOptions);
    Node diff = Node::dict();
    std::vector<std::string> removed;
    diffTrees(composed.config, &baseline.config, "", diff, removed);

    std::string name = options.configName;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".yaml") == 0)
        name.resize(name.size() - 5);
    std::string out = "# Minimal config: " + name + " plus the edits below (profstudio-cli export --as yaml-minimal)\n";
    for (const auto &r : removed)
        out += "# not expressible here, pass on the command line: ~" + r + "\n";
    out += "defaults:\n  - " + name + "\n";
    for (const auto &o : groupOverrides) {
        const std::string target = o.key + (o.hasPackage ? "@" + o.package : "");
        if (o.type == config::Override::Type::Delete) {
            out = "# not expressible here, pass on the command line: " + o.text + "\n" + out;
            continue;
        }
        const std::string value = o.value.isNull() ? "null" : o.valueText;
        if (o.type == config::Override::Type::Change)
            out += "  - override " + target + ": " + value + "\n";
        else
            out += "  - " + target + ": " + value + "\n";
    }
    out += "  - _self_\n";
    if (diff.size() > 0)
        out += config::toYaml(diff);
    return out;
}

} // namespace ps::core::profiling
