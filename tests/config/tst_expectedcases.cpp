// Every case of ../shared/testdata/configs/expected and expected-verl, and of our own
// oracle-made cases (tests/config/data/hydra-oracle), composed in process: byte-identical to
// Hydra's --cfg job output (and to the resolved output with --resolve), or failing with Hydra's
// message plus a location. And verl's own flattened copies (_generated_*.yaml) of every tree.
#include "expectedcase.h"

#include "core/config/composer.h"
#include "core/config/interpolation.h"
#include "core/config/yamlemitter.h"

#include <QtTest>

using namespace ps::core::config;

namespace {

EnvLookup caseEnvironment(const ExpectedCase &c)
{
    QMap<QString, QString> vars = c.env;
    EnvLookup process = processEnvironment();
    return [vars, process](const std::string &name) -> std::optional<std::string> {
        auto it = vars.find(QString::fromStdString(name));
        if (it != vars.end())
            return it->toStdString();
        if (name == "HYDRA_CORPUS_UNSET")
            return std::nullopt; // the README: the hydra-* cases expect it unset
        return process(name);
    };
}

ComposeOptions optionsFor(const ExpectedCase &c)
{
    ComposeOptions o;
    o.configDirs = {c.configDir.toStdString()};
    o.configName = c.configName.toStdString();
    for (const QString &ov : c.overrides)
        o.overrides.push_back(ov.toStdString());
    o.env = caseEnvironment(c);
    return o;
}

// Where Hydra's YAML errors point: `in "FILE", line N, column M` (the last one is the problem).
bool hydraErrorLocation(const QString &expected, QString &file, int &line)
{
    QRegularExpression re("in \"([^\"]+)\", line (\\d+), column (\\d+)");
    auto it = re.globalMatch(expected);
    bool found = false;
    while (it.hasNext()) {
        auto m = it.next();
        file = m.captured(1);
        line = m.captured(2).toInt();
        found = true;
    }
    return found;
}

} // namespace

