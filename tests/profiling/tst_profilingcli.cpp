// profstudio-cli validate / plan / export as scripts use them (../shared/spec/cli.md): exit
// status, JSON shapes, located diagnostics, and the commands of the worked examples.
#include "tests/support/clirun.h"
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kConfigs = QStringLiteral(PS_TESTDATA_DIR "/configs");
const QString kRLinf = kConfigs + "/rlinf-with-profile/examples/embodiment";
const QString kVerl = kConfigs + "/verl/verl/trainer/config";
const QString kCorpus = QStringLiteral(PS_SOURCE_DIR "/tests/profiling/corpus");
const QString kVerl09 = kConfigs + "/verl-versions/v0.9.0/verl/trainer/config";
const QString kVerlMain = kConfigs + "/verl-versions/main-1dda039b/verl/trainer/config";

struct Run
{
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Run cli(const QStringList &args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("EMBODIED_PATH", kRLinf);
    const ps::test::CliRun r = ps::test::runCli(args, env);
    return {r.exitCode, r.out.toUtf8(), r.err.toUtf8()};
}

QStringList rlinf(QStringList extra)
{
    return QStringList{"--config-dir", kRLinf + "/config", "--config-name", "maniskill_ppo_mlp"} + extra;
}

QStringList verl(QStringList extra)
{
    return QStringList{"--config-dir", kVerl, "--config-name", "ppo_trainer"} + extra;
}

} // namespace

