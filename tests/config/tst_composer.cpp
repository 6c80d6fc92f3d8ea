// Composition cases of our own, one Hydra 1.3 behaviour each, on small trees written to a
// temporary config root. Expected outputs follow Hydra's documented semantics (defaults lists,
// packages, overrides) and OmegaConf's merge; the cases that real Hydra produced are in
// tst_expectedcases. Also: provenance chains, the search path, built-in presets, errors.
#include "core/config/builtinpresets.h"
#include "core/config/composer.h"
#include "core/config/configerror.h"
#include "core/config/pythonpackage.h"
#include "core/config/yamlemitter.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps::core::config;

namespace {

using Files = QList<QPair<QString, QString>>;

class Tree
{
public:
    explicit Tree(const Files &files)
    {
        for (const auto &[path, content] : files) {
            QString full = m_dir.filePath(path);
            QDir().mkpath(QFileInfo(full).path());
            QFile f(full);
            f.open(QIODevice::WriteOnly);
            f.write(content.toUtf8());
        }
    }
    std::string root() const { return m_dir.path().toStdString(); }
    QString file(const QString &rel) const { return m_dir.filePath(rel); }

    ComposeResult compose(
        const QStringList &overrides = {}, const QString &name = "config",
        EnvLookup env = [](const std::string &) { return std::nullopt; }) const
    {
        ComposeOptions o;
        o.configDirs = {root()};
        o.configName = name.toStdString();
        for (const QString &ov : overrides)
            o.overrides.push_back(ov.toStdString());
        o.env = std::move(env);
        return ps::core::config::compose(o);
    }

    QString yaml(const QStringList &overrides = {}, const QString &name = "config") const
    {
        return QString::fromStdString(toYaml(compose(overrides, name).config));
    }

    // The error message (and format()) of a composition that must fail.
    QString error(
        const QStringList &overrides = {}, const QString &name = "config",
        EnvLookup env = [](const std::string &) { return std::nullopt; }) const
    {
        try {
            compose(overrides, name, std::move(env));
        } catch (const ConfigError &e) {
            return QString::fromStdString(e.format());
        }
        return "(no error)";
    }

private:
    QTemporaryDir m_dir;
};

const Files kDb = {
    {"db/mysql.yaml", "driver: mysql\nport: 3306\n"},
    {"db/pg.yaml", "driver: pg\nport: 5432\n"},
};

Files with(Files base, const Files &more)
{
    base.append(more);
    return base;
}

} // namespace

