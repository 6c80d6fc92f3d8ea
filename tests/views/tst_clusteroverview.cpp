// The cluster overview of a large run and the ways to a rank: a run of 40 digests (opened as
// outlines) shows the overview above the timeline with the demo's planted straggler marked; a
// click on its row pages its events in and scrolls the timeline to it; Go to Rank finds a rank by
// group:rank, rank number and pid; a phase-table cell of an outline pages the report in, then
// selects the phase's range. The busy shares and outliers are checked on their own too.

#include "core/analysis/digestsummary.h"
#include "core/demo/demorun.h"
#include "tests/support/demorun.h"
#include "tests/support/reportload.h"
#include "tests/support/testsandbox.h"
#include "tests/timeline/workspacewait.h"
#include "views/overview/clusteroverview.h"
#include "views/overview/gotorank.h"
#include "views/overview/overviewdata.h"
#include "views/overview/overviewstrip.h"
#include "views/stats/phasespane.h"
#include "views/timeline/overviewcontroller.h"
#include "views/timeline/ranknavigator.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineworkspace.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>

using namespace ps::views;
using namespace ps::core::trace;

namespace {

using ps::test::waitIdle;

int entryOfRank(const TimelineScene &scene, int rank)
{
    for (size_t i = 0; i < scene.entries.size(); ++i)
        if (scene.entries[i].report->report().identity.rank == rank)
            return int(i);
    return -1;
}

// The report header row of `entry` is on screen and expanded.
bool headerOnScreen(const TimelineCanvas &c, int entry)
{
    const int row = c.layout().reportRowOf(entry);
    if (row < 0)
        return false;
    const Row &r = c.layout().rows()[size_t(row)];
    return !r.collapsed && r.y >= c.scrollY() && r.bottom() <= c.scrollY() + c.height();
}

// Shows the dialog and types `text` into it: the completion list that opens under the field, or
// null when it does not.
QAbstractItemView *typeIntoGoToRank(GoToRankDialog &dialog, const QString &text)
{
    dialog.show();
    if (!QTest::qWaitForWindowExposed(&dialog))
        return nullptr;
    QTest::keyClicks(dialog.edit(), text);
    QAbstractItemView *list = dialog.edit()->completer()->popup();
    return QTest::qWaitFor([list] { return list->isVisible(); }) ? list : nullptr;
}

} // namespace

class TestClusterOverview : public QObject
{
    Q_OBJECT
    ps::test::TestSandbox m_tmp; // scratch files and the report cache
    ps::core::demo::DemoResult m_demo;
    QString m_digests;

private slots:
    void initTestCase()
    {
        m_demo = writeTestDemo(m_tmp.filePath("run"), 40, 2, ps::core::demo::DemoOptions{}.seed);
        m_digests = m_tmp.filePath("digests");
        for (const auto &r : m_demo.reports) {
            const ReportPtr report = ps::test::loadTestReport(QString::fromStdString(r.path));
            QVERIFY(report);
            const QString path = m_digests + "/" + QFileInfo(QString::fromStdString(r.path)).fileName() + ".psdigest";
            QCOMPARE(QString::fromStdString(ps::core::analysis::writeDigestWithSummaries(*report, path.toStdString())),
                     QString());
        }
    }

    // Outliers are the values far from the rest, none when all are alike.
    void outliersAreFarFromTheMedian()
    {
        std::vector<double> v(20, 0.8);
        for (size_t i = 0; i < v.size(); ++i)
            v[i] += 0.001 * double(i % 5);
        QCOMPARE(robustOutliers(v, 0.05), std::vector<int>{});
        v[7] = 0.3;
        v[12] = -1; // no data: never an outlier
        QCOMPARE(robustOutliers(v, 0.05), std::vector<int>{7});
    }

    // A 40-rank digest run shows the overview, its rows the timeline's entries, each with busy
    // shares read from the digests' BUSY pyramids (no report paged in); the straggler is the
    // demo's; clicking its row opens it in the timeline with its events.
    void overviewMarksTheStragglerAndOpensItsRank()
    {
        TimelineWorkspace w;
        w.resize(1366, 768);
        w.show();
        w.openPaths({m_digests});
        QVERIFY(waitIdle(w));
        QCOMPARE(w.scene()->entries.size(), size_t(40));
        ClusterOverview *o = w.overview()->overview();
        QVERIFY(o->isVisible());
        OverviewStrip *strip = o->strip();
        QCOMPARE(strip->data().rows.size(), size_t(40));
        for (size_t i = 0; i < 40; ++i) {
            QCOMPARE(strip->data().rows[i].entry, int(i));
            QVERIFY2(strip->data().rows[i].meanBusy > 0, qPrintable(strip->data().rows[i].label));
            QVERIFY(w.scene()->entries[i].report->isOutline());
        }
        const int straggler = entryOfRank(*w.scene(), m_demo.stragglerRank);
        QCOMPARE(strip->phases().stragglerEntry, straggler);
        QVERIFY(strip->isMarked(straggler));
        QVERIFY(
            o->summary()->text().contains(QStringLiteral("straggler ") + w.scene()->entries[size_t(straggler)].label));
        // The load is over: the straggler is final, red. While reports load it is provisional:
        // grey and said so, never red as if final (#38: r14, then r112).
        QVERIFY(!strip->phases().provisional);
        QVERIFY(!o->summary()->text().contains(QStringLiteral("provisional")));
        w.overview()->setLoading(true);
        QVERIFY(strip->phases().provisional);
        QVERIFY2(o->summary()->text().contains(QStringLiteral("provisional straggler ")),
                 qPrintable(o->summary()->text()));
        QVERIFY(!o->summary()->text().contains(QStringLiteral("#d32f2f")));
        QVERIFY(QColor::fromRgb(strip->stragglerColour()) != QColor(0xd3, 0x2f, 0x2f));
        w.overview()->setLoading(false);
        QVERIFY(!strip->phases().provisional);
        QCOMPARE(QColor::fromRgb(strip->stragglerColour()), QColor(0xd3, 0x2f, 0x2f));

        TimelineCanvas *c = w.canvas();
        QVERIFY(!headerOnScreen(*c, straggler) ||
                c->layout().rows()[size_t(c->layout().reportRowOf(straggler))].collapsed);
        const int64_t mid = strip->data().extent.start + strip->data().extent.duration() / 2;
        QTest::mouseClick(strip, Qt::LeftButton, {}, strip->pointOf(straggler, mid));
        QTRY_VERIFY_WITH_TIMEOUT(!w.scene()->entries[size_t(straggler)].report->isOutline(), 30000);
        QTRY_VERIFY(!w.overview()->navigator()->isPending());
        QVERIFY(headerOnScreen(*c, straggler));
        QVERIFY(c->window().contains(mid));
    }