class TestProfilingCli : public QObject
{
    Q_OBJECT
private slots:
    void validateExitStatus_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::newRow("clean verl") << (QStringList{"validate"} +
                                        verl({"global_profiler.tool=nsys", "global_profiler.steps=[1,2]",
                                              "actor_rollout_ref.actor.profiler.enable=True"}))
                                    << 0;
        QTest::newRow("warnings only") << (QStringList{"validate"} + rlinf({"+cluster.profiling.steps=[1,2]"})) << 0;
        QTest::newRow("error") << (QStringList{"validate"} + rlinf({"cluster.profiling.backend=nsys"})) << 1;
        QTest::newRow("compose error") << (QStringList{"validate"} + rlinf({"cluster.no_such.key=1"})) << 1;
        QTest::newRow("no config name") << QStringList{"validate", "--config-dir", kVerl} << 2;
        QTest::newRow("bad format") << (QStringList{"validate", "--format", "xml"} + verl({})) << 2;
        QTest::newRow("bad nodes") << (QStringList{"plan", "--nodes", "zero"} + verl({})) << 2;
        QTest::newRow("help") << QStringList{"plan", "--help"} << 0;
    }
    void validateExitStatus()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        const Run r = cli(args);
        QVERIFY2(r.code == code, r.err.constData());
    }

    // JSON diagnostics carry rule, severity, key, file, line and column of the offending value.
    void validateJson()
    {
        const Run r =
            cli({"validate", "--format", "json", "--config-dir", kCorpus, "--config-name", "rlinf-steps-negative"});
        QCOMPARE(r.code, 1);
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc["framework"].toString(), QString("rlinf"));
        const QJsonArray diags = doc["diagnostics"].toArray();
        QCOMPARE(diags.size(), 1);
        const QJsonObject d = diags[0].toObject();
        QCOMPARE(d["severity"].toString(), QString("error"));
        QCOMPARE(d["rule"].toString(), QString("rlinf.steps-negative"));
        QCOMPARE(d["message"].toString(), QString("Profiling steps must be non-negative ints. But got: [3, -1]"));
        QCOMPARE(d["key"].toString(), QString("cluster.profiling.steps.1"));
        QVERIFY(d["file"].toString().endsWith("/rlinf-steps-negative.yaml"));
        QCOMPARE(d["line"].toInt(), 12);
        QCOMPARE(d["column"].toInt(), 9);
    }

    void validateTextIsLocated()
    {
        const Run r = cli({"validate", "--config-dir", kCorpus, "--config-name", "rlinf-backend-nsys"});
        QCOMPARE(r.code, 1);
        const QString line = QString::fromUtf8(r.err).trimmed();
        // Line 7 holds `backend: nsys`; the column is the config engine's mark of that entry.
        static const QRegularExpression located(
            QStringLiteral("/rlinf-backend-nsys\\.yaml:7:[1-9][0-9]*: error: Unknown profiling backend 'nsys'\\. Known "
                           "backends: \\['nsight', 'rocprof_sys'\\] \\[rlinf\\.backend-unknown\\]$"));
        QVERIFY2(located.match(line).hasMatch(), qPrintable(line));
    }

    // A value that came from the command line is located at the override that set it.
    void overrideLocated()
    {
        const Run r = cli(QStringList{"validate"} + rlinf({"+cluster.profiling.steps=[3,10]"}));
        QCOMPARE(r.code, 0);
        static const QRegularExpression located(QStringLiteral(
            "<override \\+cluster\\.profiling\\.steps=\\[3,10\\]>(:\\d+:\\d+)?: warning: 2 steps are listed"));
        QVERIFY2(located.match(QString::fromUtf8(r.err)).hasMatch(), r.err.constData());
    }

    void planJson()
    {
        const Run r = cli(
            QStringList{"plan", "--format", "json", "--python", "/opt/conda/bin/python", "--log-path", "/logs/run1"} +
            rlinf({"+cluster.profiling.steps=[3]"}));
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc["framework"].toString(), QString("rlinf"));
        QCOMPARE(doc["backend"].toString(), QString("nsight"));
        const QJsonArray workers = doc["workers"].toArray();
        QCOMPARE(workers.size(), 3);
        QJsonObject actor;
        for (const auto &w : workers)
            if (w.toObject()["name"].toString() == "ActorGroup:0")
                actor = w.toObject();
        QCOMPARE(actor["command"].toString(),
                 QString("nsys profile -t cuda,cudnn,cublas,nvtx,osrt --sample=process-tree --cpuctxsw=process-tree "
                         "--cudabacktrace=all --osrt-threshold=1000 --capture-range=cudaProfilerApi "
                         "--capture-range-end=stop -o /logs/run1/maniskill_ppo_mlp/profiling/"
                         "rlinf_profile_ActorGroup_0_%p /opt/conda/bin/python"));
        const QJsonArray argv = actor["argv"].toArray();
        QCOMPARE(argv.last().toString(), QString("/opt/conda/bin/python"));
        QCOMPARE(actor["outputs"].toArray()[0].toString(),
                 QString("/logs/run1/maniskill_ppo_mlp/profiling/rlinf_profile_ActorGroup_0_<PID>.nsys-rep"));
        QVERIFY(actor["env"].isObject());
        QCOMPARE(doc["not_wrapped"].toArray().size(), 3); // the Env, Rollout and Actor channels
        QVERIFY(doc["notes"].isArray());
    }

    void planTextVerl()
    {
        const Run r =
            cli(QStringList{"plan", "--nodes", "2"} + verl({"global_profiler.tool=nsys", "global_profiler.steps=[1]",
                                                            "actor_rollout_ref.actor.profiler.enable=True"}));
        QVERIFY2(r.code == 0, r.err.constData());
        const QString text = QString::fromUtf8(r.out);
        QVERIFY(text.contains("framework: verl"));
        QVERIFY(text.contains("global_pool:15 (node 1)"));
        QVERIFY(text.contains("TaskRunner (any node)"));
        QVERIFY(text.contains("--capture-range-end=repeat-shutdown:6"));
    }

    // The verl release: detected from the tree with its evidence (text and JSON), overridden by
    // --verl-version, explained by --explain-version; a bad name is a usage error.
    void verlVersionDetectedAndOverridden_data()
    {
        QTest::addColumn<QString>("dir");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("source");
        QTest::newRow("0.5-0.7.0 tree") << kVerl << QStringList{} << "0.5-0.7.0"
                                        << "detected";
        QTest::newRow("0.9 tree") << kVerl09 << QStringList{} << "0.9"
                                  << "detected";
        QTest::newRow("main tree") << kVerlMain << QStringList{} << "main"
                                   << "detected";
        QTest::newRow("0.9 tree read as main") << kVerl09 << QStringList{"--verl-version", "main"} << "main"
                                               << "override";
    }
    void verlVersionDetectedAndOverridden()
    {
        QFETCH(QString, dir);
        QFETCH(QStringList, extra);
        QFETCH(QString, version);
        QFETCH(QString, source);
        const QStringList base = QStringList{"--config-dir", dir, "--config-name", "ppo_trainer"} + extra;
        Run r = cli(QStringList{"validate", "--format", "json"} + base);
        QVERIFY2(r.code == 0 || r.code == 1, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value("verl_version").toString(), version);
        QCOMPARE(o.value("verl_version_source").toString(), source);
        if (source == "detected") // the keys that decided it
            QVERIFY(!o.value("verl_version_evidence").toArray().isEmpty());

        r = cli(QStringList{"validate"} + base);
        const QString line = "verl version: " + version + (source == "override" ? " (--verl-version)" : " (detected: ");
        QVERIFY2(QString::fromUtf8(r.out).contains(line), r.out.constData());

        r = cli(QStringList{"plan", "--format", "json"} + base);
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value("verl_version").toString(), version);

        r = cli(QStringList{"validate", "--explain-version"} + base);
        QVERIFY2(r.code == 0, r.err.constData());
        const QString explained = QString::fromUtf8(r.out);
        QVERIFY2(explained.startsWith("verl version: " + version), r.out.constData());
        // What that release accepts: precision_debugger from 0.8, reward_model.profiler until 0.7.0.
        const QString tools = explained.section("\n  tools: ", 1).section('\n', 0, 0);
        QCOMPARE(tools.contains("precision_debugger"), version == "0.9" || version == "main");
        QVERIFY(explained.contains(version == "0.5-0.7.0" ? "reward_model.profiler: yes"
                                                          : "reward_model.profiler: no (removed in 0.7.1)"));
    }

    void verlVersionUsageErrors()
    {
        Run r = cli(QStringList{"validate", "--verl-version", "0.6.3", "--config-dir", kVerl09, "--config-name",
                                "ppo_trainer"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--verl-version must be one of"), r.err.constData());
        r = cli(QStringList{"validate", "--explain-version"} + rlinf({}));
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("--explain-version applies to verl configs"), r.err.constData());
    }

    void exportFormats()
    {
        const QStringList base = verl({"global_profiler.tool=nsys", "trainer.project_name=my run"});
        Run r = cli(QStringList{"export", "--as", "overrides"} + base);
        QCOMPARE(r.code, 0);
        QCOMPARE(QString::fromUtf8(r.out), QString("global_profiler.tool=nsys\n'trainer.project_name=my run'\n"));
        r = cli(QStringList{"export", "--as", "ray-job"} + base);
        QCOMPARE(r.code, 0);
        QCOMPARE(QString::fromUtf8(r.out),
                 QString("ray job submit --runtime-env-json '{\"working_dir\":\".\"}' -- python3 -m "
                         "verl.trainer.main_ppo global_profiler.tool=nsys 'trainer.project_name=my run'\n"));
        // export --as yaml prints what compose prints.
        const Run composed = cli(QStringList{"compose"} + base);
        r = cli(QStringList{"export", "--as", "yaml"} + base);
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, composed.out);
        QCOMPARE(cli(QStringList{"export", "--as", "csv"} + base).code, 2);
        QCOMPARE(cli(QStringList{"export", "--as", "migration"} + base).code, 1); // not the old schema
    }

    void exportToFile()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("minimal.yaml");
        const Run r =
            cli(QStringList{"export", "--as", "yaml-minimal", "-o", file} + rlinf({"+cluster.profiling.steps=[3]"}));
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.isEmpty());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("defaults:\n  - maniskill_ppo_mlp\n  - _self_\n"));
        QVERIFY(text.contains("cluster:\n  profiling:\n    steps:\n    - 3\n"));
    }

    // RLinf's Format (2) placement, {node_group, placement}: the case on RLinf main's
    // embodiment example. The group's workers are placed (one per resource rank of the node group)
    // and wrapped like the string form's, and no worker_groups entry is called unknown.
    void rlinfDictPlacement()
    {
        const QString dir = kConfigs + "/launch-scripts/rlinf-main-a3816b59/examples/embodiment";
        auto actorWorkers = [&](const QString &placement, QByteArray *err) {
            const QStringList args{"plan",
                                   "--format",
                                   "json",
                                   "--config-dir",
                                   dir + "/config",
                                   "--config-name",
                                   "maniskill_ppo_openvlaoft",
                                   "+profile@cluster.profiling=default",
                                   "+cluster.node_groups=[{label: gpu, node_ranks: 0}]",
                                   "cluster.component_placement.actor=" + placement};
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert("EMBODIED_PATH", dir);
            const ps::test::CliRun r = ps::test::runCli(args, env);
            *err = r.err.toUtf8();
            QStringList workers;
            for (const QJsonValue &w : QJsonDocument::fromJson(r.out.toUtf8()).object().value("workers").toArray())
                if (w.toObject().value("group").toString() == "ActorGroup")
                    workers << QString("%1@%2")
                                   .arg(w.toObject().value("rank").toInt())
                                   .arg(w.toObject().value("node").toInt());
            return workers;
        };
        QByteArray err;
        const QStringList asString = actorWorkers("0-7", &err);
        QCOMPARE(asString.size(), 8);
        QCOMPARE(actorWorkers("{node_group: gpu, placement: 0-7}", &err), asString);
        QVERIFY2(!err.contains("unknown-worker-group"), err.constData());
        // The exact override: `placement: 0` is one process on the group's GPU 0.
        QCOMPARE(actorWorkers("{node_group: gpu, placement: 0}", &err), QStringList{"0@0"});
        QVERIFY2(!err.contains("unknown-worker-group"), err.constData());
        // A label no node group has is RLinf's error, located at the placement.
        actorWorkers("{node_group: cpu, placement: 0}", &err);
        QVERIFY2(err.contains("rlinf.placement-invalid") && err.contains("Node group not found with label \"cpu\""),
                 err.constData());
    }

    // The 27 RLinf main embodiment configs with Format (2) placements (realworld_*, dosw1_*,
    // isaaclab_*): with the default profile every placed group of its worker_groups is wrapped and
    // none is called unknown (a group the config does not place still is, rightly).
    void rlinfDictPlacementExamples_data()
    {
        QTest::addColumn<QString>("name");
        const QDir dir(kConfigs + "/launch-scripts/rlinf-main-a3816b59/examples/embodiment/config");
        int n = 0;
        for (const QString &f : dir.entryList({"*.yaml"}, QDir::Files, QDir::Name)) {
            QFile file(dir.filePath(f));
            if (file.open(QIODevice::ReadOnly) && file.readAll().contains("node_group:")) {
                QTest::newRow(qPrintable(f)) << f.chopped(5);
                ++n;
            }
        }
        QCOMPARE(n, 27);
    }

    void rlinfDictPlacementExamples()
    {
        QFETCH(QString, name);
        const QString dir = kConfigs + "/launch-scripts/rlinf-main-a3816b59/examples/embodiment";
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("EMBODIED_PATH", dir);
        const QStringList args{"--config-dir", dir + "/config", "--config-name", name,
                               "+profile@cluster.profiling=default"};
        const ps::test::CliRun plan = ps::test::runCli(QStringList{"plan", "--format", "json"} + args, env);
        const ps::test::CliRun composed =
            ps::test::runCli(QStringList{"compose", "--resolve", "--format", "json"} + args, env);
        QVERIFY2(plan.exitCode == 0 || plan.exitCode == 1, qPrintable(plan.err));
        QVERIFY2(!plan.err.contains("placement-invalid"), qPrintable(plan.err));
        const QJsonObject config = QJsonDocument::fromJson(composed.out.toUtf8()).object();
        const QJsonObject placement = config["cluster"].toObject()["component_placement"].toObject();
        QSet<QString> wrappedGroups;
        for (const QJsonValue &w : QJsonDocument::fromJson(plan.out.toUtf8()).object()["workers"].toArray())
            wrappedGroups.insert(w.toObject()["group"].toString());
        int placed = 0;
        for (const QString &key : placement.keys()) {
            for (QString component : key.split(',')) {
                component = component.trimmed();
                QString group = config[component].toObject()["group_name"].toString();
                if (group.isEmpty())
                    group = component.left(1).toUpper() + component.mid(1) + "Group";
                if (group != "ActorGroup" && group != "RolloutGroup" && group != "EnvGroup")
                    continue; // not in the default profile's worker_groups
                ++placed;
                // Placed, so never "unknown", and wrapped like any other placement form.
                QVERIFY2(!plan.err.contains("worker_groups entry '" + group + "' names no worker group"),
                         qPrintable(plan.err));
                QVERIFY2(wrappedGroups.contains(group), qPrintable(group + " has no wrapped worker"));
            }
        }
        QVERIFY(placed > 0);
    }

    // validate/plan --format json: a composition that fails still gives a JSON document on stdout.
    void composeErrorAsJson()
    {
        for (const char *command : {"validate", "plan"}) {
            Run r = cli(QStringList{command, "--format", "json", "--config-dir", kVerl, "--config-name", "ppo_trainer",
                                    "actor@actor_rollout_ref.actor=nosuch"});
            QCOMPARE(r.code, 1);
            const QJsonObject o = QJsonDocument::fromJson(r.out).object();
            QVERIFY2(!o.isEmpty(), r.out.constData());
            QVERIFY(o.value("framework").isNull());
            const QJsonObject e = o.value("error").toObject();
            QVERIFY2(e.value("message").toString().contains("Could not"), r.out.constData());
            QVERIFY2(r.err.contains("error: "), r.err.constData()); // and the located error on stderr
        }
    }

    // #27: one out-of-range rank range gave 94 diagnostics lines, 92 of them one per rank. The
    // text of validate and plan folds them into one line listing the ranks; JSON keeps each.
    void perRankDiagnosticsFold()
    {
        QStringList ranks;
        for (int r = 0; r < 100; ++r)
            ranks << QString::number(r);
        const QStringList args = {"--config-dir",
                                  kVerlMain,
                                  "--config-name",
                                  "ppo_trainer",
                                  "global_profiler.tool=nsys",
                                  "global_profiler.steps=[1]",
                                  "actor_rollout_ref.actor.profiler.enable=True",
                                  "actor_rollout_ref.actor.profiler.ranks=[" + ranks.join(',') + "]"};
        const QString rule = "[verl.rollout-rank-out-of-range]";
        Run r = cli(QStringList{"validate", "--format", "json"} + args);
        const QJsonArray all = QJsonDocument::fromJson(r.out).object().value("diagnostics").toArray();
        int perRank = 0;
        for (const QJsonValue &d : all)
            perRank += d.toObject().value("rule").toString() == "verl.rollout-rank-out-of-range";
        QCOMPARE(perRank, 92); // ranks 8..99 of the run's 8 GPUs, each documented
        int warnings = 0;
        for (const QJsonValue &d : all)
            warnings += d.toObject().value("severity").toString() == "warning";
        for (const char *command : {"validate", "plan"}) {
            r = cli(QStringList{command} + args);
            const QStringList lines = QString::fromUtf8(r.err).split('\n', Qt::SkipEmptyParts);
            const QStringList folded = lines.filter(rule);
            QCOMPARE(folded.size(), 1);
            QVERIFY2(folded[0].contains("rank 8-99 ") && folded[0].contains("(92 times)"), qPrintable(folded[0]));
            QVERIFY2(lines.size() < 10, r.err.constData());
        }
        // The summary still counts every diagnostic.
        r = cli(QStringList{"validate"} + args);
        QVERIFY2(r.out.contains(QString(" %1 warning(s)").arg(warnings).toUtf8()), r.out.constData());
    }

    // The note about a relative save_path is only given for a relative one.
    void verlSavePathNote()
    {
        const QStringList base{"global_profiler.tool=torch", "global_profiler.steps=[1]"};
        Run r = cli(QStringList{"plan"} + verl(base));
        QVERIFY2(r.out.contains("save_path is relative"), r.out.constData());
        r = cli(QStringList{"plan"} + verl(base + QStringList{"global_profiler.save_path=/data/profiles"}));
        QVERIFY2(!r.out.contains("save_path is relative"), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestProfilingCli)
#include "tst_profilingcli.moc"
