// profstudio-cli demo: usage errors exit 2, a run prints its summary, --format json is parseable.

#include "tests/support/clirun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {
ps::test::CliRun cli(const QStringList &args)
{
    return ps::test::runCli(args);
}
using Run = ps::test::CliRun;
} // namespace

class TestDemoCli : public QObject
{
    Q_OBJECT

private slots:
    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no --out") << QStringList{"demo"} << "--out DIR is required";
        QTest::newRow("ranks not a number")
            << QStringList{"demo", "--out", "x", "--ranks", "four"} << "--ranks expects a number";
        QTest::newRow("ranks out of range")
            << QStringList{"demo", "--out", "x", "--ranks", "0"} << "ranks must be between 1 and 4096";
        QTest::newRow("bad format") << QStringList{"demo", "--out", "x", "--format", "xml"} << "--format must be";
        QTest::newRow("unknown option") << QStringList{"demo", "--out", "x", "--bogus"} << "bogus";
        QTest::newRow("positional") << QStringList{"demo", "--out", "x", "extra"} << "no positional arguments";
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(QStringLiteral("x")));
    }

    void help()
    {
        const Run r = cli({"demo", "--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--events-per-report"));
    }

    void jsonSummary()
    {
        QTemporaryDir dir;
        const Run r =
            cli({"demo", "--out", dir.path(), "--ranks", "3", "--steps", "2", "--seed", "5", "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8(), &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(o["config_name"].toString(), QStringLiteral("maniskill_ppo_demo"));
        QCOMPARE(o["steps"].toArray().size(), 2);
        const QJsonArray reports = o["reports"].toArray();
        QCOMPARE(reports.size(), 3);
        for (const auto &v : reports) {
            const QString path = v.toObject()["path"].toString();
            QVERIFY2(QFileInfo(path).isFile(), qPrintable(path));
            QVERIFY(path.contains(QStringLiteral("rlinf_profile_ActorGroup_")));
            QVERIFY(v.toObject()["rows"].toInteger() > 1000);
        }
        QVERIFY(QFileInfo(o["config"].toString()).isFile());
        const int straggler = o["straggler_rank"].toInt();
        QVERIFY(straggler >= 0 && straggler < 3);
    }

    // What run.sh prints: the compare table names ranks, not paths, and marks the straggler's
    // run_training as the slowest.
    void compareTableFlagsTheStraggler()
    {
        QTemporaryDir dir;
        QTemporaryDir cache;
        const Run demo =
            cli({"demo", "--out", dir.path(), "--ranks", "4", "--steps", "2", "--seed", "11", "--format", "json"});
        QCOMPARE(demo.exitCode, 0);
        const int straggler = QJsonDocument::fromJson(demo.out.toUtf8()).object()["straggler_rank"].toInt();
        const Run cmp =
            cli({"trace", "stats", "--report", "compare", "--top", "5", "--cache-dir", cache.path(), dir.path()});
        QCOMPARE(cmp.exitCode, 0);
        const QStringList lines = cmp.out.split('\n');
        QVERIFY2(lines.size() > 3, qPrintable(cmp.out));
        // nsys's layout: one column per report, then Style and Range.
        QString header, runTraining;
        for (const QString &l : lines) {
            if (header.isEmpty() && l.trimmed().endsWith("Range"))
                header = l;
            if (l.endsWith(" run_training") || l.endsWith(" run_training "))
                runTraining = l;
        }
        const QStringList titles = header.trimmed().split(QRegularExpression("\\s{2,}"), Qt::SkipEmptyParts);
        QCOMPARE(titles.size(), 6);
        for (int rank = 0; rank < 4; ++rank)
            QVERIFY2(titles[rank].startsWith(QString("ActorGroup r%1 pid ").arg(rank)), qPrintable(titles[rank]));
        QCOMPARE(titles[4], QString("Style"));
        const QStringList cells = runTraining.split(' ', Qt::SkipEmptyParts);
        QCOMPARE(cells.size(), 6);
        QCOMPARE(cells[4], QString("PushPop"));
        for (int rank = 0; rank < 4; ++rank)
            QCOMPARE(cells[rank].endsWith('*'), rank == straggler);
    }

    void composeHintRunsInAShell()
    {
        // The printed hint, pasted into bash, composes the demo config even from a folder with
        // spaces and quotes in its name.
        QTemporaryDir base;
        const QString out = base.filePath("demo run's dir");
        const Run r = cli({"demo", "--out", out, "--ranks", "1"});
        QCOMPARE(r.exitCode, 0);
        QString hint = r.out.section("Compose it with: ", 1).section('\n', 0, 0);
        QVERIFY2(hint.startsWith("profstudio-cli compose "), qPrintable(r.out));
        hint.replace(0, QString("profstudio-cli").size(), "\"$0\"");
        QProcess shell;
        shell.start("bash", {"-c", hint, PS_BIN_DIR "/profstudio-cli"});
        QVERIFY(shell.waitForFinished(60000));
        QCOMPARE(shell.exitCode(), 0);
        QVERIFY(shell.readAllStandardOutput().contains("profiling"));
    }

    void textSummaryAndSqliteCli()
    {
        QTemporaryDir dir;
        const Run r = cli({"demo", "--out", dir.path(), "--ranks", "1"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("straggler: rank 0"));
        QVERIFY(r.out.contains("rlinf_profile_ActorGroup_0_"));
        // "Done when: a demo export opens with the sqlite3 CLI".
        const QString sqlite3 = QStandardPaths::findExecutable(QStringLiteral("sqlite3"));
        if (sqlite3.isEmpty())
            QSKIP("the sqlite3 command-line tool is not installed");
        const QStringList files = QDir(dir.filePath("profiling")).entryList({"*.sqlite"});
        QCOMPARE(files.size(), 1);
        QProcess p;
        p.start(sqlite3, {dir.filePath("profiling/" + files.front()),
                          "SELECT count(*) > 0 FROM CUPTI_ACTIVITY_KIND_KERNEL; PRAGMA integrity_check;"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(p.readAllStandardOutput()), QStringLiteral("1\nok\n"));
    }
};

QTEST_GUILESS_MAIN(TestDemoCli)
#include "tst_democli.moc"
