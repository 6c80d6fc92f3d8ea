// The CLI's command surface (../shared/spec/cli.md): help, version, exit statuses. The commands
// run in process; the smoke tests at the end spawn the built executable, for what only a real
// process shows: main()'s exit status, and output through a pipe.
#include "tests/support/clirun.h"

#include <QtTest>

using ps::test::runCli;
using ps::test::spawnCli;

namespace {
const QStringList kCommands{"compose", "explain", "validate", "plan", "export", "demo"};
const QStringList kTraceCommands{"info",       "stats",  "align",   "cache",  "digest",     "breakdown",
                                 "projection", "phases", "compare", "memory", "collectives"};
} // namespace

class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void helpListsEveryCommand()
    {
        auto r = runCli({"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        for (const QString &c : kCommands)
            QVERIFY2(r.out.contains("  " + c + " "), qPrintable(c));
        for (const QString &c : kTraceCommands)
            QVERIFY2(r.out.contains("  trace " + c + " "), qPrintable(c));
    }
    void helpNamesEveryExportFormat()
    {
        // The formats export accepts, read from its own usage line: the summary must name them all.
        const QString usage = runCli({"export", "--help"}).out.section('\n', 0, 0);
        const QRegularExpressionMatch m = QRegularExpression("--as (\\S+)").match(usage);
        QVERIFY2(m.hasMatch(), qPrintable(usage));
        const QStringList formats = m.captured(1).split('|');
        QVERIFY(formats.size() >= 7);
        QString line;
        for (const QString &l : runCli({"--help"}).out.split('\n'))
            if (l.startsWith("  export "))
                line = l;
        for (const QString &f : formats)
            QVERIFY2(QRegularExpression("[ ,]" + QRegularExpression::escape(f) + "(,|$| )").match(line).hasMatch(),
                     qPrintable(f + " missing from: " + line));
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
        QVERIFY(r.out.isEmpty());
        QVERIFY(r.err.contains("Usage:"));
    }
    void unknownCommandIsUsageError()
    {
        auto r = runCli({"frobnicate"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown command 'frobnicate'"));
        r = runCli({"trace", "frobnicate"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown trace command 'frobnicate'"));
    }
    void traceAloneListsTraceCommands()
    {
        auto r = runCli({"trace"});
        QCOMPARE(r.exitCode, 2);
        auto h = runCli({"trace", "--help"});
        QCOMPARE(h.exitCode, 0);
        QCOMPARE(h.out, r.err); // the same list, on stderr for the usage error
        for (const QString &c : kTraceCommands)
            QVERIFY2(h.out.contains("  " + c + " "), qPrintable(c));
        // The usage line names every command that takes reports (memory and collectives were missed).
        const QString usage = h.out.section('\n', 0, 0);
        for (const QString &c : {QStringLiteral("memory"), QStringLiteral("collectives"), QStringLiteral("phases")})
            QVERIFY2(usage.contains(c), qPrintable(usage));
    }
    void everyCommandHasHelp_data()
    {
        QTest::addColumn<QStringList>("words");
        for (const QString &c : kCommands)
            QTest::newRow(qPrintable(c)) << QStringList{c};
        for (const QString &c : kTraceCommands)
            QTest::newRow(qPrintable("trace " + c)) << QStringList{"trace", c};
    }
    void everyCommandHasHelp()
    {
        QFETCH(QStringList, words);
        auto r = runCli(words + QStringList{"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("Usage: profstudio-cli " + words.join(' ')), qPrintable(r.out));
    }

    // Smoke tests of the executable itself.
    void executableExitStatuses()
    {
        auto help = spawnCli({"--help"});
        QCOMPARE(help.exitCode, 0);
        QCOMPARE(help.out, runCli({"--help"}).out);
        auto none = spawnCli({});
        QCOMPARE(none.exitCode, 2);
        QVERIFY(none.err.contains("Usage:"));
        QCOMPARE(spawnCli({"frobnicate"}).exitCode, 2);
        const QString missing = QStringLiteral("/nonexistent/r.sqlite");
        auto bad = spawnCli({"trace", "info", "--no-cache", missing});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY(bad.err.contains("error: " + missing));
    }
    void executableWritesToAPipe()
    {
        // A script's `profstudio-cli ... | head -n 1`: the first line arrives and the pipeline
        // succeeds.
        QProcess shell;
        shell.start("bash", {"-o", "pipefail", "-c", "\"$0\" --help | head -n 1", PS_BIN_DIR "/profstudio-cli"});
        QVERIFY(shell.waitForFinished(60000));
        QCOMPARE(shell.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(shell.readAllStandardOutput()), runCli({"--help"}).out.section('\n', 0, 0) + "\n");
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
