// Exports: yaml-minimal must compose back to exactly the tree the user composed; the verl
// migration must reproduce, on today's ppo_trainer, what the old schema launched.
#include "core/config/yamlemitter.h"
#include "core/profiling/analysis.h"
#include "profilingtestutil.h"

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
            const WorkerLaunch *a = pstest::worker(*legacy, name);
            const WorkerLaunch *b = pstest::worker(*migrated, name);
            QVERIFY(a && b && a->wrapped && b->wrapped);
            QCOMPARE(b->command, a->command);
            QCOMPARE(b->captureRanges.size(), a->captureRanges.size());
        }
        QVERIFY(pstest::worker(*migrated, "global_pool:0")->command.find("--kill=sigkill") != std::string::npos);
        // New-schema configs have nothing to migrate.
        QVERIFY(migrated->exports.migration.empty());
    }
};

QTEST_GUILESS_MAIN(TestProfilingExports)
#include "tst_profilingexports.moc"
