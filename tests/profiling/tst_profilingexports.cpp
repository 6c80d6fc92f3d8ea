// Exports: yaml-minimal must compose back to exactly the tree the user composed; the verl
// migration must reproduce, on today's ppo_trainer, what the old schema launched.
#include "core/config/yamlemitter.h"
#include "core/profiling/analysis.h"
#include "profilingtestutil.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace ps::core::profiling;
namespace cfg = ps::core::config;

class TestProfilingExports : public QObject
{
    Q_OBJECT
private slots:
    void yamlMinimalComposesBack_data()
    {
        QTest::addColumn<QString>("framework");
        QTest::addColumn<QStringList>("overrides");
        QTest::newRow("rlinf steps") << "rlinf"
                                     << QStringList{"+cluster.profiling.steps=[3]",
                                                    "cluster.profiling.worker_groups=[ActorGroup]"};
        QTest::newRow("rlinf group added")
            << "rlinf-plain"
            << QStringList{"+profile@cluster.profiling=default", "+cluster.profiling.output_dir=/mnt/p"};
        QTest::newRow("verl V1") << "verl"
                                 << QStringList{"global_profiler.tool=nsys", "global_profiler.steps=[1,2,5]",
                                                "global_profiler.profile_continuous_steps=True",
                                                "actor_rollout_ref.actor.profiler.enable=True",
                                                "critic.profiler.all_ranks=True"};
        QTest::newRow("verl option swap")
            << "verl" << QStringList{"actor@actor_rollout_ref.actor=dp_actor", "global_profiler.tool=npu"};
    }
    void yamlMinimalComposesBack()
    {
        QFETCH(QString, framework);
        QFETCH(QStringList, overrides);
        std::vector<std::string> ov;
        for (const auto &o : overrides)
            ov.push_back(o.toStdString());
        pstest::Case c = framework == "verl"    ? pstest::verlCase("verl/verl/trainer/config", "ppo_trainer", ov)
                         : framework == "rlinf" ? pstest::rlinfCase("rlinf-with-profile", "maniskill_ppo_mlp", ov)
                                                : pstest::rlinfCase("rlinf", "maniskill_ppo_mlp", ov);
        c.yamlMinimal = true;
        auto r = pstest::analyzeCase(c);
        QVERIFY2(r->exports.yamlMinimalError.empty(), r->exports.yamlMinimalError.c_str());
        const std::string &minimal = r->exports.yamlMinimal;
        QVERIFY(!minimal.empty());
        // Small: far fewer lines than the composed YAML.
        QVERIFY(std::count(minimal.begin(), minimal.end(), '\n') * 5 <
                std::count(r->exports.yaml.begin(), r->exports.yaml.end(), '\n'));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::ofstream(dir.path().toStdString() + "/mine.yaml") << minimal;
        pstest::Case back = c;
        back.configDirs.insert(back.configDirs.begin(), dir.path().toStdString());
        back.configName = "mine";
        back.overrides.clear();
        back.yamlMinimal = false;
        const auto again = pstest::inputOf(back);
        QCOMPARE(cfg::toYaml(again.composed->config), r->exports.yaml);
    }

    void overridesExport()
    {
        auto r = pstest::analyzeCase(pstest::verlCase("verl/verl/trainer/config", "ppo_trainer",
                                                      {"global_profiler.steps=[1,2]", "trainer.project_name=a b"}));
        QCOMPARE(r->exports.overrides, std::string("'global_profiler.steps=[1,2]'\n'trainer.project_name=a b'\n"));
    }

    void rayJobVerl()
    {
        auto c = pstest::verlCase("verl/verl/trainer/config", "ppo_trainer", {"global_profiler.tool=nsys"});
        c.launch.remoteConfigDir = "/opt/verl/verl/trainer/config";
        auto r = pstest::analyzeCase(c);
        QCOMPARE(r->exports.rayJob,
                 std::string("ray job submit --runtime-env-json '{\"working_dir\":\".\"}' -- python3 "
                             "-m verl.trainer.main_ppo --config-path=/opt/verl/verl/trainer/config "
                             "global_profiler.tool=nsys\n"));
    }

