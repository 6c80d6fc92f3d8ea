#pragma once
// Shared by the Configure GUI tests: the real config trees of ../shared/testdata, and the
// engine run (compose + analyze) that the workspace's exports are compared against.

#include "core/config/composer.h"
#include "core/profiling/analysis.h"
#include "tests/support/specexamples.h"
#include "views/config/configureworkspace.h"

#include <QString>
#include <QStringList>
#include <QtTest>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cfgtest {

inline QString testdata(const QString &rel)
{
    return QString(PS_TESTDATA_DIR) + "/" + rel;
}

inline QString rlinfRoot(const QString &tree)
{
    return testdata("configs/" + tree + "/examples/embodiment/config");
}

inline QString verlRoot()
{
    return testdata("configs/verl/verl/trainer/config");
}

// What the engine produces for base + overrides, independently of the workspace.
struct EngineRun
{
    std::shared_ptr<const ps::core::config::ComposeResult> composed;
    std::shared_ptr<const ps::core::profiling::AnalysisResult> analysis;
    std::string error;
};

inline EngineRun engine(const QString &root, const QString &name, const std::vector<std::string> &overrides, bool rlinf)
{
    using namespace ps::core;
    EngineRun run;
    config::ComposeOptions o;
    o.configDirs = {root.toStdString()};
    o.configName = name.toStdString();
    o.overrides = overrides;
    const std::string embodied = QDir::cleanPath(QDir(root).absolutePath() + "/..").toStdString();
    o.env = [rlinf, embodied](const std::string &var) -> std::optional<std::string> {
        if (rlinf && var == "EMBODIED_PATH")
            return embodied;
        return std::nullopt;
    };
    try {
        run.composed = std::make_shared<const config::ComposeResult>(config::compose(o));
    } catch (const config::ConfigError &e) {
        run.error = e.format();
        return run;
    }
    profiling::AnalysisInput in;
    in.compose = o;
    in.composed = run.composed;
    run.analysis = profiling::analyze(in);
    return run;
}

// Waits until the workspace has composed everything edited so far.
inline bool settle(ps::views::ConfigureWorkspace &ws, int timeoutMs = 30000)
{
    QElapsedTimer t;
    t.start();
    do {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        if (!ws.isBusy() && ws.result())
            return true;
        QTest::qWait(5);
    } while (t.elapsed() < timeoutMs);
    return false;
}

inline QStringList toQt(const std::vector<std::string> &v)
{
    QStringList l;
    for (const auto &s : v)
        l << QString::fromStdString(s);
    return l;
}

} // namespace cfgtest
