// Benchmark of the Configure workspace: edit -> updated panes on verl's ppo_trainer (target
// <= 50 ms). Usage: bench_configure [EDITS] (default 40). Runs offscreen.
//
// Measures, per edit, the wall time from a panel edit (the "continuous steps" checkbox of the
// verl panel, toggled as a user clicks it) to the moment every pane and panel has been
// refreshed with the new result (a slot connected after the workspace's own). Also prints the
// background job alone (compose + analyse + derive, baseline cached) and, as the baseline of
// this run, a plain compose of the same config: the floor any edit pays.

#include "core/config/composer.h"
#include "core/configedit/sessionjob.h"
#include "views/config/configsession.h"
#include "views/config/configurepanels.h"
#include "views/config/configureworkspace.h"
#include "views/config/verlpanels.h"

#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[std::min(v.size() - 1, size_t(p * v.size()))];
}

double msSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int edits = argc > 1 ? std::atoi(argv[1]) : 40;
    const QString root = QString(PS_TESTDATA_DIR) + "/configs/verl/verl/trainer/config";

    // Baseline: compose alone.
    ps::core::config::ComposeOptions opts;
    opts.configDirs = {root.toStdString()};
    opts.configName = "ppo_trainer";
    std::vector<double> compose;
    for (int i = 0; i < edits; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        (void)ps::core::config::compose(opts);
        compose.push_back(msSince(t0));
    }

    // The background job alone, with the baseline cached as the session does.
    ps::core::configedit::SessionJob job;
    job.base = opts;
    job.baselineKey = ps::core::configedit::baselineKey(opts);
    const auto first = ps::core::configedit::runSessionJob(job);
    job.cachedBaseline = first->baseline;
    job.cachedBaselineYaml = first->baselineYaml;
    std::vector<double> jobs;
    for (int i = 0; i < edits; ++i) {
        job.overrides = {"global_profiler.tool=nsys", "global_profiler.steps=[1,2,5]",
                         i % 2 ? "global_profiler.profile_continuous_steps=true"
                               : "global_profiler.profile_continuous_steps=false"};
        const auto t0 = std::chrono::steady_clock::now();
        (void)ps::core::configedit::runSessionJob(job);
        jobs.push_back(msSince(t0));
    }

    // Where the job's time goes: analyse, YAML key map, diff (each alone, same inputs).
    std::vector<double> analyse, keymap, diff;
    {
        ps::core::config::ComposeOptions o = opts;
        o.overrides = job.overrides;
        auto composed = std::make_shared<const ps::core::config::ComposeResult>(ps::core::config::compose(o));
        const auto r = ps::core::configedit::runSessionJob(job);
        for (int i = 0; i < edits; ++i) {
            ps::core::profiling::AnalysisInput in;
            in.compose = o;
            in.composed = composed;
            auto t0 = std::chrono::steady_clock::now();
            (void)ps::core::profiling::analyze(in);
            analyse.push_back(msSince(t0));
            t0 = std::chrono::steady_clock::now();
            (void)ps::core::configedit::buildYamlKeyMap(composed->config, r->yaml);
            keymap.push_back(msSince(t0));
            t0 = std::chrono::steady_clock::now();
            (void)ps::core::configedit::diffLines(ps::core::configedit::splitLines(r->baselineYaml),
                                                  ps::core::configedit::splitLines(r->yaml));
            diff.push_back(msSince(t0));
        }
    }

    // End to end in the workspace.
    ps::views::ConfigureWorkspace ws;
    ws.resize(1600, 1000);
    ws.show();
    ws.openConfig({root}, "ppo_trainer", {"global_profiler.tool=nsys", "global_profiler.steps=[1,2,5]"});
    while (ws.isBusy() || !ws.result())
        app.processEvents(QEventLoop::AllEvents, 5);
    bool updated = false;
    QObject::connect(ws.session(), &ps::views::ConfigSession::resultReady, &ws, [&] { updated = true; });
    std::vector<double> e2e;
    QCheckBox *box = ws.panels()->panel<ps::views::VerlGlobalPanel>("verlGlobal")->continuous();
    for (int i = 0; i < edits; ++i) {
        updated = false;
        const auto t0 = std::chrono::steady_clock::now();
        box->click(); // as a user's click: toggled -> session edit -> background job -> panes
        while (!updated)
            app.processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
        e2e.push_back(msSince(t0));
    }

    std::printf("verl ppo_trainer, %d edits (median / p90 ms):\n", edits);
    std::printf("  baseline compose alone      %7.2f / %7.2f\n", median(compose), percentile(compose, 0.9));
    std::printf("  background job              %7.2f / %7.2f  (%.2fx compose)\n", median(jobs), percentile(jobs, 0.9),
                median(jobs) / median(compose));
    std::printf("    of which analyse          %7.2f\n    of which YAML key map     %7.2f\n    of which diff           "
                "  %7.2f\n",
                median(analyse), median(keymap), median(diff));
    std::printf("  edit -> updated panes       %7.2f / %7.2f  (%.2fx compose)  target <= 50 ms: %s\n", median(e2e),
                percentile(e2e, 0.9), median(e2e) / median(compose), median(e2e) <= 50 ? "met" : "NOT met");
    return 0;
}