class TestComposer : public QObject
{
    Q_OBJECT
private slots:
    void defaultsForms_data()
    {
        QTest::addColumn<Files>("files");
        QTest::addColumn<QStringList>("overrides");
        QTest::addColumn<QString>("expected");

        QTest::newRow("group: [a, b] merges both options in order")
            << with(kDb, {{"config.yaml", "defaults:\n  - db: [mysql, pg]\n  - _self_\n"}}) << QStringList{}
            << "db:\n  driver: pg\n  port: 5432\n";
        QTest::newRow("_self_ in the middle: later entries win")
            << with(kDb, {{"config.yaml", "defaults:\n  - db: mysql\n  - _self_\n  - extra: x\ndb:\n  port: 1\n"
                                          "name: a\n"},
                          {"extra/x.yaml", "# @package _global_\nname: b\ndb:\n  port: 2\n"}})
            << QStringList{} << "db:\n  driver: mysql\n  port: 2\nname: b\n";
        QTest::newRow("mandatory option given on the command line")
            << with(kDb, {{"config.yaml", "defaults:\n  - db: ???\n"}}) << QStringList{"db=pg"}
            << "db:\n  driver: pg\n  port: 5432\n";
        QTest::newRow("~group=option deletes a matching entry")
            << with(kDb, {{"config.yaml", "defaults:\n  - db: mysql\n  - _self_\nx: 1\n"}}) << QStringList{"~db=mysql"}
            << "x: 1\n";
        QTest::newRow("group@pkg=option switches the entry at that package")
            << with(kDb, {{"config.yaml", "defaults:\n  - db@backup: mysql\n  - _self_\n"}})
            << QStringList{"db@backup=pg"} << "backup:\n  driver: pg\n  port: 5432\n";
        QTest::newRow("+group@pkg=option appends at a package")
            << with(kDb, {{"config.yaml", "x: 1\n"}}) << QStringList{"+db@a.b=mysql"}
            << "x: 1\na:\n  b:\n    driver: mysql\n    port: 3306\n";
        QTest::newRow("# @package _group_ is a plain key from version base 1.2 on")
            << Files{{"config.yaml", "defaults:\n  - srv/db: one\n"}, {"srv/db/one.yaml", "# @package _group_\nk: 1\n"}}
            << QStringList{} << "_group_:\n  k: 1\n";
        QTest::newRow("# @package _global_ in a nested config")
            << Files{{"config.yaml", "defaults:\n  - server: web\n  - _self_\n"},
                     {"server/web.yaml", "defaults:\n  - log: file\n  - _self_\nport: 80\n"},
                     {"server/log/file.yaml", "# @package _global_\nlogfile: /var/log/x\n"}}
            << QStringList{} << "logfile: /var/log/x\nserver:\n  port: 80\n";
        QTest::newRow("optional group switched on the command line")
            << with(kDb, {{"config.yaml", "defaults:\n  - optional db: nosuch\n  - _self_\nx: 1\n"}})
            << QStringList{"db=pg"} << "db:\n  driver: pg\n  port: 5432\nx: 1\n";
        QTest::newRow("override in a nested config")
            << Files{{"config.yaml", "defaults:\n  - server: web\n"},
                     {"server/web.yaml", "defaults:\n  - db: a\n  - override db: b\n  - _self_\nport: 80\n"},
                     {"server/db/a.yaml", "name: a\n"},
                     {"server/db/b.yaml", "name: b\n"}}
            << QStringList{} << "server:\n  db:\n    name: b\n  port: 80\n";
        QTest::newRow("a defaults list of only overrides still merges the config itself")
            << Files{{"config.yaml", "defaults:\n  - server: web\n  - tune\n  - _self_\n"},
                     {"tune.yaml", "defaults:\n  - override server/db: b\nfast: true\n"},
                     {"server/web.yaml", "defaults:\n  - db: a\n"},
                     {"server/db/a.yaml", "name: a\n"},
                     {"server/db/b.yaml", "name: b\n"}}
            << QStringList{} << "server:\n  db:\n    name: b\nfast: true\n";
        QTest::newRow("the outer override wins over the nested one")
            << Files{{"config.yaml", "defaults:\n  - server: web\n  - override server/db: c\n"},
                     {"server/web.yaml", "defaults:\n  - db: a\n  - override db: b\n"},
                     {"server/db/a.yaml", "name: a\n"},
                     {"server/db/b.yaml", "name: b\n"},
                     {"server/db/c.yaml", "name: c\n"}}
            << QStringList{} << "server:\n  db:\n    name: c\n";
        QTest::newRow("hydra node, hydra groups and hydra overrides are left out")
            << Files{{"config.yaml", "defaults:\n  - override hydra/job_logging: stdout\n  - _self_\n"
                                     "hydra:\n  run:\n    dir: /x\nx: 1\n"}}
            << QStringList{"hydra.run.dir=/y", "hydra/launcher=basic"} << "x: 1\n";
        QTest::newRow("+key={dict} merges into an existing dict")
            << Files{{"config.yaml", "a:\n  b: 1\n"}} << QStringList{"+a={c: 2}"} << "a:\n  b: 1\n  c: 2\n";
        QTest::newRow("++a.b.c replaces a scalar on the way with a dict")
            << Files{{"config.yaml", "a:\n  b: 1\n"}} << QStringList{"++a.b.c=2"} << "a:\n  b:\n    c: 2\n";
        QTest::newRow("+key=value on a null value is allowed")
            << Files{{"config.yaml", "a: null\n"}} << QStringList{"+a=1"} << "a: 1\n";
        QTest::newRow("list element") << Files{{"config.yaml", "l: [1, {k: v}]\n"}} << QStringList{"l.1.k=w"}
                                      << "l:\n- 1\n- k: w\n";
        QTest::newRow("same config twice at two packages")
            << Files{{"config.yaml", "defaults:\n  - env/x@env.train\n  - env/x@env.eval\n  - _self_\n"
                                     "env:\n  eval:\n    num: 2\n"},
                     {"env/x.yaml", "num: 1\nname: x\n"}}
            << QStringList{} << "env:\n  train:\n    num: 1\n    name: x\n  eval:\n    num: 2\n    name: x\n";
        QTest::newRow("relative ../group and _here_")
            << Files{{"config.yaml", "defaults:\n  - actor@a.actor: dp\n  - _self_\n"},
                     {"actor/dp.yaml", "defaults:\n  - ../optim@optim: adam\n  - ../tune@_here_: t\n  - _self_\n"
                                       "lr: 1\n"},
                     {"optim/adam.yaml", "beta: 0.9\n"},
                     {"tune/t.yaml", "fast: true\n"}}
            << QStringList{} << "a:\n  actor:\n    optim:\n      beta: 0.9\n    fast: true\n    lr: 1\n";
    }

