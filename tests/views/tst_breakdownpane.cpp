// The Breakdown tab gives what `profstudio-cli trace breakdown` gives: per report of the demo run
// (with events, and opened from digests as outlines) the same span, compute, communication,
// memory, other and idle times and overlap; per phase the phase table's cells. Copy gives text.

#include "core/analysis/breakdown/breakdown.h"
#include "core/analysis/digestsummary.h"
#include "core/demo/demorun.h"
#include "tests/support/clirun.h"
#include "tests/support/demorun.h"
#include "tests/support/reportload.h"
#include "tests/support/testsandbox.h"
#include "tests/timeline/workspacewait.h"
#include "tests/views/breakdowncell.h"
#include "views/stats/breakdownpane.h"
#include "views/stats/phasespane.h"
#include "views/timeline/timelineworkspace.h"

#include <QAbstractItemModelTester>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QTableView>
#include <QtTest>

using namespace ps::views;
namespace an = ps::core::analysis;

using ps::test::breakdownCell;
using ps::test::showBreakdownTab;
using ps::test::waitIdle;

class TestBreakdownPane : public QObject
{
    Q_OBJECT
    ps::test::TestSandbox m_tmp; // scratch files and the report cache
    ps::core::demo::DemoResult m_demo;

    // Per report: the tab's numbers are trace breakdown's JSON numbers for the same file.
    void checkPerReport(TimelineWorkspace &w)
    {
        BreakdownPane *pane = w.breakdownPane();
        const BreakdownModel &m = *pane->model();
        QCOMPARE(m.rowCount(), int(m_demo.reports.size()));
        QCOMPARE(m.columnCount(), 1 + int(breakdownColumns().size()));
        for (int r = 0; r < m.rowCount(); ++r) {
            const auto &entry = w.scene()->entries[size_t(m.rows()[size_t(r)].entry)];
            // The raw export the entry (a report or its digest) was made from.
            const QString name = QFileInfo(QString::fromStdString(entry.report->report().path)).fileName();
            QString raw;
            for (const auto &d : m_demo.reports)
                if (name.startsWith(QFileInfo(QString::fromStdString(d.path)).fileName()))
                    raw = QString::fromStdString(d.path);
            const auto report = ps::test::loadTestReport(raw);
            QVERIFY2(report, qPrintable(name));
            const an::GpuBreakdown b = an::computeBreakdown(*report->store);
            QCOMPARE(breakdownCell(m, r, "Span ms"), double(b.spanNs));
            QCOMPARE(breakdownCell(m, r, "Compute %"), double(b.computeNs()));
            QCOMPARE(breakdownCell(m, r, "Communication %"), double(b.communicationNs()));
            QCOMPARE(breakdownCell(m, r, "Memory %"), double(b.memoryNs()));
            QCOMPARE(breakdownCell(m, r, "Other %"), double(b.otherNs()));
            QCOMPARE(breakdownCell(m, r, "Idle %"), double(b.idleNs));
            QCOMPARE(breakdownCell(m, r, "GPU events"), double(b.events));
            QVERIFY(b.spanNs > 0 && b.communicationNs() > 0);
        }
    }

private slots:
    void initTestCase() { m_demo = writeTestDemo(m_tmp.filePath("run"), 4, 2, ps::core::demo::DemoOptions{}.seed); }