    // The collect script, run by bash with rsync on "localhost": verl's nsys reports are fetched
    // from Ray's logs/nsight on every host into DEST/<host>/<the same path>, so the layout that
    // report identity reads survives; a folder with spaces and quotes round-trips; a host without
    // the folder is a warning and exit 1; no host at all is a usage error (exit 2).
    void collectScriptFetchesReports()
    {
        QTemporaryDir tmp;
        const std::string session = tmp.filePath("ray dir/session_'latest").toStdString();
        auto c = pstest::verlCase("verl/verl/trainer/config", "ppo_trainer",
                                  {"global_profiler.tool=nsys", "global_profiler.steps=[1,2]",
                                   "actor_rollout_ref.actor.profiler.enable=True",
                                   "actor_rollout_ref.actor.profiler.all_ranks=True"});
        c.launch.raySessionDir = session;
        auto r = pstest::analyzeCase(c);
        QVERIFY(!r->launch.collect.empty());
        const std::string nsight = session + "/logs/nsight";
        for (const auto &[node, dir] : r->launch.collect)
            QCOMPARE(dir, nsight + "/");
        const std::string script = tmp.filePath("collect.sh").toStdString();
        std::ofstream(script) << r->exports.collect;

        QVERIFY(QDir().mkpath(QString::fromStdString(nsight)));
        for (const char *name : {"worker_process_4242.1.nsys-rep", "worker_process_4242.2.nsys-rep",
                                 "worker_process_4242.1.nsys-rep.psdigest", "worker_process_4242.2.nsys-rep.psdigest"})
            std::ofstream(nsight + "/" + name) << "report";
        auto run = [&](const QStringList &hosts, const QString &dest) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert("DEST", dest);
            p.setProcessEnvironment(env);
            p.start("bash", QStringList{QString::fromStdString(script)} + hosts);
            p.waitForFinished(30000);
            return std::tuple{p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
                              QString::fromUtf8(p.readAllStandardError())};
        };
        // By default the digests only.
        const QString dest = tmp.filePath("got");
        auto [code, out, err] = run({"localhost"}, dest);
        QVERIFY2(code == 0, qPrintable(err));
        const QString copied = dest + "/localhost" + QString::fromStdString(nsight);
        QVERIFY2(QFile::exists(copied + "/worker_process_4242.1.nsys-rep.psdigest"), qPrintable(out + err));
        QVERIFY(QFile::exists(copied + "/worker_process_4242.2.nsys-rep.psdigest"));
        QVERIFY(!QFile::exists(copied + "/worker_process_4242.1.nsys-rep"));
        QVERIFY2(out.contains("profstudio "), qPrintable(out));
        // --all: the raw reports too; --full 0: rank 0's (verl names them by PID only: all of them).
        for (const QStringList &opts : {QStringList{"--all"}, QStringList{"--full", "0"}}) {
            const QString more = tmp.filePath("more" + opts.join(""));
            auto [c2, o2, e2] = run(opts + QStringList{"localhost"}, more);
            QVERIFY2(c2 == 0, qPrintable(e2));
            const QString got = more + "/localhost" + QString::fromStdString(nsight);
            QVERIFY2(QFile::exists(got + "/worker_process_4242.2.nsys-rep"), qPrintable(opts.join(" ") + o2 + e2));
            QVERIFY(QFile::exists(got + "/worker_process_4242.2.nsys-rep.psdigest"));
        }
        auto [badRank, badOut, badErr] = run({"--full", "99", "localhost"}, tmp.filePath("bad"));
        QCOMPARE(badRank, 1);
        QVERIFY2(badErr.contains("no profiled worker has rank 99"), qPrintable(badErr));