    void defaultsForms()
    {
        QFETCH(Files, files);
        QFETCH(QStringList, overrides);
        QFETCH(QString, expected);
        Tree t(files);
        try {
            QCOMPARE(t.yaml(overrides), expected);
        } catch (const ConfigError &e) {
            QFAIL(e.what());
        }
    }

    void errors_data()
    {
        QTest::addColumn<Files>("files");
        QTest::addColumn<QStringList>("overrides");
        QTest::addColumn<QString>("contains");
        QTest::addColumn<QString>("location"); // "file:line" relative to the tree, or "" when none

        QTest::newRow("mandatory option missing")
            << with(kDb, {{"config.yaml", "defaults:\n  - db: ???\n"}}) << QStringList{}
            << "You must specify 'db', e.g, db=<OPTION>\nAvailable options:\n\tmysql\n\tpg"
            << "config.yaml:2";
        QTest::newRow("unknown option in a nested config")
            << Files{{"config.yaml", "defaults:\n  - server: web\n"},
                     {"server/web.yaml", "defaults:\n  - db: oracle\n"},
                     {"server/db/a.yaml", "x: 1\n"}}
            << QStringList{}
            << "In 'server/web': Could not find 'server/db/oracle'\n\nAvailable options in 'server/db':\n\ta"
            << "server/web.yaml:2";
        QTest::newRow("group override that matches no entry")
            << with(kDb, {{"config.yaml", "defaults:\n  - db@backup: mysql\n"}}) << QStringList{"db=pg"}
            << "Could not override 'db'.\nDid you mean to override db@backup?\nTo append to your default list use "
               "+db=pg"
            << "";
        QTest::newRow("group delete that matches no entry")
            << with(kDb, {{"config.yaml", "defaults:\n  - db: mysql\n"}}) << QStringList{"~db=pg"}
            << "Could not delete 'db=pg'. No match in the defaults list"
            << "";
        QTest::newRow("new key inside a dict value without +")
            << Files{{"config.yaml", "d:\n  a: 0\n"}} << QStringList{"d={a: 1, z: 2}"}
            << "Could not override 'd'.\nTo append to your config use +d={a: 1, z: 2}"
            << "config.yaml:1";
        QTest::newRow("package on a non-group key")
            << Files{{"config.yaml", "a: 1\n"}} << QStringList{"a@b=1"}
            << "Override a@b=1 looks like a config group override, but config group 'a' does not exist."
            << "";
        QTest::newRow("++group=option (Hydra 1.3.2 has no force-add of groups)")
            << with(kDb, {{"config.yaml", "defaults:\n  - db: mysql\n  - _self_\n"}}) << QStringList{"++db=pg"}
            << "force-add of config groups is not supported: '++db=pg'"
            << "";
        QTest::newRow("delete a missing key") << Files{{"config.yaml", "a: 1\n"}} << QStringList{"~b"}
                                              << "Could not delete from config. 'b' does not exist."
                                              << "";
        QTest::newRow("list index out of range")
            << Files{{"config.yaml", "l: [1]\n"}} << QStringList{"l.3=1"} << "out of range"
            << "";
        QTest::newRow("malformed override")
            << Files{{"config.yaml", "a: 1\n"}} << QStringList{"a=[1"} << "Error parsing override 'a=[1'"
            << "";
        QTest::newRow("defaults is not a list")
            << Files{{"config.yaml", "defaults:\n  db: mysql\n"}} << QStringList{}
            << "Invalid defaults list in 'config', defaults must be a list (got mapping)"
            << "config.yaml:1";
        QTest::newRow("two keys in one entry")
            << Files{{"config.yaml", "defaults:\n  - {a: x, b: y}\n"}} << QStringList{} << "Too many keys"
            << "config.yaml:2";
        QTest::newRow("cycle through a group")
            << Files{{"config.yaml", "defaults:\n  - g: x\n"}, {"g/x.yaml", "defaults:\n  - /config\n"}}
            << QStringList{} << "Defaults cycle: config -> g/x -> config"
            << "g/x.yaml:2";
        QTest::newRow("exponential fan-out without a cycle")
            << Files{{"config.yaml", "defaults:\n  - a\n  - a\n  - a\n  - a\n"},
                     {"a.yaml", "defaults:\n  - b\n  - b\n  - b\n  - b\n"},
                     {"b.yaml", "defaults:\n  - c\n  - c\n  - c\n  - c\n"},
                     {"c.yaml", "defaults:\n  - d\n  - d\n  - d\n  - d\n"},
                     {"d.yaml", "defaults:\n  - e\n  - e\n  - e\n  - e\n"},
                     {"e.yaml", "defaults:\n  - f\n  - f\n  - f\n  - f\n"},
                     {"f.yaml", "defaults:\n  - g\n  - g\n  - g\n  - g\n"},
                     {"g.yaml", "x: 1\n"}}
            << QStringList{} << "The defaults tree has more than 10000 entries"
            << "f.yaml:3";
        QTest::newRow("config entry that does not exist") << Files{{"config.yaml", "defaults:\n  - nothere\n"}}
                                                          << QStringList{} << "In 'config': Could not load 'nothere'."
                                                          << "config.yaml:2";
        QTest::newRow("merging a dict onto a list")
            << Files{{"config.yaml", "defaults:\n  - base\n  - _self_\nx: {a: 1}\n"}, {"base.yaml", "x: [1]\n"}}
            << QStringList{} << "Cannot merge DictConfig with ListConfig"
            << "config.yaml:4";
        QTest::newRow("top level is a list")
            << Files{{"config.yaml", "- a\n- b\n"}} << QStringList{} << "must be a mapping"
            << "config.yaml:1";
    }

