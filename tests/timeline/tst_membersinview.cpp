// A collective's members on one laptop screen (#38): choosing an instance in the Collectives tab
// folds the reports to the height that fits every member, so that each arrow starts on screen,
// at 1366x768 on the 8- and 64-rank demo runs; "Restore the Rows" gives the layout back.
#include "core/demo/demorun.h"
#include "views/collectives/collectivesmodel.h"
#include "views/collectives/collectivespane.h"
#include "views/timeline/collectiveoverlay.h"
#include "views/timeline/detailspane.h"
#include "views/timeline/membersinview.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineworkspace.h"
#include "workspacewait.h"

#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using ps::test::waitIdle;
using ps::views::TimelineWorkspace;

namespace {

bool writeDemo(const QString &dir, int ranks)
{
    ps::core::demo::DemoOptions o;
    o.outDir = dir.toStdString();
    o.ranks = ranks;
    o.steps = 2;
    ps::core::demo::DemoResult result;
    std::string error;
    if (!ps::core::demo::writeDemoRun(o, result, error))
        qWarning("%s", error.c_str());
    return error.empty();
}

} // namespace

class TestMembersInView : public QObject
{
    Q_OBJECT
private slots:
    void arrowsStartOnScreenAtLaptopSize_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::newRow("8 ranks") << 8;
        QTest::newRow("64 ranks") << 64;
    }

    void arrowsStartOnScreenAtLaptopSize()
    {
        QFETCH(int, ranks);
        QTemporaryDir dir;
        QVERIFY(writeDemo(dir.path(), ranks));
        TimelineWorkspace w;
        w.resize(1366, 700); // a laptop's window below its menu and tool bars
        w.show();
        w.openPaths({dir.path() + "/profiling"});
        QVERIFY(waitIdle(w, 120000));
        QCOMPARE(int(w.reports().size()), ranks);
        ps::views::TimelineCanvas *canvas = w.canvas();
        const ps::views::TrackView before = canvas->trackView();

        ps::views::CollectivesPane *pane = w.collectivesPane();
        QTRY_VERIFY(!pane->isBusy() && pane->table()->model()->rowCount() > 0);
        pane->table()->selectRow(0);
        canvas->grab();
        const auto &arrows = canvas->collectiveOverlay().lastArrows();
        QVERIFY(!arrows.empty());
        for (const ps::views::DrawnArrow &a : arrows)
            QVERIFY2(canvas->rect().contains(a.line.p1().toPoint()) && canvas->rect().contains(a.line.p2().toPoint()),
                     qPrintable(QString("rank %1's arrow (%2,%3) -> (%4,%5) on a %6x%7 canvas")
                                    .arg(a.fromRank)
                                    .arg(a.line.x1())
                                    .arg(a.line.y1())
                                    .arg(a.line.x2())
                                    .arg(a.line.y2())
                                    .arg(canvas->width())
                                    .arg(canvas->height())));
        // Every member's row is on the screen, not only the ranks the arrows come from.
        const auto &inst = pane->collectiveView()->analysis.instances[size_t(
            pane->table()->currentIndex().data(ps::views::CollectivesModel::kInstanceRole).toInt())];
        std::set<int> members;
        for (const auto &m : inst.members)
            members.insert(pane->collectiveView()->entries[m.report]);
        QCOMPARE(int(members.size()), ranks);
        QVERIFY(ps::views::membersOnScreen(canvas->layout(), members, canvas->scrollY(), canvas->height()));

        // A fold by hand meanwhile ends the squeeze: the reports are drawn at a header's height.
        QVERIFY(ranks < 16 || canvas->trackView().foldedReportHeight > 0);
        canvas->toggleCollapsed(ps::views::RowLayout::reportKey(w.scene()->entries[0]));
        QCOMPARE(canvas->trackView().foldedReportHeight, 0);

        // One click back to the layout the user had.
        QPushButton *restore = w.findChild<QPushButton *>(QStringLiteral("restoreRows"));
        QVERIFY(restore && restore->isVisible());
        QTest::mouseClick(restore, Qt::LeftButton);
        QCOMPARE(canvas->trackView(), before);
        QVERIFY(!restore->isVisible());
    }
};

QTEST_MAIN(TestMembersInView)
#include "tst_membersinview.moc"