        auto [usageCode, usageOut, usageErr] = run({}, dest);
        QCOMPARE(usageCode, 2);
        QVERIFY2(usageErr.contains("usage:"), qPrintable(usageErr));

        QVERIFY(QDir(QString::fromStdString(session)).removeRecursively());
        auto [missingCode, missingOut, missingErr] = run({"localhost"}, tmp.filePath("none"));
        QCOMPARE(missingCode, 1);
        QVERIFY2(missingErr.contains("warning: could not copy"), qPrintable(missingErr));
    }

    // RLinf writes into its run folder on the actor's node; the script names node 0's host.
    void collectScriptRLinf()
    {
        auto r = pstest::analyzeCase(
            pstest::rlinfCase("rlinf-with-profile", "maniskill_ppo_mlp", {"runner.logger.log_path=/mnt/logs"}));
        QVERIFY(!r->launch.collect.empty());
        const std::string &script = r->exports.collect;
        QVERIFY2(script.find("fetch \"${hosts[0]}\" ") != std::string::npos, script.c_str());
        QVERIFY(script.rfind("#!/usr/bin/env bash\n", 0) == 0);
        QProcess bash;
        bash.start("bash", {"-n"});
        bash.write(QByteArray::fromStdString(script));
        bash.closeWriteChannel();
        QVERIFY(bash.waitForFinished(10000));
        QCOMPARE(bash.exitCode(), 0);
        // A config that profiles nothing says so rather than copying nothing quietly.
        auto none = pstest::analyzeCase(pstest::verlCase("verl/verl/trainer/config", "ppo_trainer", {}));
        QVERIFY(none->launch.collect.empty());
        QVERIFY(none->exports.collect.find("exit 1") != std::string::npos);
    }

    // V3's old-schema config, migrated: the override list applied to today's ppo_trainer launches
    // the same commands, and every moved key carries a note.
    void migrationReproducesLegacyPlan()
    {
        auto legacy = pstest::analyzeCase(
            pstest::verlCase("verl/tests/trainer/config", "legacy_ppo_trainer",
                             {"trainer.profile_steps=[1,2,5]", "actor_rollout_ref.profiler.all_ranks=True",
                              "trainer.worker_nsight_options.kill=sigkill"}));
        const auto &steps = legacy->exports.migration;
        QVERIFY(!steps.empty());
        std::vector<std::string> overrides;
        for (const auto &s : steps) {
            QVERIFY(!s.note.empty());
            overrides.push_back(s.override);
        }
        QVERIFY(std::find(overrides.begin(), overrides.end(), "global_profiler.tool=nsys") != overrides.end());
        QVERIFY(std::find(overrides.begin(), overrides.end(), "global_profiler.steps=[1,2,5]") != overrides.end());
        QVERIFY(std::find(overrides.begin(), overrides.end(), "actor_rollout_ref.actor.profiler.enable=True") !=
                overrides.end());
        auto migrated = pstest::analyzeCase(pstest::verlCase("verl/verl/trainer/config", "ppo_trainer", overrides));
        for (const char *name : {"TaskRunner", "global_pool:0", "global_pool:7"}) {
            const WorkerLaunch *a = pstest::spec::worker(legacy->launch, name);
            const WorkerLaunch *b = pstest::spec::worker(migrated->launch, name);
            QVERIFY(a && b && a->wrapped && b->wrapped);
            QCOMPARE(b->command, a->command);
            QCOMPARE(b->captureRanges.size(), a->captureRanges.size());
        }
        QVERIFY(pstest::spec::worker(migrated->launch, "global_pool:0")->command.find("--kill=sigkill") !=
                std::string::npos);
        // New-schema configs have nothing to migrate.
        QVERIFY(migrated->exports.migration.empty());
    }
};

QTEST_GUILESS_MAIN(TestProfilingExports)
#include "tst_profilingexports.moc"
