// The Timeline workspace on a laptop (#38): the timeline gets most of a 1366x768 window's height,
// the event details fold into a strip and back, and what the user drags or folds is remembered
// for the screen size it was done on, not for every screen.
#include "app/gui/mainwindow.h"
#include "views/common/layoutmemory.h"
#include "views/common/problemsbanner.h"
#include "views/stats/crossrankchart.h"
#include "views/stats/statspane.h"
#include "views/timeline/detailsdock.h"
#include "views/timeline/detailspane.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineview.h"
#include "views/timeline/timelineworkspace.h"

#include <QAbstractButton>
#include <QLabel>
#include <QListWidget>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QtTest>

using ps::app::MainWindow;
using ps::views::DetailsDock;
using ps::views::LayoutMemory;
using ps::views::TimelineWorkspace;

namespace {

const QString kSample = QStringLiteral(PS_TESTDATA_DIR "/traces/nsys/extrap__concurrent.s1.sqlite");

// A main window at a laptop's size with a real report open on its timeline.
struct LaptopWindow
{
    MainWindow window;
    TimelineWorkspace *timeline = nullptr;

    explicit LaptopWindow(QSize size = {1366, 768})
    {
        window.resize(size);
        window.show();
        timeline = qobject_cast<TimelineWorkspace *>(window.workspace("Timeline"));
    }
    bool open()
    {
        window.openPaths({kSample});
        return QTest::qWaitFor([&] { return !timeline->isBusy() && timeline->reports().size() == 1; }, 60000) &&
               QTest::qWaitForWindowExposed(&window);
    }
    DetailsDock *dock() const { return timeline->findChild<DetailsDock *>(); }
    // The splitter of the timeline and the tabs below it.
    QSplitter *panes() const { return timeline->findChild<QSplitter *>(QStringLiteral("timelinePanes")); }
};

} // namespace

