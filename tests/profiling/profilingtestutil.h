#pragma once
// Helpers shared by the profiling tests: compose a real config tree with overrides, analyse it,
// find a worker of the plan, and split a command line the way bash does.

#include "core/config/composer.h"
#include "core/profiling/analysis.h"
#include "tests/support/specexamples.h"

#include <QProcess>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pstest {

inline std::string testdata(const std::string &rel)
{
    return std::string(PS_TESTDATA_DIR) + "/" + rel;
}

inline ps::core::config::EnvLookup envOf(std::map<std::string, std::string> vars)
{
    return [vars](const std::string &name) -> std::optional<std::string> {
        auto it = vars.find(name);
        if (it == vars.end())
            return std::nullopt;
        return it->second;
    };
}

struct Case
{
    std::vector<std::string> configDirs;
    std::string configName;
    std::vector<std::string> overrides;
    std::map<std::string, std::string> env;
    ps::core::profiling::ClusterDescription cluster;
    ps::core::profiling::LaunchOptions launch;
    bool builtinPresets = false;
    bool yamlMinimal = false;
};

inline ps::core::profiling::AnalysisInput inputOf(const Case &c)
{
    ps::core::profiling::AnalysisInput in;
    in.compose.configDirs = c.configDirs;
    in.compose.configName = c.configName;
    in.compose.overrides = c.overrides;
    in.compose.builtinPresets = c.builtinPresets;
    in.compose.env = envOf(c.env);
    in.composed = std::make_shared<const ps::core::config::ComposeResult>(ps::core::config::compose(in.compose));
    in.cluster = c.cluster;
    in.launch = c.launch;
    in.withYamlMinimal = c.yamlMinimal;
    return in;
}

// Throws ConfigError when the config does not compose.
inline std::shared_ptr<const ps::core::profiling::AnalysisResult> analyzeCase(const Case &c)
{
    return ps::core::profiling::analyze(inputOf(c));
}

// RLinf's main configs need EMBODIED_PATH for their hydra.searchpath.
inline Case rlinfCase(const std::string &tree, const std::string &name, std::vector<std::string> overrides)
{
    Case c;
    const std::string root = testdata("configs/" + tree + "/examples/embodiment");
    c.configDirs = {root + "/config"};
    c.configName = name;
    c.overrides = std::move(overrides);
    c.env = {{"EMBODIED_PATH", root}};
    return c;
}

inline Case verlCase(const std::string &relDir, const std::string &name, std::vector<std::string> overrides)
{
    Case c;
    c.configDirs = {testdata("configs/" + relDir)};
    c.configName = name;
    c.overrides = std::move(overrides);
    return c;
}

// bash's word splitting of `command` (as Ray's `bash -c "exec <py_executable> ..."` does),
// returned as the argv it yields; nullopt when bash fails.
inline std::optional<std::vector<std::string>> bashSplit(const std::string &command)
{
    QProcess bash;
    bash.start("bash", {"-c", QString::fromStdString("printf '%s\\0' " + command)});
    if (!bash.waitForFinished(20000) || bash.exitStatus() != QProcess::NormalExit || bash.exitCode() != 0)
        return std::nullopt;
    const QByteArray out = bash.readAllStandardOutput();
    std::vector<std::string> argv;
    qsizetype start = 0;
    for (qsizetype i = 0; i < out.size(); ++i) {
        if (out[i] == '\0') {
            argv.push_back(out.mid(start, i - start).toStdString());
            start = i + 1;
        }
    }
    return argv;
}

inline QString joined(const std::vector<std::string> &v)
{
    QStringList l;
    for (const auto &s : v)
        l << QString::fromStdString(s);
    return l.join(QStringLiteral(" | "));
}

} // namespace pstest