class TestExpectedCases : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY2(QDir(configsRoot() + "/expected").exists(), qPrintable(configsRoot()));
        QVERIFY(loadExpectedCases().size() >= 40);
        QVERIFY(loadExpectedCases(configsRoot() + "/expected-verl").size() >= 8);
        QVERIFY(loadExpectedCases(oracleCasesRoot(), oracleCasesRoot()).size() >= 20);
    }

    void everyCase_data()
    {
        QTest::addColumn<int>("index");
        const auto cases = loadAllExpectedCases();
        for (int i = 0; i < cases.size(); ++i)
            QTest::newRow(qPrintable(cases[i].name)) << i;
    }

    void everyCase()
    {
        QFETCH(int, index);
        const ExpectedCase c = loadAllExpectedCases().at(index);
        const ComposeOptions options = optionsFor(c);
        if (c.expectError) {
            try {
                ComposeResult r = ps::core::config::compose(options);
                if (c.errorWithResolve) {
                    std::vector<ConfigError> problems;
                    resolveAll(r.config, &problems, options.env);
                    QVERIFY2(!problems.empty(), "resolution should fail");
                    return;
                }
                QFAIL("composition should fail");
            } catch (const ConfigError &e) {
                const QString ours = QString::fromStdString(e.message());
                const QString formatted = QString::fromStdString(e.format());
                QVERIFY(!ours.isEmpty());
                if (c.name.contains("defaults-cycle")) {
                    // Hydra 1.3.2 recurses until RecursionError; we name the cycle.
                    QVERIFY2(ours.contains("Defaults cycle: a -> b -> a"), qPrintable(ours));
                    QVERIFY2(e.where().isKnown(), "the cycle is located at the entry that closes it");
                    return;
                }
                QString file;
                int line = 0;
                if (hydraErrorLocation(c.expectedError, file, line)) {
                    // YAML errors: PyYAML words them its own way and ProfStudio as libyaml does; the place must agree.
                    QCOMPARE(QString::fromStdString(e.where().file), file);
                    QCOMPARE(e.where().line, line);
                    if (c.expectedError.contains("found duplicate key"))
                        QVERIFY2(ours.contains(c.expectedError.mid(c.expectedError.indexOf("found duplicate key"))
                                                   .section('\n', 0, 0)),
                                 qPrintable(ours));
                    return;
                }
                for (const QString &l : hydraMessageLines(c.expectedError))
                    QVERIFY2(ours.contains(l), qPrintable("missing line: " + l + "\nin: " + formatted));
                // Where Hydra lists its config search path, the whole message is Hydra's, byte for
                // byte: a diff of both tools' output shows only our "FILE:LINE:COL: error: " prefix.
                if (c.expectedError.contains("Config search path:"))
                    QCOMPARE(ours, hydraMessage(c.expectedError));
            }
            return;
        }
        ComposeResult r;
        try {
            r = ps::core::config::compose(options);
        } catch (const ConfigError &e) {
            QFAIL(e.what());
        }
        if (c.hasYaml)
            QCOMPARE(QString::fromStdString(toYaml(r.config)), c.expectedYaml);
        if (c.hasResolved) {
            std::vector<ConfigError> problems;
            Node resolved = resolveAll(r.config, &problems, options.env);
            QCOMPARE(QString::fromStdString(toYaml(resolved)), c.expectedResolved);
            // Values left as written are reported, each with its key and where it was written.
            for (const ConfigError &p : problems) {
                QVERIFY(!p.keyPath().empty());
                QVERIFY(p.where().line > 0);
            }
            if (c.name.contains("resolve-missing")) {
                QCOMPARE(problems.size(), size_t(2));
                QCOMPARE(QString::fromStdString(problems[0].keyPath()), QString("miss"));
                QCOMPARE(QString::fromStdString(problems[1].keyPath()), QString("to_mand"));
                QCOMPARE(problems[0].where().line, 3);
            } else {
                QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().what());
            }
        }
    }

    // verl ships its own flattened copies (_generated_*.yaml) of its trainer configs, made by
    // `print_cfg.py --cfg job [ARGS]` as their header says. Our composition with those arguments
    // equals each one apart from the header comment and the top-level `model_engine:` line, which
    // verl's generator drops and real Hydra prints.
    void verlGeneratedCopies_data()
    {
        QTest::addColumn<QString>("file");
        QStringList files = generatedFiles(configsRoot() + "/verl/verl/trainer/config");
        for (const QString &tree : QDir(configsRoot() + "/verl-versions").entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            files += generatedFiles(configsRoot() + "/verl-versions/" + tree + "/verl/trainer/config");
        QVERIFY(files.size() >= 13); // the legacy tree's one, and four in each of the three version trees
        for (const QString &f : files)
            QTest::newRow(qPrintable(f.mid(configsRoot().size() + 1))) << f;
    }

    void verlGeneratedCopies()
    {
        QFETCH(QString, file);
        const QStringList lines = QString::fromUtf8(readAll(file)).split('\n');
        ComposeOptions o;
        o.configDirs = {QFileInfo(file).path().toStdString()};
        o.configName = "ppo_trainer";
        parseGeneratorHeader(lines, o);
        QVERIFY(!o.configName.empty());
        QStringList body = lines;
        while (!body.isEmpty() && (body.first().startsWith('#') || body.first().isEmpty()))
            body.removeFirst();
        ComposeResult r;
        try {
            r = ps::core::config::compose(o);
        } catch (const ConfigError &e) {
            QFAIL(e.what());
        }
        QStringList ours = QString::fromStdString(toYaml(r.config)).split('\n');
        const qsizetype engines = ours.removeIf([](const QString &l) { return l.startsWith("model_engine:"); });
        QVERIFY(engines <= 1);
        QCOMPARE(ours.join('\n'), body.join('\n'));
    }

private:
    static QStringList generatedFiles(const QString &dir)
    {
        QStringList out;
        for (const QString &f : QDir(dir).entryList({"_generated_*.yaml"}, QDir::Files, QDir::Name))
            out << dir + "/" + f;
        return out;
    }

    // "# in which it invokes 'python3 scripts/print_cfg.py --cfg job ARGS' to flatten ...": ARGS
    // are overrides (model_engine=megatron) or --config-name=NAME.yaml.
    static void parseGeneratorHeader(const QStringList &lines, ComposeOptions &o)
    {
        static const QRegularExpression re("print_cfg\\.py --cfg job ?([^']*)'");
        for (const QString &l : lines) {
            const auto m = re.match(l);
            if (!m.hasMatch())
                continue;
            for (const QString &arg : m.captured(1).split(' ', Qt::SkipEmptyParts)) {
                if (arg.startsWith("--config-name="))
                    o.configName = arg.mid(14).toStdString();
                else
                    o.overrides.push_back(arg.toStdString());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestExpectedCases)
#include "tst_expectedcases.moc"
