// Every emitted command must split back, under bash, into exactly the planned argv
// (ARCHITECTURE.md), whatever the values hold: spaces, quotes, $, ;, *, newlines. RLinf quotes
// with shlex (always round-trips); Ray joins verl's nsight options without quoting, so a value
// the shell would touch cannot round-trip there and must be reported instead.
#include "core/profiling/analysis.h"
#include "profilingtestutil.h"

#include <QtTest>

using namespace ps::core::profiling;

namespace {

const std::string kDir = PS_SOURCE_DIR "/tests/profiling/roundtrip";

} // namespace

class TestProfilingRoundTrip : public QObject
{
    Q_OBJECT
private slots:
    void rlinfWorkersAndDriver_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<int>("wrapped");
        QTest::newRow("nsight") << "nasty-nsight" << 5;       // 2 actor, 2 rollout, Env channel
        QTest::newRow("rocprof_sys") << "nasty-rocprof" << 6; // 3 groups + 3 channels ("all")
    }
    void rlinfWorkersAndDriver()
    {
        QFETCH(QString, config);
        QFETCH(int, wrapped);
        pstest::Case c;
        c.configDirs = {kDir};
        c.configName = config.toStdString();
        c.overrides = {"+runner.note='a b; $x * \"q\"'", "+runner.other=\"it's \\\\ x\""};
        c.launch.python = "/opt/py env/bin/python3 'x'";
        c.launch.rlinfRepo = "/opt/R Linf$";
        auto r = pstest::analyzeCase(c);
        int seen = 0;
        for (const auto &w : r->launch.workers) {
            if (!w.wrapped)
                continue;
            ++seen;
            QVERIFY(!w.argv.empty());
            const auto split = pstest::bashSplit(w.command);
            QVERIFY2(split, w.command.c_str());
            QVERIFY2(*split == w.argv, qPrintable(pstest::joined(*split) + "\n!=\n" + pstest::joined(w.argv)));
            QCOMPARE(w.argv.back(), c.launch.python);
        }
        QCOMPARE(seen, wrapped);
        const auto driver = pstest::bashSplit(r->launch.driverCommand);
        QVERIFY(driver && *driver == r->launch.driverArgv);
        QCOMPARE(driver->at(driver->size() - 2), c.overrides[0]);
        // The exported override list: one line per override, each splitting back to itself.
        const QStringList lines = QString::fromStdString(r->exports.overrides).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), qsizetype(c.overrides.size()));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const auto one = pstest::bashSplit(lines[i].toStdString());
            QVERIFY(one && one->size() == 1);
            QCOMPARE(one->front(), c.overrides[size_t(i)]);
        }
        // The ray-job export of RLinf is the driver line.
        const auto job = pstest::bashSplit(r->exports.rayJob);
        QVERIFY(job && *job == r->launch.driverArgv);
    }

    // Values a shell leaves alone round-trip through Ray's unquoted join, also with the literal
    // quotes of the default output name.
    void verlSafeValuesRoundTrip()
    {
        auto c = pstest::verlCase("verl/verl/trainer/config", "ppo_trainer",
                                  {"global_profiler.tool=nsys", "global_profiler.steps=[1,3]",
                                   "actor_rollout_ref.actor.profiler.enable=True", "trainer.nnodes=2",
                                   "+global_profiler.global_tool_config.nsys.worker_nsight_options.sample=cpu"});
        auto r = pstest::analyzeCase(c);
        int wrapped = 0;
        for (const auto &w : r->launch.workers) {
            if (!w.wrapped)
                continue;
            ++wrapped;
            const auto split = pstest::bashSplit(w.command);
            QVERIFY2(split && *split == w.argv, w.command.c_str());
        }
        QCOMPARE(wrapped, 1 + 16);
        const auto job = pstest::bashSplit(r->exports.rayJob);
        QVERIFY(job);
        QCOMPARE(job->at(0), std::string("ray"));
        QCOMPARE(job->at(4), std::string("{\"working_dir\":\".\"}"));
        QCOMPARE(std::vector<std::string>(job->begin() + 6, job->end()), r->launch.driverArgv);
    }

    // A value with shell syntax cannot survive Ray's join: the plan reports it as an error.
    void verlUnsafeValueIsReported_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("breaks"); // whether bash changes it wherever it runs
        QTest::newRow("space") << "'cuda nvtx'" << true;
        QTest::newRow("semicolon") << "'cuda;nvtx'" << true;
        QTest::newRow("dollar") << "'$HOME'" << true;
        QTest::newRow("star") << "'*'" << false; // a glob that matches no file stays literal
        QTest::newRow("quote") << "\"it's\"" << true;
    }
    void verlUnsafeValueIsReported()
    {
        QFETCH(QString, value);
        QFETCH(bool, breaks);
        auto c = pstest::verlCase(
            "verl/verl/trainer/config", "ppo_trainer",
            {"global_profiler.tool=nsys", "global_profiler.steps=[1]", "actor_rollout_ref.actor.profiler.enable=True",
             "global_profiler.global_tool_config.nsys.worker_nsight_options.trace=" + value.toStdString()});
        auto r = pstest::analyzeCase(c);
        bool reported = false;
        for (const auto &d : r->diagnostics)
            reported |= d.rule == "verl.nsight-value-unquoted" && d.severity == Severity::Error &&
                        d.key == "global_profiler.global_tool_config.nsys.worker_nsight_options.trace";
        QVERIFY(reported);
        const WorkerLaunch *w = pstest::spec::worker(r->launch, "global_pool:0");
        QVERIFY(w && w->wrapped);
        const auto split = pstest::bashSplit(w->command);
        if (breaks)
            QVERIFY(!split || *split != w->argv); // Ray's line really does not round-trip
    }
};

QTEST_GUILESS_MAIN(TestProfilingRoundTrip)
#include "tst_profilingroundtrip.moc"
