// profstudio-cli compose and explain (../shared/spec/cli.md): every expected case through the
// real executable (stdout byte for byte, exit statuses, located errors on stderr), --resolve
// reports, --format json, explain, and usage errors.
#include "expectedcase.h"

#include "app/cli/composeargs.h"
#include "tests/support/clirun.h"
#include <QJsonDocument>
#include <QJsonObject>

#include <QElapsedTimer>
#include <QProcess>
#include <QtTest>

#include <sstream>

namespace {

struct Run
{
    int code;
    QByteArray out;
    QString err;
};

Run runCli(const QStringList &args, const QMap<QString, QString> &env = {})
{
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.remove("HYDRA_CORPUS_UNSET");
    for (auto it = env.begin(); it != env.end(); ++it)
        e.insert(it.key(), it.value());
    const ps::test::CliRun r = ps::test::runCli(args, e);
    return {r.exitCode, r.out.toUtf8(), r.err};
}

QStringList composeArgs(const ExpectedCase &c, bool resolve)
{
    QStringList a{"compose", "--config-dir", c.configDir, "--config-name", c.configName};
    if (resolve)
        a << "--resolve";
    a << c.overrides;
    return a;
}

} // namespace

class TestConfigCli : public QObject
{
    Q_OBJECT
private slots:
    void everyCase_data()
    {
        QTest::addColumn<int>("index");
        const auto cases = loadAllExpectedCases();
        QVERIFY(cases.size() >= 70);
        for (int i = 0; i < cases.size(); ++i)
            QTest::newRow(qPrintable(cases[i].name)) << i;
    }

    void everyCase()
    {
        QFETCH(int, index);
        const ExpectedCase c = loadAllExpectedCases().at(index);
        if (c.expectError) {
            Run r = runCli(composeArgs(c, c.errorWithResolve), c.env);
            if (c.errorWithResolve) {
                QVERIFY2(!r.err.isEmpty(), "unresolvable values are reported");
                return;
            }
            QCOMPARE(r.code, 1);
            QVERIFY(r.out.isEmpty());
            // Hydra's warnings before the error ("provider=..., path=... is not available.") are ours too.
            QRegularExpression hydraWarning("UserWarning: (.*)\n");
            for (auto it = hydraWarning.globalMatch(c.expectedError); it.hasNext();)
                QVERIFY2(r.err.contains("warning: " + it.next().captured(1) + "\n"), qPrintable(r.err));
            QStringList errorLines;
            for (const QString &l : r.err.split('\n'))
                if (!l.startsWith("warning: "))
                    errorLines << l;
            const QString error = errorLines.join('\n');
            QVERIFY2(QRegularExpression("^(\\S+:\\d+:\\d+: )?error: ").match(error).hasMatch(), qPrintable(r.err));
            // With Hydra's search-path listing, a diff of both outputs shows only the prefixes.
            if (c.expectedError.contains("Config search path:"))
                QCOMPARE(QString(error).remove(QRegularExpression("^(\\S+:\\d+:\\d+: )?error: ")).trimmed(),
                         hydraMessage(c.expectedError));
            return;
        }
        if (c.hasYaml) {
            Run r = runCli(composeArgs(c, false), c.env);
            QCOMPARE(r.code, 0);
            QCOMPARE(QString::fromUtf8(r.out), c.expectedYaml);
        }
        if (c.hasResolved) {
            Run r = runCli(composeArgs(c, true), c.env);
            QCOMPARE(r.code, 0);
            QCOMPARE(QString::fromUtf8(r.out), c.expectedResolved);
        }
    }