    void perReportEqualsTraceBreakdown()
    {
        TimelineWorkspace w;
        w.resize(1366, 768);
        w.show();
        // The model keeps Qt's model contract through every reset and update (the tester aborts
        // the test on a broken one); it only observes, hence the cast of the pane's const view.
        QAbstractItemModelTester tester(const_cast<BreakdownModel *>(w.breakdownPane()->model()));
        showBreakdownTab(w); // the user opens the tab
        w.openPaths({QString::fromStdString(m_demo.reportDir)});
        QVERIFY(waitIdle(w));
        checkPerReport(w);
        const QString summary = w.breakdownPane()->summary()->text();
        QVERIFY2(summary.startsWith(QString("GPU time of %1 report(s) of run").arg(m_demo.reports.size())) &&
                     summary.contains("trace breakdown"),
                 qPrintable(summary)); // not "Reading…" once the figures are in
        // The CLI's own numbers for one report.
        const auto cli = ps::test::runCli(
            {"trace", "breakdown", "--format", "json", QString::fromStdString(m_demo.reports[0].path)});
        QCOMPARE(cli.exitCode, 0);
        const QJsonObject first = QJsonDocument::fromJson(cli.out.toUtf8())["reports"][0].toObject();
        const BreakdownModel &m = *w.breakdownPane()->model();
        for (int r = 0; r < m.rowCount(); ++r)
            if (w.scene()->entries[size_t(m.rows()[size_t(r)].entry)].report->report().path == m_demo.reports[0].path) {
                QCOMPARE(breakdownCell(m, r, "Idle %"), first["idle_ns"].toDouble());
                QCOMPARE(breakdownCell(m, r, "Compute %"), first["compute_ns"].toDouble());
            }
    }

    void perReportFromDigests()
    {
        const QString digests = m_tmp.filePath("digests");
        for (const auto &r : m_demo.reports) {
            const auto report = ps::test::loadTestReport(QString::fromStdString(r.path));
            const QString path = digests + "/" + QFileInfo(QString::fromStdString(r.path)).fileName() + ".psdigest";
            QCOMPARE(QString::fromStdString(an::writeDigestWithSummaries(*report, path.toStdString())), QString());
        }
        TimelineWorkspace w;
        w.resize(1366, 768);
        w.show();
        showBreakdownTab(w); // the user opens the tab
        w.openPaths({digests});
        QVERIFY(waitIdle(w));
        QVERIFY(w.scene()->entries.front().report->isOutline());
        checkPerReport(w);
    }

    // Per phase: a row per (step, phase, rank) cell with the cell's breakdown.
    void perPhaseIsThePhaseTablesCells()
    {
        TimelineWorkspace w;
        w.resize(1366, 768);
        w.show();
        showBreakdownTab(w); // the user opens the tab
        w.openPaths({QString::fromStdString(m_demo.reportDir)});
        QVERIFY(waitIdle(w));
        w.breakdownPane()->setScope(BreakdownPane::Scope::PerPhase);
        const BreakdownModel &m = *w.breakdownPane()->model();
        const an::PhaseTable &t = w.phasesPane()->shownTable();
        QCOMPARE(m.rowCount(), int(t.rows.size() * t.columns.size()));
        QCOMPARE(m.nameColumns(), 3);
        const an::PhaseCell &c = t.rows[1].cells[2];
        const int row = 1 * int(t.columns.size()) + 2;
        QCOMPARE(m.data(m.index(row, 1), Qt::DisplayRole).toString(), QString::fromStdString(t.rows[1].phase));
        QCOMPARE(breakdownCell(m, row, "Compute %"), double(c.gpu.computeNs()));
        QCOMPARE(breakdownCell(m, row, "Idle %"), double(c.gpu.idleNs));
    }

    // A tab nobody looks at computes nothing (at 1024 ranks its waits are millions of members):
    // it starts when opened, and shows the same figures.
    void hiddenTabComputesWhenOpened()
    {
        TimelineWorkspace w;
        w.resize(1366, 768);
        w.show();
        w.openPaths({QString::fromStdString(m_demo.reportDir)});
        QVERIFY(waitIdle(w));
        QVERIFY(!w.breakdownPane()->isVisible());
        QCOMPARE(w.breakdownPane()->model()->rowCount(), 0);
        QVERIFY(!w.breakdownPane()->isBusy());
        showBreakdownTab(w);
        QVERIFY(waitIdle(w));
        checkPerReport(w);
    }
};

QTEST_MAIN(TestBreakdownPane)
#include "tst_breakdownpane.moc"
