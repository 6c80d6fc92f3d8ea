// The CLI's command surface (../shared/spec/cli.md): help, version, exit statuses.
#include "tests/support/clirun.h"

#include <QtTest>

using ps::test::runCli;

class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void helpListsEveryCommand()
    {
        auto r = runCli({"--help"});
        QCOMPARE(r.exitCode, 0);
        for (const char *c :
             {"compose", "explain", "validate", "plan", "export", "demo", "trace info", "trace stats", "trace align"})
            QVERIFY2(r.out.contains(QLatin1String(c)), c);
    }
    void version()
    {
        auto r = runCli({"--version"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("profstudio-cli "));
        QVERIFY(QRegularExpression("\\d+\\.\\d+\\.\\d+").match(r.out).hasMatch());
    }
    void noArgumentsIsUsageError()
    {
        auto r = runCli({});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("Usage:"));
    }
    void unknownCommandIsUsageError()
    {
        auto r = runCli({"frobnicate"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown command 'frobnicate'"));
        r = runCli({"trace", "frobnicate"});
        QCOMPARE(r.exitCode, 2);
    }
    void everyCommandHasHelp_data()
    {
        QTest::addColumn<QStringList>("words");
        for (const char *c : {"compose", "explain", "validate", "plan", "export", "demo"})
            QTest::newRow(c) << QStringList{c};
        for (const char *c : {"info", "stats", "align"})
            QTest::newRow(c) << QStringList{"trace", c};
    }
    void everyCommandHasHelp()
    {
        QFETCH(QStringList, words);
        auto r = runCli(words + QStringList{"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("Usage: profstudio-cli " + words.join(' ')));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