    void errors()
    {
        QFETCH(Files, files);
        QFETCH(QStringList, overrides);
        QFETCH(QString, contains);
        QFETCH(QString, location);
        Tree t(files);
        QString err = t.error(overrides);
        QVERIFY2(err.contains(contains), qPrintable(err));
        if (location.isEmpty())
            QVERIFY2(err.startsWith("error: "), qPrintable(err));
        else
            QVERIFY2(err.startsWith(t.file(location.section(':', 0, 0)) + ":" + location.section(':', 1) + ":"),
                     qPrintable(err));
    }

    void missingConfigDir()
    {
        ComposeOptions o;
        o.configDirs = {"/nonexistent/conf"};
        o.configName = "config";
        QVERIFY_THROWS_EXCEPTION(ConfigError, ps::core::config::compose(o));
    }

    void primaryInSubfolder()
    {
        Tree t(with(kDb, {{"exp/big.yaml", "defaults:\n  - /db: pg\n  - _self_\nsize: 9\n"}}));
        QCOMPARE(t.yaml({}, "exp/big"), QString("db:\n  driver: pg\n  port: 5432\nsize: 9\n"));
    }

    void selfWarning()
    {
        Tree t(with(kDb, {{"config.yaml", "defaults:\n  - db: mysql\nx: 1\n"}}));
        ComposeResult r = t.compose();
        QCOMPARE(r.warnings.size(), size_t(1));
        QVERIFY(QString::fromStdString(r.warnings[0]).startsWith("In 'config': Defaults list is missing `_self_`"));
        QCOMPARE(QString::fromStdString(toYaml(r.config)), QString("db:\n  driver: mysql\n  port: 3306\nx: 1\n"));
    }

