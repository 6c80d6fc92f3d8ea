// The phase table and the cross-rank chart at any size: past 32 ranks the chart is a box per
// step with the outlying ranks named and clickable; a range that occurs many times per rank is
// one total per rank; the chart covers the run it is given and names it; the phase table names
// its run; in a step overlay the phase table's columns are the occurrences.

#include "core/analysis/phases/phases.h"
#include "core/demo/demorun.h"
#include "tests/support/demorun.h"
#include "tests/support/testsandbox.h"
#include "tests/timeline/testreports.h"
#include "tests/timeline/workspacewait.h"
#include "views/scene/preparedreport.h"
#include "views/scene/timelinescene.h"
#include "views/stats/crossrankchart.h"
#include "views/stats/crossrankdata.h"
#include "views/stats/phasespane.h"
#include "views/timeline/timelineworkspace.h"

#include <QLabel>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QtTest>
#include <qcustomplot.h>

using namespace ps::views;
using namespace ps::core::trace;

namespace {
constexpr int64_t kMs = 1'000'000;

using ps::test::waitIdle;

// `ranks` ranks of `steps` "step" ranges; rank `slow` takes 3x as long, the others 10 ms plus a
// few us each.
std::shared_ptr<TimelineScene> scene(int ranks, int steps, int slow, const std::string &run = "run")
{
    std::vector<PreparedReportPtr> prepared;
    for (int r = 0; r < ranks; ++r) {
        auto report =
            std::make_shared<Report>(*ps::test::makeRank(r, steps, r == slow ? 30 * kMs : 10 * kMs + r * 5000));
        report->identity.run = run;
        report->path = "/" + run + report->path;
        prepared.push_back(PreparedReport::prepare(report));
    }
    return std::make_shared<TimelineScene>(buildScene(prepared, {}));
}

} // namespace

class TestPhasesAtScale : public QObject
{
    Q_OBJECT
    ps::test::TestSandbox m_tmp; // scratch files and the report cache

private slots:
    // 40 ranks: a box per step, the slow rank an outlier named beside its point; a click on the
    // point jumps to its step range.
    void manyRanksAreADistribution()
    {
        const auto s = scene(40, 3, 7);
        CrossRankChart chart;
        chart.resize(900, 420);
        chart.setData(crossRankData(*s, QStringLiteral("step")));
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.plot()->replot();
        QVERIFY(chart.showsDistribution());
        auto *boxes = qobject_cast<QCPStatisticalBox *>(chart.plot()->plottable(0));
        QVERIFY(boxes);
        QCOMPARE(boxes->data()->size(), 3); // one box per step, not 120 bars
        QVERIFY(boxes->data()->constBegin()->median < 10.3);
        const auto outliers = crossRankBoxes(chart.shown());
        QCOMPARE(outliers.size(), size_t(3));
        for (const CrossRankBox &b : outliers) {
            QCOMPARE(b.outliers.size(), size_t(1));
            QCOMPARE(chart.shown().bars[size_t(b.outliers[0])].rank, 7);
        }
        QStringList labels;
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            if (auto *t = qobject_cast<QCPItemText *>(chart.plot()->item(i)))
                labels << t->text();
        QCOMPARE(labels, (QStringList{"rank 7", "rank 7", "rank 7"}));
        QVERIFY(chart.title().contains("longest total") && chart.title().contains("rank 7"));

        auto *points = qobject_cast<QCPGraph *>(chart.plot()->plottable(1));
        QVERIFY(points && !points->property("bars").toList().isEmpty());
        QSignalSpy spy(&chart, &CrossRankChart::barActivated);
        const QPointF p = points->coordsToPixels(1, (points->data()->constBegin() + 1)->value);
        QTest::mouseClick(chart.plot(), Qt::LeftButton, {}, p.toPoint());
        QCOMPARE(spy.size(), 1);
        const int entry = spy.at(0).at(0).toInt();
        const auto ref = spy.at(0).at(1).value<EventRef>();
        QCOMPARE(s->entries[size_t(entry)].report->report().identity.rank, std::optional<int>(7));
        QCOMPARE(s->entries[size_t(entry)].report->store().track(ref.track).duration(ref.index), 30 * kMs);
    }

    // 20 occurrences per rank: one total per rank; its bar jumps to the longest occurrence.
    void manyOccurrencesAreATotalPerRank()
    {
        const auto s = scene(4, 20, 2);
        CrossRankChart chart;
        chart.resize(900, 420);
        chart.setData(crossRankData(*s, QStringLiteral("step")));
        QCOMPARE(chart.data().steps, 20);
        QCOMPARE(chart.shown().steps, 1);
        QCOMPARE(chart.shown().bars.size(), size_t(4));
        QCOMPARE(chart.shown().bars[2].durationNs, 20 * 30 * kMs);
        QCOMPARE(chart.plot()->plottableCount(), 1);
        QVERIFY(chart.title().contains("total of 20 occurrences per rank"));
        QSignalSpy spy(&chart, &CrossRankChart::barActivated);
        QVERIFY(chart.activateBar(2, 0));
        QCOMPARE(spy.at(0).at(0).toInt(), chart.shown().bars[2].entry);
    }

