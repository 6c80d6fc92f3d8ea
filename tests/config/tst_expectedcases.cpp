// Every case of ../shared/testdata/configs/expected, composed in process: byte-identical to
// Hydra's --cfg job output (and to the resolved output with --resolve), or failing with Hydra's
// message plus a location.
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
    }

    void everyCase_data()
    {
        QTest::addColumn<int>("index");
        const auto cases = loadExpectedCases();
        for (int i = 0; i < cases.size(); ++i)
            QTest::newRow(qPrintable(cases[i].name)) << i;
    }

    void everyCase()
    {
        QFETCH(int, index);
        const ExpectedCase c = loadExpectedCases().at(index);
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
                    // YAML errors: PyYAML and yaml-cpp word them differently; the place must agree.
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

    // verl ships its own flattened copy of ppo_trainer; our composition equals it apart from
    // the header comment (README of expected/).
    void verlGeneratedCopy()
    {
        ComposeOptions o;
        o.configDirs = {(configsRoot() + "/verl/verl/trainer/config").toStdString()};
        o.configName = "ppo_trainer";
        ComposeResult r = ps::core::config::compose(o);
        QString generated =
            QString::fromUtf8(readAll(configsRoot() + "/verl/verl/trainer/config/_generated_ppo_trainer.yaml"));
        QStringList lines = generated.split('\n');
        while (!lines.isEmpty() && (lines.first().startsWith('#') || lines.first().isEmpty()))
            lines.removeFirst();
        QCOMPARE(QString::fromStdString(toYaml(r.config)), lines.join('\n'));
    }
};

QTEST_GUILESS_MAIN(TestExpectedCases)
#include "tst_expectedcases.moc"