    void searchPathFromPrimary()
    {
        QTemporaryDir extra;
        QDir().mkpath(extra.filePath("config/db"));
        QFile f(extra.filePath("config/db/sqlite.yaml"));
        f.open(QIODevice::WriteOnly);
        f.write("driver: sqlite\n");
        f.close();
        Tree t(Files{{"config.yaml", "defaults:\n  - db: sqlite\n  - _self_\nhydra:\n  searchpath:\n"
                                     "    - file://${oc.env:PS_EXTRA}/config/\n"}});
        auto env = [&](const std::string &n) -> std::optional<std::string> {
            if (n == "PS_EXTRA")
                return extra.path().toStdString();
            return std::nullopt;
        };
        ComposeResult r = t.compose({}, "config", env);
        QCOMPARE(QString::fromStdString(toYaml(r.config)), QString("db:\n  driver: sqlite\n"));
        QCOMPARE(r.searchPath.size(), size_t(3));
        // Unset: Hydra prints an empty message; we name the variable, the key and the line.
        QString err = t.error({}, "config");
        QVERIFY2(err.startsWith(t.file("config.yaml") + ":6:"), qPrintable(err));
        QVERIFY2(err.contains("hydra.searchpath.0"), qPrintable(err));
        QVERIFY2(err.contains("Environment variable 'PS_EXTRA' not found"), qPrintable(err));
    }

    void builtinPresets()
    {
        QVERIFY(findBuiltinPreset("profile/default.yaml"));
        Tree t(Files{{"config.yaml", "cluster:\n  num_nodes: 1\n"}});
        ComposeResult r = t.compose({"+profile@cluster.profiling=default", "+cluster.profiling.steps=[3]"});
        QCOMPARE(QString::fromStdString(toYaml(r.config)),
                 QString("cluster:\n  num_nodes: 1\n  profiling:\n    backend: nsight\n    enabled: true\n"
                         "    worker_groups:\n    - ActorGroup\n    - RolloutGroup\n    - EnvGroup\n    options:\n"
                         "      t: cuda,cudnn,cublas,nvtx,osrt\n      sample: process-tree\n"
                         "      cpuctxsw: process-tree\n      cudabacktrace: all\n      osrt-threshold: 1000\n"
                         "    flags: []\n    steps:\n    - 3\n"));
        QCOMPARE(QString::fromStdString(r.sources.back().file), QString("<builtin>/profile/default.yaml"));
        // A config root that has the group wins over the preset.
        Tree own(Files{{"config.yaml", "x: 1\n"}, {"profile/default.yaml", "backend: mine\n"}});
        QCOMPARE(QString::fromStdString(toYaml(own.compose({"+profile@p=default"}).config)),
                 QString("x: 1\np:\n  backend: mine\n"));
    }