    // Two runs in one scene: the chart of one run's entries has its ranks only, its own
    // straggler, and names the run.
    void oneChartPerRun()
    {
        auto a = scene(4, 3, 1, "mon");
        const auto b = scene(4, 3, 3, "tue");
        std::vector<int> ofA;
        for (size_t i = 0; i < a->entries.size(); ++i)
            ofA.push_back(int(i));
        for (TimelineEntry e : b->entries)
            a->entries.push_back(e);
        const CrossRankData both = crossRankData(*a, QStringLiteral("step"));
        QCOMPARE(both.ranks.size(), 8);
        const CrossRankData monOnly = crossRankData(*a, QStringLiteral("step"), {}, ofA);
        QCOMPARE(monOnly.ranks, (QStringList{"rank 0", "rank 1", "rank 2", "rank 3"}));
        QCOMPARE(monOnly.longest, 1);
        QCOMPARE(monOnly.run, QStringLiteral("mon"));
        CrossRankChart chart;
        chart.setData(monOnly);
        QVERIFY(chart.title().contains("in run mon"));
    }

    // The phase table names its run; in a step overlay of run_training (one per step), one column per
    // occurrence holding that step's phases.
    void phaseTableNamesItsRunAndOverlaysPerOccurrence()
    {
        const ps::core::demo::DemoResult demo =
            writeTestDemo(m_tmp.filePath("demo"), 4, 2, ps::core::demo::DemoOptions{}.seed);
        TimelineWorkspace w;
        w.resize(1366, 768);
        w.show();
        w.openPaths({QString::fromStdString(demo.reportDir)});
        QVERIFY(waitIdle(w));
        PhasesPane *pane = w.phasesPane();
        const QString run = QString::fromStdString(w.reports().front()->report().identity.run);
        QVERIFY(!run.isEmpty());
        QVERIFY2(pane->findChild<QLabel *>()->text().contains("of run " + run),
                 qPrintable(pane->findChild<QLabel *>()->text()));
        const ps::core::analysis::PhaseTable byStep = pane->shownTable();
        // The demo profiled steps 2 and 3 (its config says so): the table and the overlay say 2
        // and 3, not 1 and 2, and the table says where the numbers come from.
        QCOMPARE(byStep.rows.front().step, int64_t(demo.profiledSteps.front()));
        QCOMPARE(byStep.rows.back().step, int64_t(demo.profiledSteps.back()));
        QVERIFY2(pane->findChild<QLabel *>()->text().contains("steps numbered as cluster.profiling.steps in"),
                 qPrintable(pane->findChild<QLabel *>()->text()));

        w.setStepOverlay(0, QStringLiteral("run_training"));
        QVERIFY(waitIdle(w));
        QVERIFY(w.scene()->overlay);
        QVERIFY2(w.scene()->entries[0].label.startsWith("run_training step 2 · "),
                 qPrintable(w.scene()->entries[0].label));
        QVERIFY(w.scene()->entries[1].label.startsWith("run_training step 3 · "));
        const auto &t = pane->shownTable();
        QCOMPARE(t.columns.size(), w.scene()->entries.size());
        QVERIFY(t.columns.size() >= 2); // the occurrences, not rank 0's report repeated
        QVERIFY(t.columns[0].label != t.columns[1].label);
        QVERIFY(pane->findChild<QLabel *>()->text().contains("per occurrence"));
        // Every cell of occurrence k is a phase of rank 0 that starts in it, as the plain table has it.
        const int rank0 = [&] {
            for (size_t c = 0; c < byStep.columns.size(); ++c)
                if (byStep.columns[c].report == 0)
                    return int(c);
            return -1;
        }();
        QVERIFY(rank0 >= 0);
        int checked = 0;
        std::vector<int> perColumn(t.columns.size(), 0);
        for (const auto &row : t.rows)
            for (size_t k = 0; k < row.cells.size(); ++k) {
                if (!row.cells[k].present)
                    continue;
                ++perColumn[k];
                bool found = false;
                for (const auto &plain : byStep.rows)
                    found = found || (plain.phase == row.phase && plain.cells[size_t(rank0)].present &&
                                      plain.cells[size_t(rank0)].startNs == row.cells[k].startNs &&
                                      plain.cells[size_t(rank0)].wallNs == row.cells[k].wallNs);
                QVERIFY2(found, row.phase.c_str());
                ++checked;
            }
        for (int n : perColumn)
            QVERIFY(n > 0);
        QVERIFY(checked >= 2);
    }
};

QTEST_MAIN(TestPhasesAtScale)
#include "tst_phasesatscale.moc"