    // A "billion laughs" YAML stops the process at once with a located error (it used to run for
    // over 30 s and grow to 5.9 GB).
    void billionLaughsFailsFast()
    {
        const QString dir = PS_SOURCE_DIR "/tests/config/data/hostile";
        QElapsedTimer timer;
        timer.start();
        Run r = runCli({"compose", "--config-dir", dir, "--config-name", "billion-laughs", "--resolve"});
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed()) + " ms")); // sanitizer build
        QCOMPARE(r.code, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(QRegularExpression("^" + QRegularExpression::escape(dir) +
                                    "/billion-laughs\\.yaml:8:\\d+: error: YAML aliases expand to more than 100000 "
                                    "values")
                     .match(r.err)
                     .hasMatch(),
                 qPrintable(r.err));
    }

    // pkg:// search paths: where the package was found (compose --verbose, explain), and Hydra's
    // warning for a namespace package (no __init__.py), which it still reads.
    void pkgSearchPath()
    {
        const QString cases = oracleCasesRoot();
        const QMap<QString, QString> env{{"PYTHONPATH", cases + "/pkgpath-01-pythonpath/py"}};
        Run r = runCli(
            {"compose", "--verbose", "--config-dir", cases + "/pkgpath-01-pythonpath/conf", "--config-name", "cfg"},
            env);
        QCOMPARE(r.code, 0);
        const QString found = "pkg://mypkg.configs is " + cases + "/pkgpath-01-pythonpath/py/mypkg/configs (found in " +
                              "PYTHONPATH " + cases + "/pkgpath-01-pythonpath/py)";
        QVERIFY2(r.err.contains("\tprovider=hydra.searchpath in main, path=pkg://mypkg.configs\n"), qPrintable(r.err));
        QVERIFY2(r.err.contains(found), qPrintable(r.err));
        r = runCli(
            {"explain", "--config-dir", cases + "/pkgpath-01-pythonpath/conf", "--config-name", "cfg", "db.port"}, env);
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("mypkg/configs/db/pg.yaml:1:"), r.out.constData());
        QVERIFY2(r.out.contains("search path: " + found.toUtf8()), r.out.constData());
        r = runCli({"compose", "--config-dir", cases + "/pkgpath-03-namespace/conf", "--config-name", "cfg"},
                   {{"PYTHONPATH", cases + "/pkgpath-03-namespace/py"}});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("warning: provider=hydra.searchpath in main, path=nsonly.configs is not available.\n"),
                 qPrintable(r.err));
        // A source checkout: the package beside the primary config dir's ancestors, no PYTHONPATH.
        const QString verl = configsRoot() + "/launch-scripts/verl-main-1dda039b/verl/experimental/fully_async_policy";
        r = runCli(
            {"compose", "--verbose", "--config-dir", verl + "/config", "--config-name", "fully_async_ppo_trainer"});
        QVERIFY2(r.err.contains("provider=hydra.searchpath in main, path=pkg://verl.trainer.config"),
                 qPrintable(r.err));
    }

    // A defaults entry above the config dir (../grp/opt@pkg): explain names the file it loaded
    // and the entry that brought it in, as for any other entry.
    void explainEntryAboveConfigDir()
    {
        const QString conf = oracleCasesRoot() + "/updots-01-with-package/conf";
        Run r = runCli({"explain", "--config-dir", conf + "/sub", "--config-name", "p", "pkg.k"});
        QCOMPARE(r.code, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(conf + "/sub/../grp/opt.yaml:1:4"), qPrintable(out));
        QVERIFY2(out.contains("config '../grp/opt' at 'pkg', from defaults entry '../grp/opt@pkg' at " + conf +
                              "/sub/p.yaml:1:"),
                 qPrintable(out));
    }

    // A key an override typed ({1: a} has the int key 1) is explained under its text, x.1, with
    // the override that set it; a later override merging into it by value (1.0) wins.
    void explainTypedKey()
    {
        const QString conf = oracleCasesRoot() + "/keytype-01-each-type/conf";
        Run r = runCli({"explain", "--config-dir", conf, "--config-name", "cfg", "x.1", "+x={1: a}", "++x={1.0: b}"});
        QCOMPARE(r.code, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.startsWith("x.1: b\n"), qPrintable(out));
        QVERIFY2(out.contains("1. override '+x={1: a}' (command line)"), qPrintable(out));
        QVERIFY2(out.contains("2. override '++x={1.0: b}' (command line)  <- wins"), qPrintable(out));
    }

    // explain names the option an interpolated defaults entry resolved to.
    void explainInterpolatedEntry()
    {
        const QString dir = configsRoot() + "/verl-versions/v0.9.0/verl/trainer/config";
        Run r = runCli({"explain", "--config-dir", dir, "--config-name", "ppo_trainer", "critic.strategy",
                        "model_engine=megatron"});
        QCOMPARE(r.code, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains("config 'critic/megatron_critic' at 'critic', from defaults entry 'critic@critic: "
                              "${model_engine}_critic' at " +
                              dir + "/ppo_trainer.yaml:30:5 (${model_engine}_critic resolved to 'megatron_critic')"),
                 qPrintable(out));
    }

    // hydra-075: values left as written are reported on stderr with their key and file:line.
    void resolveReportsUnresolvable()
    {
        const QString dir = configsRoot() + "/expected/hydra-075-resolve-missing/conf";
        Run r = runCli({"compose", "--config-dir", dir, "--config-name", "config", "--resolve"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains(dir + "/config.yaml:3:7: warning: cannot resolve 'miss': ${a.nope}"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(dir + "/config.yaml:5:10: warning: cannot resolve 'to_mand'"), qPrintable(r.err));
    }

    void missingSelfWarnsOnStderr()
    {
        const QString dir = configsRoot() + "/expected/hydra-007-self-absent-primary/conf";
        Run r = runCli({"compose", "--config-dir", dir, "--config-name", "config"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.err.contains("warning: In 'config': Defaults list is missing `_self_`"));
    }

    // composeOrReport prints each warning and still passes it to the caller's onWarning.
    void composeOrReportKeepsCallersOnWarning()
    {
        ps::core::config::ComposeOptions options;
        options.configDirs = {(configsRoot() + "/expected/hydra-007-self-absent-primary/conf").toStdString()};
        options.configName = "config";
        std::vector<std::string> heard;
        options.onWarning = [&heard](const std::string &w) { heard.push_back(w); };
        std::ostringstream err;
        QVERIFY(ps::cli::composeOrReport(options, err));
        QCOMPARE(heard.size(), size_t(1));
        QVERIFY2(QString::fromStdString(heard[0]).startsWith("In 'config': Defaults list is missing `_self_`"),
                 heard[0].c_str());
        QVERIFY2(err.str() == "warning: " + heard[0] + "\n", err.str().c_str());
    }

    void json()
    {
        const QString dir = configsRoot() + "/verl/verl/trainer/config";
        Run r = runCli({"compose", "--config-dir", dir, "--config-name", "ppo_trainer", "--format", "json",
                        "global_profiler.steps=[1,2]"});
        QCOMPARE(r.code, 0);
        QJsonParseError pe;
        QJsonDocument doc = QJsonDocument::fromJson(r.out, &pe);
        QCOMPARE(pe.error, QJsonParseError::NoError);
        QJsonObject gp = doc.object()["global_profiler"].toObject();
        QCOMPARE(gp["steps"].toArray().size(), 2);
        QCOMPARE(gp["tool"].isNull(), true);
    }

    void explain()
    {
        const QString dir = configsRoot() + "/verl/verl/trainer/config";
        Run r = runCli({"explain", "--config-dir", dir, "--config-name", "ppo_trainer",
                        "actor_rollout_ref.actor.optim.lr", "actor_rollout_ref.actor.optim.lr=2e-6"});
        QCOMPARE(r.code, 0);
        const QString out = QString::fromUtf8(r.out);
        QStringList lines = out.split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() >= 3, qPrintable(out));
        QCOMPARE(lines[0], QString("actor_rollout_ref.actor.optim.lr: 2.0e-06"));
        // optim/fsdp.yaml brought in by actor/dp_actor.yaml's `../optim@optim: fsdp`.
        QVERIFY2(lines[1].contains(dir + "/optim/fsdp.yaml:") && lines[1].contains("'../optim@optim: fsdp'") &&
                     lines[1].contains(dir + "/actor/dp_actor.yaml:"),
                 qPrintable(lines[1]));
        QVERIFY2(lines.last().contains("override 'actor_rollout_ref.actor.optim.lr=2e-6'") &&
                     lines.last().endsWith("<- wins"),
                 qPrintable(lines.last()));

        r = runCli({"explain", "--config-dir", dir, "--config-name", "ppo_trainer", "no.such.key"});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("error: key 'no.such.key' is not in the composed config"));
    }

    void usage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::newRow("compose --help") << QStringList{"compose", "--help"} << 0;
        QTest::newRow("explain --help") << QStringList{"explain", "--help"} << 0;
        QTest::newRow("no --config-name") << QStringList{"compose", "a=1"} << 2;
        QTest::newRow("bad --format") << QStringList{"compose", "--config-name", "x", "--format", "xml"} << 2;
        QTest::newRow("unknown option") << QStringList{"compose", "--nope"} << 2;
        QTest::newRow("explain without key") << QStringList{"explain", "--config-name", "x"} << 2;
        QTest::newRow("missing config dir")
            << QStringList{"compose", "--config-dir", "/nonexistent", "--config-name", "x"} << 1;
        QTest::newRow("preset-only search path") << QStringList{"compose", "--config-name", "profile/default"} << 0;
    }

    void usage()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        Run r = runCli(args);
        QCOMPARE(r.code, code);
        if (code == 0 && args.contains("--help"))
            QVERIFY(r.out.contains("--config-dir"));
    }
};

QTEST_GUILESS_MAIN(TestConfigCli)
#include "tst_configcli.moc"