    void provenanceChain()
    {
        Tree t(with(kDb, {{"config.yaml", "defaults:\n  - db: mysql\n  - _self_\ndb:\n  port: 1\nother: 2\n"}}));
        ComposeResult r = t.compose({"db.port=7", "~other"});
        const auto *chain = r.provenance.find("db.port");
        QVERIFY(chain);
        QCOMPARE(chain->size(), size_t(3));
        const ProvenanceStep &fromGroup = (*chain)[0];
        QCOMPARE(QString::fromStdString(fromGroup.mark.file), t.file("db/mysql.yaml"));
        QCOMPARE(fromGroup.mark.line, 2);
        const ConfigSource &src = r.sources[size_t(fromGroup.source)];
        QCOMPARE(QString::fromStdString(src.configPath), QString("db/mysql"));
        QCOMPARE(QString::fromStdString(src.package), QString("db"));
        QCOMPARE(QString::fromStdString(src.defaultsEntry), QString("db: mysql"));
        QCOMPARE(QString::fromStdString(src.entryMark.file), t.file("config.yaml"));
        QCOMPARE(src.entryMark.line, 2);
        QCOMPARE((*chain)[1].mark.line, 5);
        QCOMPARE(QString::fromStdString((*chain)[1].mark.file), t.file("config.yaml"));
        QCOMPARE(int((*chain)[2].origin), int(ProvenanceStep::Origin::Override));
        QCOMPARE(QString::fromStdString((*chain)[2].overrideText), QString("db.port=7"));
        // driver was set once; the deleted key has no chain; choices are recorded.
        QCOMPARE(r.provenance.find("db.driver")->size(), size_t(1));
        QVERIFY(!r.provenance.find("other"));
        QCOMPARE(r.choices.size(), size_t(1));
        QCOMPARE(QString::fromStdString(r.choices[0].first + "=" + r.choices[0].second), QString("db=mysql"));

        QString text = QString::fromStdString(explainKey(r, "db.port"));
        QStringList lines = text.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0], QString("db.port: 7"));
        QVERIFY2(lines[1].contains(t.file("db/mysql.yaml") + ":2:") &&
                     lines[1].contains("from defaults entry 'db: mysql' at " + t.file("config.yaml") + ":2"),
                 qPrintable(lines[1]));
        QVERIFY2(lines[2].contains(t.file("config.yaml") + ":5:") && lines[2].contains("the primary config"),
                 qPrintable(lines[2]));
        QVERIFY2(lines[3].contains("override 'db.port=7'") && lines[3].endsWith("<- wins"), qPrintable(lines[3]));
        QVERIFY(explainKey(r, "nosuch").empty());
    }

    void provenanceOfListItems()
    {
        Tree t(Files{{"config.yaml", "lst: [1, 2]\n"}});
        ComposeResult r = t.compose({"lst.1=5"});
        QCOMPARE(r.provenance.find("lst[1]")->size(), size_t(2));
        QCOMPARE(r.provenance.find("lst.0")->size(), size_t(1));
        QVERIFY(QString::fromStdString(explainKey(r, "lst[1]")).contains("override 'lst.1=5'"));
    }

    // A key whose dict was replaced keeps its own history but drops the children's.
    void provenanceOfReplacedDict()
    {
        Tree t(Files{{"config.yaml", "defaults:\n  - base\n  - _self_\nx: null\n"}, {"base.yaml", "x:\n  a: 1\n"}});
        ComposeResult r = t.compose();
        QCOMPARE(QString::fromStdString(toYaml(r.config)), QString("x: null\n"));
        QCOMPARE(r.provenance.find("x")->size(), size_t(2));
        QVERIFY(!r.provenance.find("x.a"));
    }

    // The defaults tree data (ConfigSource) and `explain` say which option an interpolated entry
    // resolved to: verl 0.9's `actor@actor_rollout_ref.actor: ${model_engine}_actor`.
    void provenanceOfInterpolatedEntry_data()
    {
        QTest::addColumn<QStringList>("overrides");
        QTest::addColumn<QString>("actorConfig");
        QTest::newRow("default engine") << QStringList{} << "actor/dp_actor";
        QTest::newRow("engine from the command line") << QStringList{"model_engine=megatron"} << "actor/megatron_actor";
    }

    void provenanceOfInterpolatedEntry()
    {
        QFETCH(QStringList, overrides);
        QFETCH(QString, actorConfig);
        ComposeOptions o;
        o.configDirs = {PS_TESTDATA_DIR "/configs/verl-versions/v0.9.0/verl/trainer/config"};
        o.configName = "ppo_trainer";
        for (const QString &ov : overrides)
            o.overrides.push_back(ov.toStdString());
        const ComposeResult r = ps::core::config::compose(o);
        const ConfigSource *actor = nullptr;
        for (const ConfigSource &s : r.sources)
            if (s.configPath == actorConfig.toStdString())
                actor = &s;
        QVERIFY(actor);
        QCOMPARE(QString::fromStdString(actor->interpolatedOption), QString("${model_engine}_actor"));
        QCOMPARE(QString::fromStdString(actor->defaultsEntry),
                 QString("actor@actor_rollout_ref.actor: ${model_engine}_actor"));
        QCOMPARE(actor->entryMark.line, 14);
        for (const ConfigSource &s : r.sources)
            if (s.configPath == "data/legacy_data")
                QVERIFY(s.interpolatedOption.empty());
        const QString option = actorConfig.section('/', 1);
        const QString text = QString::fromStdString(explainKey(r, "actor_rollout_ref.actor.strategy"));
        QVERIFY2(text.contains("config '" + actorConfig +
                               "' at 'actor_rollout_ref.actor', from defaults entry "
                               "'actor@actor_rollout_ref.actor: ${model_engine}_actor' at ") &&
                     text.contains("ppo_trainer.yaml:14:5 (${model_engine}_actor resolved to '" + option + "')"),
                 qPrintable(text));
        bool chosen = false;
        for (const auto &[group, choice] : r.choices)
            chosen |= group == "actor@actor_rollout_ref.actor" && choice == option.toStdString();
        QVERIFY(chosen);
    }

    // A YAML "billion laughs" (10^10 values once its aliases are expanded) fails at the alias that
    // crosses the bound, in well under a second, instead of exhausting memory.
    void billionLaughsFailsFast()
    {
        const QString file = PS_SOURCE_DIR "/tests/config/data/hostile/billion-laughs.yaml";
        ComposeOptions o;
        o.configDirs = {QFileInfo(file).path().toStdString()};
        o.configName = "billion-laughs";
        QElapsedTimer timer;
        timer.start();
        try {
            ps::core::config::compose(o);
            QFAIL("composition should fail");
        } catch (const ConfigError &e) {
            QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed()) + " ms"));
            QCOMPARE(QString::fromStdString(e.where().file), file);
            QCOMPARE(e.where().line, 8); // lol5: the first level past 100000 values
            QVERIFY(e.where().column > 13);
            QVERIFY2(QString::fromStdString(e.format())
                         .contains(":8:" + QString::number(e.where().column) +
                                   ": error: YAML aliases expand to more than 100000 values"),
                     e.what());
        }
    }

    // Within the per-file bound, a config merged at many packages still cannot build an
    // unbounded tree.
    void composedTreeIsBounded()
    {
        QString big = "values: [";
        for (int i = 0; i < 60000; ++i)
            big += (i ? ", " : "") + QString::number(i);
        big += "]\n";
        QString primary = "defaults:\n";
        for (int i = 0; i < 10; ++i)
            primary += QString("  - big@p%1\n").arg(i);
        Tree t({{"config.yaml", primary}, {"big.yaml", big}});
        const QString error = t.error();
        QVERIFY2(error.contains("config.yaml:10:5: error: The composed config would hold more than 500000 values "
                                "(config 'big' merged many times?)"),
                 qPrintable(error));
    }

    // Python's PathFinder: a module or regular package in a later path entry beats namespace
    // portions found before it; only without one is the namespace package used.
    void pythonPackageLaterModuleBeatsNamespacePortion()
    {
        Tree t({{"conf/x.yaml", ""},
                {"a/psns/configs/x.yaml", ""},
                {"b/psns/__init__.py", ""},
                {"b/psns/configs/__init__.py", ""},
                {"c/psmod/configs/x.yaml", ""},
                {"d/psmod.py", ""}});
        const QString root = QString::fromStdString(t.root());
        const auto find = [&](const char *dotted, const QString &pythonPath) {
            const std::string pp = pythonPath.toStdString();
            return findPythonPackage(dotted, t.root() + "/conf", [pp](const std::string &name) {
                return name == "PYTHONPATH" ? std::optional<std::string>(pp) : std::nullopt;
            });
        };
        auto found = find("psns.configs", root + "/a:" + root + "/b");
        QVERIFY(found);
        QCOMPARE(QString::fromStdString(found->dir), root + "/b/psns/configs");
        QVERIFY(found->hasInit);
        QVERIFY(!find("psmod.configs", root + "/c:" + root + "/d")); // psmod is the module d/psmod.py
        found = find("psns.configs", root + "/a");                   // the namespace package alone
        QVERIFY(found);
        QCOMPARE(QString::fromStdString(found->dir), root + "/a/psns/configs");
        QVERIFY(!found->hasInit);
    }
};

QTEST_GUILESS_MAIN(TestComposer)
#include "tst_composer.moc"
