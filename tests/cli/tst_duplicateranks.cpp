// One rank, one report (#37): a digest left in a run folder by an earlier run, and a byte-identical
// copy of a report in a second subfolder, are named and left out by every analysis, which then all
// count the same ranks; and `trace digest --out` does not silently replace another report's digest.

#include "tests/support/clirun.h"
#include "tests/support/demorun.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QString reportsLine(const ps::test::CliRun &r)
{
    const qsizetype at = r.out.indexOf(QStringLiteral("Phases of "));
    return at < 0 ? QString() : r.out.mid(at, r.out.indexOf(QLatin1Char('\n'), at) - at);
}

} // namespace

class TestDuplicateRanks : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    ps::core::demo::DemoResult m_run, m_earlier;

    QString runDir() const { return QString::fromStdString(m_run.reportDir); }

private slots:
    void initTestCase()
    {
        m_run = writeTestDemo(m_dir.filePath(QStringLiteral("today")), 4, 2, 1);
        m_earlier = writeTestDemo(m_dir.filePath(QStringLiteral("earlier")), 4, 2, 7);
        QVERIFY(m_run.reports[0].utcEpochNs != m_earlier.reports[0].utcEpochNs);
    }

    // The earlier run's rank-3 digest, left in today's folder: today's rank 3 is kept, the digest
    // named as another run's, and phases, breakdown and stats all count four reports.
    void leftoverDigestOfAnotherRun()
    {
        const QString earlier3 = QString::fromStdString(m_earlier.reports[3].path);
        const auto digest = ps::test::runCli({"trace", "digest", "--out", runDir(), earlier3});
        QCOMPARE(digest.exitCode, 0);
        const QString leftover = runDir() + QLatin1Char('/') + QFileInfo(earlier3).fileName() + ".psdigest";
        QVERIFY(QFile::exists(leftover));

        const auto phases = ps::test::runCli({"trace", "phases", "--no-cache", runDir()});
        QCOMPARE(phases.exitCode, 0);
        QVERIFY2(reportsLine(phases).startsWith(QStringLiteral("Phases of 4 report(s)")), qPrintable(phases.out));
        QVERIFY2(phases.err.contains(leftover + QStringLiteral(": left out, rank 3 of ActorGroup")) &&
                     phases.err.contains(QStringLiteral("of another run")),
                 qPrintable(phases.err));
        const auto breakdown = ps::test::runCli({"trace", "breakdown", "--no-cache", "--format", "json", runDir()});
        QCOMPARE(breakdown.exitCode, 0);
        QVERIFY2(!breakdown.out.contains(QFileInfo(leftover).fileName()), qPrintable(breakdown.out));
        const auto compare =
            ps::test::runCli({"trace", "stats", "--no-cache", "--report", "compare", "--format", "csv", runDir()});
        QVERIFY2(!compare.out.contains(QFileInfo(leftover).fileName()), qPrintable(compare.out));
        const auto collectives = ps::test::runCli({"trace", "collectives", "--no-cache", runDir()});
        QVERIFY2(!collectives.err.contains(QStringLiteral("appears twice")), qPrintable(collectives.err));
        QFile::remove(leftover);
    }

    // A byte-identical copy in a second subfolder is one capture: counted once.
    void byteIdenticalCopy()
    {
        QTemporaryDir tree;
        const QString one = QString::fromStdString(m_run.reports[1].path);
        QVERIFY(QDir().mkpath(tree.filePath("a")) && QDir().mkpath(tree.filePath("b")));
        QVERIFY(QFile::copy(one, tree.filePath("a/") + QFileInfo(one).fileName()));
        QVERIFY(QFile::copy(one, tree.filePath("b/") + QFileInfo(one).fileName()));
        const auto phases = ps::test::runCli({"trace", "phases", "--no-cache", tree.path()});
        QCOMPARE(phases.exitCode, 0);
        QVERIFY2(reportsLine(phases).startsWith(QStringLiteral("Phases of 1 report(s)")), qPrintable(phases.out));
        QVERIFY2(phases.err.contains(tree.filePath("b/") + QFileInfo(one).fileName() +
                                     QStringLiteral(": left out, a copy of ") + tree.filePath("a/")),
                 qPrintable(phases.err));
    }

    // --out into a folder that holds another report's digest of the same name: refused unless --force.
    void digestOutKeepsAnotherReportsDigest()
    {
        QTemporaryDir out, a, b;
        const QString name = QFileInfo(QString::fromStdString(m_run.reports[0].path)).fileName();
        QVERIFY(QFile::copy(QString::fromStdString(m_run.reports[0].path), a.filePath(name)));
        QVERIFY(QFile::copy(QString::fromStdString(m_run.reports[2].path), b.filePath(name)));
        QCOMPARE(ps::test::runCli({"trace", "digest", "--out", out.path(), a.path()}).exitCode, 0);
        const QString digest = out.filePath(name + ".psdigest");
        const QByteArray before = [&] {
            QFile f(digest);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        const auto again = ps::test::runCli({"trace", "digest", "--out", out.path(), b.path()});
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.err.contains(digest + QStringLiteral(" was written for ")) &&
                     again.err.contains(QStringLiteral("--force")),
                 qPrintable(again.err));
        QFile f(digest);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
        f.close();
        QCOMPARE(ps::test::runCli({"trace", "digest", "--out", out.path(), a.path()}).exitCode,
                 0); // its own: refreshed
        QCOMPARE(ps::test::runCli({"trace", "digest", "--force", "--out", out.path(), b.path()}).exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TestDuplicateRanks)
#include "tst_duplicateranks.moc"
