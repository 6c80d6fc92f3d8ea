// The main window shell: workspaces, menus, routing of opened and dropped paths, recent files,
// and the headless screenshot.
#include "app/gui/mainwindow.h"
#include "app/gui/screenshot.h"
#include "core/trace/persist/tracecache.h"
#include "core/trace/read/traceloader.h"
#include "tests/support/envguard.h"
#include "views/common/emptystate.h"
#include "views/config/configsession.h"
#include "views/config/configurepanels.h"
#include "views/config/configureworkspace.h"
#include "views/config/intlistfield.h"
#include "views/config/stepseditor.h"
#include "views/timeline/keyhelp.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineworkspace.h"

#include <QApplication>
#include <QDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTreeWidget>
#include <QtTest>

using ps::app::MainWindow;

namespace {
QStringList menuTitles(const QMenuBar *bar)
{
    QStringList titles;
    for (QAction *a : bar->actions())
        titles << a->text().remove('&');
    return titles;
}
QAction *findAction(QWidget *root, const QString &text)
{
    for (QAction *a : root->findChildren<QAction *>())
        if (a->text().remove('&') == text)
            return a;
    return nullptr;
}
const QString kSample = QStringLiteral(PS_TESTDATA_DIR "/traces/nsys/extrap__concurrent.s1.sqlite");
const QString kConfig = QStringLiteral(PS_TESTDATA_DIR "/configs/expected/hydra-023-merge-deep-dict/conf/config.yaml");
} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
        QCoreApplication::setOrganizationName("ProfStudioTest");
        QCoreApplication::setApplicationName("tst_mainwindow");
        QSettings().clear();
    }

    void hasWorkspacesAndMenus()
    {
        MainWindow w;
        auto *tabs = w.findChild<QTabWidget *>();
        QVERIFY(tabs);
        QCOMPARE(tabs->count(), 2);
        QCOMPARE(tabs->tabText(0), QString("Configure"));
        QCOMPARE(tabs->tabText(1), QString("Timeline"));
        QCOMPARE(menuTitles(w.menuBar()), (QStringList{"File", "Edit", "View", "Help"}));
        for (const char *a :
             {"Open Reports…", "Open Config…", "Open Recent", "Quit", "Keyboard Shortcuts", "About ProfStudio"})
            QVERIFY2(findAction(&w, a), a);
        QVERIFY(w.statusBar());
    }

    // Edit offers the shown workspace's own actions: Undo/Redo (Redo also on Ctrl+Y) in
    // Configure, Find in Timeline.
    void editMenuFollowsTheWorkspace()
    {
        MainWindow w;
        auto *edit = w.findChild<QMenu *>("editMenu");
        QVERIFY(edit);
        w.showWorkspace("Configure");
        QMetaObject::invokeMethod(edit, "aboutToShow");
        QStringList texts;
        for (QAction *a : edit->actions())
            texts << a->text();
        QCOMPARE(texts, (QStringList{"Undo", "Redo"}));
        QVERIFY(edit->actions()[1]->shortcuts().contains(QKeySequence("Ctrl+Y")));
        w.showWorkspace("Timeline");
        QMetaObject::invokeMethod(edit, "aboutToShow");
        QCOMPARE(edit->actions().size(), 2); // Find… and Go to Rank…
        QCOMPARE(edit->actions()[0]->shortcut(), QKeySequence(QKeySequence::Find));
        QCOMPARE(edit->actions()[1]->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_G));
    }

    // The sheet lists the menus' shortcuts (read from the menus) and the canvas controls.
    void keyboardShortcutsSheet()
    {
        MainWindow w;
        const QString html = w.shortcutsHtml();
        for (const char *text :
             {"Open Reports", "Ctrl+O", "Ctrl+Y", "Ctrl+Wheel", "Home / End", "Shift+Drag", "Timeline: Find"})
            QVERIFY2(html.contains(QString::fromUtf8(text)), text);
        findAction(&w, "Keyboard Shortcuts")->trigger();
        auto *dialog = w.findChild<QDialog *>("shortcutsDialog");
        QVERIFY(dialog && dialog->isVisible());
        QVERIFY(!dialog->isModal()); // it stays open beside the work
        // Every row can be read: the view scrolls to the end of the sheet (a label clipped 3).
        auto *text = dialog->findChild<QTextBrowser *>("shortcutsText");
        QVERIFY(text);
        QVERIFY(text->toPlainText().contains("Shift+Drag"));
        // Scrolled to its end, the sheet's last row is inside the view.
        text->verticalScrollBar()->setValue(text->verticalScrollBar()->maximum());
        const QString last = ps::views::timelineKeyHelp().last().action;
        const QTextCursor found = text->document()->find(last);
        QVERIFY2(!found.isNull(), qPrintable(last));
        QVERIFY2(text->viewport()->rect().contains(text->cursorRect(found)), qPrintable(last));
        QVERIFY(dialog->height() <= dialog->screen()->availableGeometry().height());
    }

    void viewShortcutsSwitchWorkspace()
    {
        MainWindow w;
        auto *tabs = w.findChild<QTabWidget *>();
        findAction(&w, "Timeline")->trigger();
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QString("Timeline"));
        findAction(&w, "Configure")->trigger();
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QString("Configure"));
    }

    // A first launch opens on a page that offers the demo, reports, a session and a config, and
    // names every format; the demo button writes the demo run and opens it.
    void firstLaunchInvitesAndOpensTheDemo()
    {
        QSettings().clear();
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        auto *tabs = w.findChild<QTabWidget *>();
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QString("Timeline"));
        auto *timeline = qobject_cast<ps::views::TimelineWorkspace *>(w.workspace("Timeline"));
        QVERIFY(timeline->emptyState()->isVisible());
        QString text;
        for (const QLabel *l : timeline->emptyState()->findChildren<QLabel *>())
            text += l->text();
        for (const char *format : {".nsys-rep", ".sqlite", "rocpd", "Ascend", "Kineto", ".json.gz"})
            QVERIFY2(text.contains(format), format);
        for (const char *id : {"open-demo", "open-reports", "open-folder", "open-session", "configure"})
            QVERIFY2(timeline->emptyState()->findChild<QPushButton *>(id), id);
        for (const char *a : {"Open the Demo Run", "Open Session…", "Save Session…", "Close All Reports"})
            QVERIFY2(findAction(&w, a), a);

        QTest::mouseClick(timeline->emptyState()->findChild<QPushButton *>("configure"), Qt::LeftButton);
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QString("Configure"));

        QSignalSpy opened(&w, &MainWindow::demoOpened);
        QTest::mouseClick(timeline->emptyState()->findChild<QPushButton *>("open-demo"), Qt::LeftButton);
        QVERIFY(opened.wait(60000));
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QString("Timeline"));
        QVERIFY(QTest::qWaitFor([&] { return !timeline->isBusy() && timeline->reports().size() == 8; }, 60000));
        QVERIFY(opened.front().front().toString().startsWith(MainWindow::demoRunDir()));
        // One ProfStudio folder, not the organisation's and the application's (#38).
        QVERIFY2(MainWindow::demoRunDir().endsWith("/ProfStudio/demo-run") &&
                     !MainWindow::demoRunDir().contains("ProfStudio/ProfStudio"),
                 qPrintable(MainWindow::demoRunDir()));
        QVERIFY(w.minimumSizeHint().width() <= 1280 && w.minimumSizeHint().height() <= 720);
    }

    // The window fits a 1280x720 laptop at every step of the journeys users take: first launch,
    // an RLinf config edited (invalid text included), a verl config, a mix of real traces, bad
    // files, and every Configure tab shown.
    void windowFitsALaptopThroughTheJourneys()
    {
        QSettings().clear();
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QStringList steps;
        const auto check = [&](const QString &step) {
            QCoreApplication::processEvents();
            const QSize hint = w.minimumSizeHint().expandedTo(w.minimumSize());
            if (hint.width() > 1280 || hint.height() > 720)
                steps << QString("%1: %2x%3").arg(step).arg(hint.width()).arg(hint.height());
        };
        const auto idle = [&](const char *workspace) {
            return QTest::qWaitFor([&] { return !w.workspace(workspace)->isBusy(); }, 60000);
        };
        check("first launch");
        const QString rlinf = PS_TESTDATA_DIR "/configs/rlinf-with-profile/examples/embodiment/config";
        w.openPaths({rlinf + "/maniskill_ppo_mlp.yaml"});
        QVERIFY(idle("Configure"));
        check("RLinf config");
        auto *cfg = qobject_cast<ps::views::ConfigureWorkspace *>(w.workspace("Configure"));
        for (int i = 0; i < 6; ++i) { // edits lengthen the undo text
            cfg->session()->setValue(
                "cluster.profiling.output_dir",
                ps::core::config::Node::string("/very/long/output/dir/" + std::string(40 * i, 'x')));
            QVERIFY(idle("Configure"));
        }
        check("RLinf edits");
        QLineEdit *stepsField = cfg->panels()->panel<ps::views::StepsEditor>("rlinfSteps")->field();
        stepsField->setFocus();
        QTest::keyClicks(stepsField, "0,x,9-3");
        QTest::keyClick(stepsField, Qt::Key_Return);
        QVERIFY(idle("Configure"));
        check("invalid steps");
        for (int tab = 0; tab < cfg->panels()->count(); ++tab) {
            cfg->panels()->setCurrentIndex(tab);
            check("Configure tab " + cfg->panels()->tabText(tab));
        }
        w.openPaths({PS_TESTDATA_DIR "/configs/verl/verl/trainer/config/ppo_trainer.yaml"});
        QVERIFY(idle("Configure"));
        check("verl config");
        w.openPaths({PS_TESTDATA_DIR "/traces/nsys/dlprof__nsys_profile.sqlite",
                     PS_TESTDATA_DIR "/traces/ascend/msinsight__level1__rank0__ascend_pytorch_profiler_0.db",
                     PS_TESTDATA_DIR "/traces/kineto/hta__trace_filter__sampled_rank-0.json.gz"});
        QVERIFY(idle("Timeline"));
        check("mixed traces");
        QTemporaryDir dir;
        QFile bad(dir.filePath("truncated.sqlite"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("SQLite format 3");
        bad.close();
        w.openPaths({bad.fileName()});
        QVERIFY(idle("Timeline"));
        check("bad file");
        QVERIFY2(steps.isEmpty(), qPrintable(steps.join("; ")));
    }

    // The first window, frame included, inside the screen's available area: the status bar,
    // where load summaries and failures are said, is on screen.
    void firstWindowFitsTheScreenWithItsFrame()
    {
        QSettings().clear();
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QRect available = w.screen()->availableGeometry();
        QVERIFY2(w.frameGeometry().size() != w.size(),
                 "the platform gives windows no frame"); // else this proves nothing
        // The height is what hid the status bar; the width is the screen's too unless the window's
        // minimum is wider (the offscreen screen is 800 px wide).
        QTRY_VERIFY2(w.frameGeometry().bottom() <= available.bottom() &&
                         (available.contains(w.frameGeometry()) || w.width() == w.minimumSizeHint().width()),
                     qPrintable(QString("frame %1x%2 at %3,%4 on %5x%6")
                                    .arg(w.frameGeometry().width())
                                    .arg(w.frameGeometry().height())
                                    .arg(w.frameGeometry().x())
                                    .arg(w.frameGeometry().y())
                                    .arg(available.width())
                                    .arg(available.height())));
        const QRect status(w.statusBar()->mapToGlobal(QPoint(0, 0)), w.statusBar()->size());
        QVERIFY(status.bottom() <= available.bottom());
    }

    // After a load, whichever way it came, the keys work on the timeline; File > Close Run lists
    // the open runs and closes one.
    void loadFocusesTheTimelineAndFileClosesRuns()
    {
        QSettings().clear();
        MainWindow w;
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        auto *timeline = qobject_cast<ps::views::TimelineWorkspace *>(w.workspace("Timeline"));
        w.openPaths({kSample});
        QVERIFY(QTest::qWaitFor([&] { return !timeline->isBusy(); }, 60000));
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(timeline->canvas()));
        QVERIFY(!timeline->runNames().isEmpty());
        auto *closeRun = w.findChild<QMenu *>("fileCloseRunMenu");
        QVERIFY(closeRun);
        emit closeRun->aboutToShow();
        QCOMPARE(closeRun->actions().size(), timeline->runNames().size());
        closeRun->actions().first()->trigger();
        QVERIFY(QTest::qWaitFor([&] { return !timeline->isBusy(); }, 60000));
        QVERIFY(timeline->reports().empty());
        emit closeRun->aboutToShow();
        QVERIFY(!closeRun->actions().first()->isEnabled()); // "No runs open"
    }

    void openRoutesByKind()
    {
        MainWindow w;
        auto *tabs = w.findChild<QTabWidget *>();
        w.openPaths({kConfig});
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QString("Configure"));
        auto *cfg = qobject_cast<ps::views::ConfigureWorkspace *>(w.workspace("Configure"));
        QCOMPARE(cfg->currentPath(), QFileInfo(kConfig).absoluteFilePath());
        w.openPaths({kSample});
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QString("Timeline"));
    }

    // `profstudio --tab "RL Phases" RUN` opens on that tab of the workspace the files went to.
    void showTabPicksTheCurrentWorkspacesTab()
    {
        MainWindow w;
        w.openPaths({kSample});
        auto *timeline = w.workspace("Timeline");
        QVERIFY(w.showTab(QStringLiteral("RL Phases")));
        bool shown = false;
        for (QTabWidget *tabs : timeline->findChildren<QTabWidget *>())
            shown = shown || tabs->tabText(tabs->currentIndex()).remove('&').startsWith("RL Phases");
        QVERIFY(shown);
        QVERIFY(!w.showTab(QStringLiteral("No Such Tab")));
        w.openPaths({kConfig});
        QVERIFY(!w.showTab(QStringLiteral("RL Phases"))); // Configure's tabs are its own
    }

    void unknownFileIsReportedNotOpened()
    {
        MainWindow w;
        QTemporaryDir dir;
        const QString f = dir.filePath("notes.txt");
        QFile file(f);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("x");
        file.close();
        w.openPaths({f});
        QVERIFY(w.statusBar()->currentMessage().contains("notes.txt"));
    }

    void dropOpensFiles()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(kConfig)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &drop);
        auto *cfg = qobject_cast<ps::views::ConfigureWorkspace *>(w.workspace("Configure"));
        QCOMPARE(cfg->currentPath(), QFileInfo(kConfig).absoluteFilePath());
    }

    void recentMenuListsOpenedFiles()
    {
        QSettings().clear();
        {
            MainWindow w;
            w.openPaths({kConfig});
        }
        MainWindow w2;
        QMenu *recent = nullptr;
        for (QMenu *m : w2.findChildren<QMenu *>())
            if (m->title().remove('&') == "Open Recent")
                recent = m;
        QVERIFY(recent);
        bool found = false;
        for (QAction *a : recent->actions())
            found = found || a->text().contains("config.yaml");
        QVERIFY(found);
    }

    // File > Clear Report Cache empties the cache directory (here $PROFSTUDIO_CACHE_DIR) and
    // says what it freed; files that are not caches stay.
    void clearReportCache()
    {
        QTemporaryDir cacheDir;
        const ps::test::EnvGuard cacheEnv("PROFSTUDIO_CACHE_DIR", cacheDir.path().toLocal8Bit());
        ps::core::trace::LoadOptions opt;
        opt.threads = 1;
        const auto loaded = ps::core::trace::loadReports({kSample.toStdString()}, opt);
        QCOMPARE(loaded.reports.size(), size_t(1));
        QFile notes(cacheDir.filePath("notes.txt"));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.close();
        QCOMPARE(ps::core::trace::TraceCache().files().size(), size_t(1));
        MainWindow w;
        bool inMenu = false;
        for (QAction *a : w.findChildren<QAction *>())
            inMenu = inMenu || a->text().remove('&').startsWith("Clear Report Cache");
        QVERIFY(inMenu);
        QCOMPARE(w.clearReportCache(false), 1);
        QVERIFY(ps::core::trace::TraceCache().files().empty());
        QVERIFY(QFile::exists(cacheDir.filePath("notes.txt")));
        QVERIFY2(w.statusBar()->currentMessage().startsWith("Freed "), qPrintable(w.statusBar()->currentMessage()));
        QCOMPARE(w.clearReportCache(false), 0);
        QVERIFY(w.statusBar()->currentMessage().contains("empty"));
    }

    void geometryIsRestored()
    {
        {
            MainWindow w;
            w.resize(900, 640);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.close();
        }
        MainWindow w2;
        QCOMPARE(w2.size(), QSize(900, 640));
    }

    void screenshotWritesPng()
    {
        QTemporaryDir dir;
        MainWindow w;
        ps::app::ScreenshotRequest req{"timeline", dir.filePath("shot.png"), "800x600", {kSample}, {}};
        QCOMPARE(ps::app::runScreenshot(w, req), 0);
        QImage img(dir.filePath("shot.png"));
        QCOMPARE(img.size(), QSize(800, 600));
    }

    void screenshotRejectsBadUsage()
    {
        MainWindow w;
        QCOMPARE(ps::app::runScreenshot(w, {"nosuch", "/tmp/x.png", "800x600", {}, {}}), 2);
        QCOMPARE(ps::app::runScreenshot(w, {"timeline", "", "800x600", {}, {}}), 2);
        QCOMPARE(ps::app::runScreenshot(w, {"timeline", "/tmp/x.png", "big", {}, {}}), 2);
        QCOMPARE(ps::app::runScreenshot(w, {"timeline", "/tmp/x.png", "800x600", {}, "No Such Tab"}), 2);
        // A path that does not exist is an error, and nothing is written.
        QTemporaryDir dir;
        const QString out = dir.filePath("missing.png");
        QCOMPARE(ps::app::runScreenshot(w, {"timeline", out, "800x600", {dir.filePath("no/such/run")}, {}}), 2);
        QVERIFY(!QFileInfo::exists(out));
    }

    // With --config-name the arguments are the config's overrides, not files: the shot is taken
    // with them applied (a check for missing files once refused every override).
    void screenshotOfAConfigTakesItsOverrides()
    {
        QTemporaryDir dir;
        MainWindow w;
        const QString out = dir.filePath("configure.png");
        const ps::app::ScreenshotConfig config{{QStringLiteral(PS_TESTDATA_DIR "/configs/verl/verl/trainer/config")},
                                               "ppo_trainer"};
        QCOMPARE(ps::app::runScreenshot(w, {"configure", out, "1366x768", {"global_profiler.tool=nsys"}, {}}, config),
                 0);
        QCOMPARE(QImage(out).size(), QSize(1366, 768));
        auto *cfg = qobject_cast<ps::views::ConfigureWorkspace *>(w.workspace("Configure"));
        QVERIFY(cfg && cfg->result() && cfg->result()->composed);
        QCOMPARE(cfg->session()->allOverrides(), std::vector<std::string>{"global_profiler.tool=nsys"});
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
