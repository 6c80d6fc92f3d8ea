// The Breakdown tab splits communication as `profstudio-cli trace breakdown` does: on per-rank
// traces of a synchronous loop with late ranks (tests/support/syncloop.h, the generator of
// tst_collectives), each report's communication_wait and communication_transfer equal the CLI's
// JSON figures, add up to its communication, and the ranks that waited for the late one show it.
#include "tests/support/clirun.h"
#include "tests/support/syncloop.h"
#include "tests/support/testsandbox.h"
#include "tests/timeline/workspacewait.h"
#include "tests/views/breakdowncell.h"
#include "views/stats/breakdownpane.h"
#include "views/timeline/timelineworkspace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace ps::views;
using ps::test::breakdownCell;
using ps::test::showBreakdownTab;

class TestBreakdownSplit : public QObject
{
    Q_OBJECT
    ps::test::TestSandbox m_tmp; // scratch files and the report cache

private slots:
    void perReportSplitEqualsTraceBreakdown()
    {
        // Rank 5 computes 25 ms longer in steps 4-12 (the world allreduce waits for it); rank 2 is
        // late to its group's allgather in steps 6-8.
        ps::test::SyncLoopSpec spec;
        spec.delays = {{5, 4, 12, false, 25'000'000}, {2, 6, 8, true, 4'000'000}};
        const QString dir = m_tmp.filePath("sync");
        QVERIFY(QDir().mkpath(dir));
        ps::test::SyncLoopWriter(spec).write(dir.toStdString());
        const ps::test::CliRun cli = ps::test::runCli({"trace", "breakdown", "--no-cache", "--format", "json", dir});
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        std::map<QString, QJsonObject> byPath;
        for (const QJsonValue &v : QJsonDocument::fromJson(cli.out.toUtf8())["reports"].toArray())
            byPath[v["path"].toString()] = v.toObject();
        QCOMPARE(int(byPath.size()), spec.ranks);

        TimelineWorkspace w;
        w.resize(1366, 768);
        w.show();
        showBreakdownTab(w); // the user opens the tab
        w.openPaths({dir});
        QVERIFY(ps::test::waitIdle(w));
        const BreakdownModel &m = *w.breakdownPane()->model();
        QCOMPARE(m.rowCount(), spec.ranks);
        int waited = 0;
        for (int r = 0; r < m.rowCount(); ++r) {
            const QString path =
                QString::fromStdString(w.scene()->entries[size_t(m.rows()[size_t(r)].entry)].report->report().path);
            QVERIFY2(byPath.count(path), qPrintable(path));
            const QJsonObject &o = byPath[path];
            const double wait = breakdownCell(m, r, "Comm wait %"), transfer = breakdownCell(m, r, "Comm transfer %");
            QCOMPARE(wait, o["communication_wait_ns"].toDouble());
            QCOMPARE(transfer, o["communication_transfer_ns"].toDouble());
            QCOMPARE(wait + transfer, breakdownCell(m, r, "Communication %"));
            waited += wait > 9 * 25'000'000;
        }
        QCOMPARE(waited, spec.ranks - 1); // every rank but the late one waited its 9 x 25 ms
    }
};

QTEST_MAIN(TestBreakdownSplit)
#include "tst_breakdownsplit.moc"