    // Go to Rank names a rank by group:rank, rank number or pid; a wrong name says so.
    void goToRankFindsGroupRankAndPid()
    {
        TimelineWorkspace w;
        w.resize(1366, 768);
        w.show();
        w.openPaths({m_digests});
        QVERIFY(waitIdle(w));
        const std::vector<RankTarget> targets = rankTargets(*w.scene());
        const int e17 = entryOfRank(*w.scene(), 17);
        QCOMPARE(findRank(targets, "ActorGroup:17"), e17);
        QCOMPARE(findRank(targets, " actorgroup:17 "), e17);
        QCOMPARE(findRank(targets, "17"), e17);
        QCOMPARE(findRank(targets, QStringLiteral("pid %1").arg(m_demo.reports[17].pid)), e17);
        QCOMPARE(findRank(targets, QString::number(m_demo.reports[17].pid)), e17);
        QCOMPARE(findRank(targets, targets[size_t(e17)].text), e17); // a completion line
        QString why;
        QCOMPARE(findRank(targets, "ActorGroup:400", &why), -1);
        QVERIFY(why.contains("No rank matches"));

        // Typed into the dialog, Enter goes, though the completion list is open under the field.
        GoToRankDialog dialog(*w.scene(), &w);
        QAbstractItemView *list = typeIntoGoToRank(dialog, "ActorGroup:17");
        QVERIFY(list);
        QTest::keyClick(list, Qt::Key_Return);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.chosenEntry(), e17);
        // A line picked with the arrows: that line's rank.
        GoToRankDialog picked(*w.scene(), &w);
        QAbstractItemView *lines = typeIntoGoToRank(picked, "ActorGroup:1");
        QVERIFY(lines);
        QTest::keyClick(lines, Qt::Key_Down);
        const QString first = lines->currentIndex().data().toString();
        QVERIFY(first.startsWith("ActorGroup:1"));
        QTest::keyClick(lines, Qt::Key_Return);
        QCOMPARE(picked.result(), int(QDialog::Accepted));
        QCOMPARE(rankTargets(*w.scene())[size_t(picked.chosenEntry())].text, first);

        // Through the navigator as the dialog does: the rank's header comes on screen.
        w.overview()->navigator()->goTo(e17);
        QTRY_VERIFY_WITH_TIMEOUT(!w.overview()->navigator()->isPending(), 30000);
        QVERIFY(headerOnScreen(*w.canvas(), entryOfRank(*w.scene(), 17)));
    }

    // A phase-table cell of a rank opened as an outline: its events are paged in and the
    // phase's range is selected on that rank.
    void phaseCellPagesTheReportIn()
    {
        TimelineWorkspace w;
        w.resize(1366, 768);
        w.show();
        w.openPaths({m_digests});
        QVERIFY(waitIdle(w));
        PhasesPane *pane = w.phasesPane();
        w.findChild<QTabWidget *>()->setCurrentWidget(pane);
        QVERIFY(pane->model()->rowCount() > 0);
        const int column = 23; // a rank's column
        const auto &table = pane->shownTable();
        QVERIFY(table.rows[0].cells[size_t(column)].present);
        const int entry = pane->shownEntries()[table.columns[size_t(column)].report];
        QVERIFY(w.scene()->entries[size_t(entry)].report->isOutline());
        const QModelIndex index = pane->model()->index(0, PhasesPane::kFirstRankColumn + column);
        pane->table()->scrollTo(index);
        QTest::mouseClick(pane->table()->viewport(), Qt::LeftButton, {}, pane->table()->visualRect(index).center());
        QTRY_VERIFY_WITH_TIMEOUT(w.canvas()->selection().has_value(), 30000);
        const auto sel = *w.canvas()->selection();
        const TimelineEntry &e = w.scene()->entries[size_t(sel.entry)];
        QVERIFY(!e.report->isOutline());
        QCOMPARE(e.report->report().identity.rank, table.columns[size_t(column)].rank);
        QCOMPARE(e.report->store().track(sel.ref.track).start(sel.ref.index),
                 table.rows[0].cells[size_t(column)].startNs);
    }
};

QTEST_MAIN(TestClusterOverview)
#include "tst_clusteroverview.moc"