class TestLaptopLayout : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
        QCoreApplication::setOrganizationName("ProfStudioTest");
        QCoreApplication::setApplicationName("tst_laptoplayout");
    }
    void init() { QSettings().clear(); }

    void timelineGetsMostOfALaptopsHeight()
    {
        // A 768-px screen leaves the window 748 px under openbox's title bar (offscreen has none).
        LaptopWindow w({1366, 748});
        QVERIFY(w.open());
        QCoreApplication::processEvents();
        const int timeline = w.timeline->view()->height();
        // 60 % of the screen's height, the title bar's share included.
        QVERIFY2(timeline >= 0.6 * 768, qPrintable(QString("timeline %1 px of 768").arg(timeline)));
        qInfo("timeline %d px of a 768-px screen (%.0f %%)", timeline, 100.0 * timeline / 768);
        // The details take at most a fifth of the width; the canvas keeps the rest.
        QVERIFY2(w.dock()->width() <= 1366 / 5 + 8, qPrintable(QString::number(w.dock()->width())));
        QVERIFY(w.timeline->canvas()->width() >= 1366 * 3 / 4);
    }

    void aRangesChartLeavesTheTimelineItsHeight()
    {
        // Selecting a range shows it across ranks below the table: the chart sits beside the table,
        // not under it, so the tabs need no more height and the timeline keeps what it had.
        LaptopWindow w({1366, 748});
        QVERIFY(w.open());
        auto *stats = w.timeline->findChild<ps::views::StatsPane *>();
        QVERIFY(stats);
        auto *tabs = qobject_cast<QTabWidget *>(stats->parentWidget()->parentWidget());
        QVERIFY(tabs);
        tabs->setCurrentWidget(stats);
        QCoreApplication::processEvents();
        const int before = w.timeline->view()->height();
        stats->setKind(ps::core::trace::StatsKind::NvtxSum);
        QTRY_VERIFY(!stats->isBusy() && stats->table()->model()->rowCount() > 0);
        // One report is one, not "1 reports".
        QVERIFY2(stats->summary()->text().contains(QStringLiteral(" · 1 report · ")),
                 qPrintable(stats->summary()->text()));
        // Until a range is selected the table has the width: the names are readable.
        QVERIFY(!stats->chart()->isVisible());
        const int nameWidth = stats->table()->columnWidth(0);
        QVERIFY2(nameWidth >= 300, qPrintable(QString("the Name column is %1 px wide").arg(nameWidth)));
        stats->table()->selectRow(0); // as a click on the table's first range does
        QTRY_VERIFY(!stats->isBusy() && !stats->chart()->data().bars.empty());
        QCoreApplication::processEvents();
        auto *plot = stats->chart()->findChild<QWidget *>(QStringLiteral("crossRankPlot"));
        QTRY_VERIFY(stats->chart()->isVisible() && plot->isVisible() && plot->height() > 0);
        const int after = w.timeline->view()->height();
        qInfo("timeline %d px -> %d px with the chart shown (plot %d px)", before, after, plot->height());
        QVERIFY2(after >= before - 2 && after >= 0.6 * 768,
                 qPrintable(QString("timeline %1 px -> %2 px with the chart shown").arg(before).arg(after)));
    }

    void theBannersLongLinesWrapIntoView()
    {
        // A far-clock or load failure line is longer than a laptop's banner: it wraps, whole,
        // rather than scrolling sideways under a scroll bar that hides the second line.
        ps::views::ProblemsBanner banner;
        banner.resize(600, 200);
        const QString longLine = QStringLiteral("/runs/step3/rank7.nsys-rep: ") +
                                 QString("clock far away ").repeated(30) +
                                 QStringLiteral("— Session > Fit Far-Clock Reports Too");
        banner.setProblems(QStringLiteral("2 problems"), {longLine, longLine + QStringLiteral(" (2)")});
        banner.show();
        QVERIFY(QTest::qWaitForWindowExposed(&banner));
        auto *list = banner.findChild<QListWidget *>();
        QTRY_VERIFY(list->verticalScrollBar()->maximum() == 0); // both lines whole, nothing to scroll to
        QVERIFY(!list->horizontalScrollBar()->isVisible());
        QVERIFY2(list->height() > 4 * list->fontMetrics().height(), qPrintable(QString::number(list->height())));
        QVERIFY(list->height() < 200);
    }

    void detailsFoldIntoAStripAndBack()
    {
        LaptopWindow w;
        QVERIFY(w.open());
        DetailsDock *dock = w.dock();
        const int canvasBefore = w.timeline->canvas()->width();
        const int dockBefore = dock->width();
        QTest::mouseClick(dock->findChild<QToolButton *>("foldDetails"), Qt::LeftButton);
        QTRY_VERIFY(dock->width() <= 32);
        QVERIFY(dock->isFolded() && dock->strip()->isVisible() && !dock->pane()->isVisible());
        // The timeline takes the width the details gave up.
        QTRY_VERIFY2(w.timeline->canvas()->width() >= canvasBefore + dockBefore - 40,
                     qPrintable(QString("canvas %1 -> %2").arg(canvasBefore).arg(w.timeline->canvas()->width())));
        // The strip says what a click on it shows.
        QVERIFY(dock->strip()->toolTip().contains("Ctrl+Shift+D"));
        QTest::mouseClick(dock->strip(), Qt::LeftButton);
        QTRY_VERIFY(!dock->isFolded() && dock->pane()->isVisible());
        QTRY_VERIFY2(qAbs(dock->width() - dockBefore) <= 4,
                     qPrintable(QString("%1 -> %2").arg(dockBefore).arg(dock->width())));
        // The keyboard folds it too, wherever the focus is in the workspace.
        w.timeline->canvas()->setFocus();
        QTest::keyClick(w.timeline->canvas(), Qt::Key_D, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(dock->isFolded());
    }

    void layoutIsRememberedPerScreenSize()
    {
        QList<int> dragged;
        QSize screen;
        {
            LaptopWindow w;
            QVERIFY(w.open());
            QSplitter *panes = w.panes();
            QVERIFY(panes && panes->count() == 2);
            const int total = panes->sizes()[0] + panes->sizes()[1];
            panes->setSizes({total / 2, total - total / 2}); // as a drag of the handle leaves them
            emit panes->splitterMoved(total / 2, 1);
            dragged = panes->sizes();
            QTest::mouseClick(w.dock()->findChild<QToolButton *>("foldDetails"), Qt::LeftButton);
            QTRY_VERIFY(w.dock()->isFolded());
            screen = LayoutMemory::screenSizeOf(w.panes());
        }
        {
            LaptopWindow w; // the next session on the same screen
            QVERIFY(w.open());
            QTRY_COMPARE(w.panes()->sizes(), dragged);
            QVERIFY(w.dock()->isFolded());
        }
        // Another screen size has its own layout: the defaults until the user changes it there.
        QVERIFY(LayoutMemory::value("timeline.panes", screen).isValid());
        QVERIFY(!LayoutMemory::value("timeline.panes", screen + QSize(554, 312)).isValid());
        QVERIFY(!LayoutMemory::value("timeline.detailsFolded", screen + QSize(554, 312)).isValid());
        QCOMPARE(LayoutMemory::settingsKey("timeline.panes", {1920, 1080}), QString("layout/timeline.panes/1920x1080"));
        // Settings for another size change nothing here.
        LayoutMemory::setValue("timeline.detailsFolded", screen + QSize(554, 312), false);
        LaptopWindow w;
        QVERIFY(w.open());
        QTRY_VERIFY(w.dock()->isFolded());
    }
};

QTEST_MAIN(TestLaptopLayout)
#include "tst_laptoplayout.moc"
