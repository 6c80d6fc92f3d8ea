#include "core/configedit/sessionjob.h"

#include "core/config/configerror.h"
#include "core/config/configrepository.h"
#include "core/config/yamlemitter.h"

#include <chrono>

namespace ps::core::configedit {

using namespace core;

namespace {

// The group path of a defaults-tree source: "actor/dp_actor" -> "actor"; "" for a root config.
std::string groupOf(const std::string &configPath)
{
    const size_t slash = configPath.rfind('/');
    return slash == std::string::npos ? std::string() : configPath.substr(0, slash);
}

std::map<std::string, std::vector<std::string>> groupOptions(const config::ComposeOptions &opts,
                                                             const config::ComposeResult &composed)
{
    std::vector<std::string> dirs;
    for (const std::string &root : composed.searchPath) {
        if (root.rfind("file://", 0) == 0)
            dirs.push_back(root.substr(7));
        else if (!root.empty() && root.front() != '<')
            dirs.push_back(root);
    }
    if (dirs.empty())
        dirs = opts.configDirs;
    config::ConfigRepository repo(dirs, opts.builtinPresets);
    std::map<std::string, std::vector<std::string>> out;
    for (const config::ConfigSource &s : composed.sources) {
        const std::string g = groupOf(s.configPath);
        if (!g.empty() && !out.count(g))
            out[g] = repo.options(g);
    }
    return out;
}

} // namespace

std::string baselineKey(const config::ComposeOptions &base)
{
    std::string k = base.configName + '\n' + (base.builtinPresets ? "b" : "-") + '\n';
    for (const auto &d : base.configDirs)
        k += d + '\x1f';
    k += '\n';
    for (const auto &o : base.overrides)
        k += o + '\x1f';
    return k;
}

SessionResultPtr runSessionJob(const SessionJob &job)
{
    const auto t0 = std::chrono::steady_clock::now();
    auto r = std::make_shared<SessionResult>();
    r->compose = job.base;
    r->compose.overrides = job.overrides;
    r->baselineKey = job.baselineKey;

    if (job.cachedBaseline) {
        r->baseline = job.cachedBaseline;
        r->baselineYaml = job.cachedBaselineYaml;
    } else {
        try {
            r->baseline = std::make_shared<const config::ComposeResult>(config::compose(job.base));
            r->baselineYaml = config::toYaml(r->baseline->config);
        } catch (const config::ConfigError &) {
            // Reported through the full composition below, which fails the same way.
        }
    }

    try {
        r->composed = std::make_shared<const config::ComposeResult>(config::compose(r->compose));
    } catch (const config::ConfigError &e) {
        r->error = e.format();
        r->errorKey = e.keyPath();
    }
    if (r->composed) {
        profiling::AnalysisInput in;
        in.compose = r->compose;
        in.composed = r->composed;
        in.cluster = job.cluster;
        in.launch = job.launch;
        in.verlVersion = job.verlVersion;
        in.withExports = true;
        // Composes the baseline once more (~0.5 ms with parsed files reused), here on the worker,
        // so saving minimal YAML never composes on the GUI thread.
        in.withYamlMinimal = true;
        r->analysis = profiling::analyze(in);
        r->yaml = r->analysis->exports.yaml.empty() ? config::toYaml(r->composed->config) : r->analysis->exports.yaml;
        r->yamlKeys = buildYamlKeyMap(r->composed->config, r->yaml);
        if (r->baseline)
            r->diff = diffLines(splitLines(r->baselineYaml), splitLines(r->yaml));
        r->groupOptions = groupOptions(r->compose, *r->composed);
    }
    r->elapsedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

} // namespace ps::core::configedit
