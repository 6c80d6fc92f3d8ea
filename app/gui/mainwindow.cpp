#include "app/gui/mainwindow.h"

#include "core/demo/demorun.h"
#include "core/trace/persist/tracecache.h"
#include "core/version.h"
#include "views/common/filedialogs.h"
#include "views/common/latestjob.h"
#include "views/common/recentfiles.h"
#include "views/common/workspace.h"
#include "views/config/configureworkspace.h"
#include "views/timeline/imageexport.h"
#include "views/timeline/keyhelp.h"
#include "views/timeline/timelineview.h"
#include "views/timeline/timelineworkspace.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QGuiApplication>
#include <QInputDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace ps::app {

namespace {
const char kConfigFilter[] = "Hydra configs (*.yaml *.yml);;All files (*)";

// Nine tenths of a desktop's screen, at least 1400x860 (a timeline wants the width: at 1920x1080
// that is 1728x972); on a smaller screen (a 1366x768 laptop) the available area, so that the
// first window fits without being dragged or maximised (the frame is taken off once it is known:
// fitFrameToScreen).
QSize defaultSize()
{
    QSize size(1400, 860);
    if (const QScreen *screen = QGuiApplication::primaryScreen()) {
        const QSize available = screen->availableGeometry().size();
        size = size.expandedTo(available * 0.9).boundedTo(available);
    }
    return size;
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_recentReports(std::make_unique<views::RecentFiles>("recent/reports")),
      m_recentConfigs(std::make_unique<views::RecentFiles>("recent/configs"))
{
    setWindowTitle("ProfStudio");
    setWindowIcon(QIcon(":/icons/profstudio.svg"));
    setAcceptDrops(true);

    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    setCentralWidget(m_tabs);

    createMenus();
    addWorkspace(new views::ConfigureWorkspace(this), "Ctrl+1");
    addWorkspace(new views::TimelineWorkspace(this), "Ctrl+2");

    statusBar()->showMessage("Ready — open reports or a config, or drop them on the window");

    QSettings settings;
    if (!restoreGeometry(settings.value("window/geometry").toByteArray())) {
        resize(defaultSize());
        m_fitFrame = true; // a size of ours: the frame comes off it once known
    }
    restoreState(settings.value("window/state").toByteArray());
    // The first launch opens on the Timeline's start page: the demo, reports, a session or a
    // config are all one click from there.
    const QString last = settings.value("window/workspace").toString();
    showWorkspace(last.isEmpty() ? QStringLiteral("Timeline") : last);
}

MainWindow::~MainWindow() = default;

void MainWindow::addWorkspace(views::Workspace *w, const QString &shortcut)
{
    m_workspaces << w;
    m_tabs->addTab(w, w->title());
    QAction *a = m_viewMenu->addAction(w->title(), this, [this, w] { m_tabs->setCurrentWidget(w); });
    a->setShortcut(QKeySequence(shortcut));
    connect(w, &views::Workspace::statusMessage, this,
            [this](const QString &text, int timeoutMs) { statusBar()->showMessage(text, timeoutMs); });
    connect(w, &views::Workspace::workspaceRequested, this, &MainWindow::showWorkspace);
    if (auto *timeline = qobject_cast<views::TimelineWorkspace *>(w))
        connect(timeline, &views::TimelineWorkspace::demoRequested, this, &MainWindow::openDemoRun);
    connect(w, &views::Workspace::openedPath, this, [this, w](const QString &path) {
        const bool isConfig = qobject_cast<views::ConfigureWorkspace *>(w) != nullptr;
        (isConfig ? m_recentConfigs : m_recentReports)->add(path);
        rebuildRecentMenu();
    });
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu("&File");
    file->addAction("Open &Reports…", QKeySequence::Open, this, &MainWindow::openReportsDialog);
    file->addAction("Open Report &Folder…", QKeySequence("Ctrl+Shift+O"), this, &MainWindow::openFolderDialog);
    file->addAction("Open &Config…", QKeySequence("Ctrl+Alt+O"), this, &MainWindow::openConfigDialog);
    m_recentMenu = file->addMenu("Open &Recent");
    rebuildRecentMenu();
    file->addAction("Open the &Demo Run", this, &MainWindow::openDemoRun);
    file->addSeparator();
    const auto timeline = [this] { return qobject_cast<views::TimelineWorkspace *>(workspace("Timeline")); };
    file->addAction("Open &Session…", this, [this, timeline] {
        showWorkspace("Timeline");
        timeline()->showOpenSessionDialog();
    });
    file->addAction("Sa&ve Session…", QKeySequence::Save, this, [timeline] { timeline()->showSaveSessionDialog(); });
    // The runs open now, one Close action each (also on a run header's right-click menu).
    QMenu *closeRun = file->addMenu("Close R&un");
    closeRun->setObjectName("fileCloseRunMenu");
    connect(closeRun, &QMenu::aboutToShow, this, [closeRun, timeline] {
        closeRun->clear();
        const QStringList runs = timeline()->runNames();
        for (const QString &run : runs)
            closeRun->addAction(run.isEmpty() ? "(reports without a run folder)" : run, timeline(),
                                [timeline, run] { timeline()->closeRun(run); });
        if (runs.isEmpty())
            closeRun->addAction("No runs open")->setEnabled(false);
    });
    file->addAction("Close All &Reports", this, [timeline] { timeline()->closeAll(); });
    file->addAction("Export &Image…", this, [this, timeline] {
        showWorkspace("Timeline");
        exportTimelineImage(timeline()->view());
    });
    file->addSeparator();
    file->addAction("Clear Report &Cache…", this, [this] { clearReportCache(); });
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

    // The shown workspace's own actions (Undo/Redo, Find), so shortcuts and menu never disagree.
    QMenu *edit = menuBar()->addMenu("&Edit");
    edit->setObjectName("editMenu");
    connect(edit, &QMenu::aboutToShow, this, [this, edit] {
        edit->clear();
        const auto *ws = qobject_cast<views::Workspace *>(m_tabs->currentWidget());
        const QList<QAction *> actions = ws ? ws->editActions() : QList<QAction *>{};
        edit->addActions(actions);
        if (actions.isEmpty())
            edit->addAction("Nothing to edit here")->setEnabled(false);
    });

    m_viewMenu = menuBar()->addMenu("&View");
    QAction *fullScreen = m_viewMenu->addAction("&Full Screen", QKeySequence::FullScreen, this,
                                                [this](bool on) { on ? showFullScreen() : showNormal(); });
    fullScreen->setCheckable(true);
    m_viewMenu->addSeparator();

    QMenu *help = menuBar()->addMenu("&Help");
    help->addAction("&Keyboard Shortcuts", QKeySequence::HelpContents, this, &MainWindow::showShortcuts);
    help->addAction("&About ProfStudio", this, &MainWindow::showAbout);
    help->addAction("About &Qt", qApp, &QApplication::aboutQt);
}

int MainWindow::clearReportCache(bool ask)
{
    const core::trace::TraceCache cache;
    const QString dir = QString::fromStdString(cache.dir());
    if (ask) {
        // What clear() would remove, said before anything goes.
        const core::trace::CachePruneResult preview = cache.clear(/*dryRun=*/true);
        if (preview.removed.empty()) {
            statusBar()->showMessage(preview.errors.empty() ? "The report cache is empty (" + dir + ")"
                                                            : QString::fromStdString(preview.errors.front()),
                                     5000);
            return 0;
        }
        const QString question =
            QString("Remove %1 cached report file(s), %2, from %3? Reports open again from "
                    "their files, more slowly the first time.")
                .arg(preview.removed.size())
                .arg(QString::fromStdString(core::trace::formatByteSize(preview.bytesFreed())), dir);
        if (QMessageBox::question(this, "Clear Report Cache", question) != QMessageBox::Yes)
            return 0;
    }
    const core::trace::CachePruneResult r = cache.clear();
    QString msg = r.removed.empty() ? "The report cache is empty (" + dir + ")"
                                    : QString("Freed %1 in %2 file(s) of the report cache")
                                          .arg(QString::fromStdString(core::trace::formatByteSize(r.bytesFreed())))
                                          .arg(r.removed.size());
    if (!r.errors.empty())
        msg += QString("; %1 problem(s): %2").arg(r.errors.size()).arg(QString::fromStdString(r.errors[0]));
    statusBar()->showMessage(msg, 8000);
    return int(r.removed.size());
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    auto addSection = [this](const QString &heading, const QStringList &entries) {
        if (entries.isEmpty())
            return;
        m_recentMenu->addSection(heading);
        for (const QString &p : entries)
            m_recentMenu->addAction(QFileInfo(p).fileName() + "  —  " + QFileInfo(p).absolutePath(), this,
                                    [this, p] { openPaths({p}); });
    };
    addSection("Reports", m_recentReports->entries());
    addSection("Configs", m_recentConfigs->entries());
    if (m_recentMenu->isEmpty()) {
        m_recentMenu->addAction("No recent files")->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    m_recentMenu->addAction("Clear Recent", this, [this] {
        m_recentReports->clear();
        m_recentConfigs->clear();
        rebuildRecentMenu();
    });
}

void MainWindow::openPaths(const QStringList &paths)
{
    QHash<views::Workspace *, QStringList> routed;
    QStringList rejected;
    for (const QString &p : paths) {
        views::Workspace *target = nullptr;
        for (views::Workspace *w : m_workspaces)
            if (w->accepts(p)) {
                target = w;
                break;
            }
        if (target)
            routed[target] << p;
        else
            rejected << QFileInfo(p).fileName();
    }
    for (views::Workspace *w : m_workspaces) {
        if (!routed.contains(w))
            continue;
        m_tabs->setCurrentWidget(w);
        w->openPaths(routed.value(w));
    }
    if (!rejected.isEmpty())
        statusBar()->showMessage("Not a report or config ProfStudio reads: " + rejected.join(", "), 8000);
}

bool MainWindow::showWorkspace(const QString &title)
{
    if (views::Workspace *w = workspace(title)) {
        m_tabs->setCurrentWidget(w);
        return true;
    }
    return false;
}

bool MainWindow::showTab(const QString &name)
{
    auto *ws = m_tabs->currentWidget();
    for (QTabWidget *tabs : ws ? ws->findChildren<QTabWidget *>() : QList<QTabWidget *>())
        for (int i = 0; i < tabs->count(); ++i) {
            const QString text = tabs->tabText(i).remove(QLatin1Char('&'));
            if (text == name || text.startsWith(name + QStringLiteral(" ("))) {
                tabs->setCurrentIndex(i);
                return true;
            }
        }
    return false;
}

views::Workspace *MainWindow::workspace(const QString &title) const
{
    for (views::Workspace *w : m_workspaces)
        if (w->title().compare(title, Qt::CaseInsensitive) == 0)
            return w;
    return nullptr;
}

void MainWindow::openReportsDialog()
{
    const QStringList files =
        views::openFileNames(this, "reports", "Open Reports", views::TimelineWorkspace::reportFileFilter());
    if (!files.isEmpty())
        openPaths(files);
}

void MainWindow::openFolderDialog()
{
    const QString dir = views::existingDirectory(this, "reports", "Open Report Folder");
    if (!dir.isEmpty())
        openPaths({dir});
}

QString MainWindow::demoRunDir()
{
    // ~/.local/share/ProfStudio/demo-run: the per-application location would name the
    // organisation and the application, both ProfStudio (…/ProfStudio/ProfStudio/demo-run).
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + "/ProfStudio/demo-run";
}

// Writes the demo run (8 ranks, 3 steps; about a second) in the background, then opens its
// reports. The same generator as `profstudio-cli demo`.
void MainWindow::openDemoRun()
{
    if (m_writingDemo)
        return;
    m_writingDemo = true;
    const QString dir = demoRunDir();
    statusBar()->showMessage("Writing the demo run to " + dir + "…");
    struct Outcome
    {
        core::demo::DemoResult result;
        std::string error;
    };
    const auto write = [dir](const views::CancelToken &) {
        core::demo::DemoOptions options;
        options.outDir = dir.toStdString();
        options.ranks = 8;
        options.steps = 3;
        Outcome o;
        core::demo::writeDemoRun(options, o.result, o.error);
        return o;
    };
    views::LatestJob<Outcome>::once(this, write, [this](const Outcome &o) {
        m_writingDemo = false;
        if (!o.error.empty()) {
            statusBar()->showMessage("Could not write the demo run: " + QString::fromStdString(o.error), 15000);
            return;
        }
        openPaths({QString::fromStdString(o.result.reportDir)});
        emit demoOpened(QString::fromStdString(o.result.reportDir));
    });
}

void MainWindow::openConfigDialog()
{
    const QString file = views::openFileName(this, "config", "Open Config", kConfigFilter);
    if (!file.isEmpty())
        openPaths({file});
}

// Every menu shortcut (read from the menus, so the sheet cannot go stale), the workspaces' edit
// actions, and the timeline's mouse and keys.
QString MainWindow::shortcutsHtml() const
{
    QString rows;
    const auto row = [&rows](const QString &keys, const QString &what) {
        rows += "<tr><td><b>" + keys.toHtmlEscaped() + "</b></td><td>" + what.toHtmlEscaped() + "</td></tr>";
    };
    const auto actionRow = [&row](const QAction *a, const QString &prefix) {
        if (a && !a->shortcuts().isEmpty())
            row(QKeySequence::listToString(a->shortcuts(), QKeySequence::NativeText),
                prefix + a->text().remove('&').remove(QChar(0x2026)));
    };
    const auto section = [&rows](const QString &title) {
        rows += "<tr><td colspan=2><h3>" + title + "</h3></td></tr>";
    };
    // The workspaces' edit actions are listed under their workspace, not where the Edit menu
    // happens to hold them now.
    QSet<const QAction *> editActions;
    for (const views::Workspace *w : m_workspaces)
        for (QAction *a : w->editActions())
            editActions.insert(a);
    section("Menus");
    std::function<void(const QList<QAction *> &)> collect = [&](const QList<QAction *> &actions) {
        for (QAction *a : actions) {
            if (a->menu())
                collect(a->menu()->actions());
            else if (!editActions.contains(a))
                actionRow(a, {});
        }
    };
    collect(menuBar()->actions());
    for (const views::Workspace *w : m_workspaces)
        for (QAction *a : w->editActions())
            actionRow(a, w->title() + ": ");
    section("Timeline");
    for (const views::KeyHelp &k : views::timelineKeyHelp())
        row(k.keys, k.action);
    return "<table cellspacing=4>" + rows + "</table>";
}

void MainWindow::showShortcuts()
{
    auto *dialog = findChild<QDialog *>("shortcutsDialog");
    if (!dialog) {
        dialog = new QDialog(this);
        dialog->setObjectName("shortcutsDialog");
        dialog->setWindowTitle("Keyboard Shortcuts");
        auto *layout = new QVBoxLayout(dialog);
        // A text view lays the table out itself and scrolls to its last row (a label in a scroll
        // area took a height too small for the wrapped rows and clipped the last ones).
        auto *text = new QTextBrowser(dialog);
        text->setObjectName("shortcutsText");
        text->setOpenLinks(false);
        text->setHtml(shortcutsHtml());
        layout->addWidget(text);
        auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
        connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
        layout->addWidget(buttons);
        const QRect screen = this->screen() ? this->screen()->availableGeometry() : QRect(0, 0, 1366, 768);
        dialog->resize(std::min(600, screen.width() - 40), std::min(700, screen.height() - 80));
    }
    dialog->show();
    dialog->raise();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, "About ProfStudio",
                       QString("<h3>ProfStudio %1</h3>"
                               "<p>Compose and check profiling configs for RLinf and verl, and view many "
                               "Nsight Systems, rocprof, Ascend and PyTorch profiler reports on one timeline.</p>"
                               "<p>Built with Qt %2 and QCustomPlot.</p>")
                           .arg(ps::core::versionString(), qVersion()));
}

// File > Export Image: the timeline view as PNG, at its size on screen or a common larger one.
void MainWindow::exportTimelineImage(views::TimelineView *view)
{
    QString file = views::saveFileName(this, "image", "Export Image", "timeline.png", "PNG images (*.png)");
    if (file.isEmpty())
        return;
    if (!file.endsWith(".png", Qt::CaseInsensitive))
        file += ".png";
    QStringList choices{QString("Size on screen (%1×%2)").arg(view->width()).arg(view->height())};
    const QList<QSize> sizes{QSize(), QSize(1920, 1080), QSize(2560, 1440), QSize(3840, 2160)}; // per choice
    for (qsizetype i = 1; i < sizes.size(); ++i)
        choices << QString("%1×%2").arg(sizes[i].width()).arg(sizes[i].height());
    bool ok = false;
    const QString choice = QInputDialog::getItem(this, "Export Image", "Image size", choices, 0, false, &ok);
    if (!ok)
        return;
    const QImage image = views::grabTimelineImage(view, sizes.value(choices.indexOf(choice)));
    // Encoding a PNG of up to 3840×2160 and writing it takes a while: not on the GUI thread.
    statusBar()->showMessage("Saving " + file + "…");
    views::LatestJob<QString>::once(
        this, [image, file](const views::CancelToken &) { return views::writeTimelineImage(image, file); },
        [this, file](const QString &error) {
            statusBar()->showMessage(error.isEmpty() ? "Saved " + file : "Export Image: " + error,
                                     error.isEmpty() ? 8000 : 0);
        });
}

// The window with its frame inside the screen's available area: under a window manager the
// frame (title bar, borders) is outside geometry(), and a window sized to the whole area would
// put the status bar, where load summaries and failures are said, below the screen's edge.
void MainWindow::fitFrameToScreen()
{
    const QScreen *screen = this->screen();
    if (!m_fitFrame || !isVisible())
        return;
    // A size the user restored or a caller set (a screenshot's) is theirs to keep.
    if (!screen || size() != defaultSize() || isMaximized() || isFullScreen()) {
        m_fitFrame = false;
        return;
    }
    // Fitted for good once the window manager has framed the window (the frame is known).
    if (frameGeometry() != geometry())
        m_fitFrame = false;
    const QRect available = screen->availableGeometry();
    const QRect frame = frameGeometry();
    if (available.contains(frame))
        return;
    const QSize margins = frame.size() - size(); // the frame's width and height around the client
    resize(size().boundedTo(available.size() - margins));
    // move() places the frame's top-left corner; keep what fits where it is. A window whose
    // minimum size exceeds the screen keeps its top-left corner on screen.
    const QSize outer = size() + margins;
    const auto within = [](int v, int lo, int hi) { return std::max(lo, std::min(v, hi)); };
    move(within(frame.left(), available.left(), available.right() + 1 - outer.width()),
         within(frame.top(), available.top(), available.bottom() + 1 - outer.height()));
}

// A window manager frames the window after it is shown, and moves or resizes it as it does.
void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    fitFrameToScreen();
}

void MainWindow::moveEvent(QMoveEvent *event)
{
    QMainWindow::moveEvent(event);
    fitFrameToScreen();
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    fitFrameToScreen();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    if (!paths.isEmpty()) {
        event->acceptProposedAction();
        openPaths(paths);
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    for (views::Workspace *w : m_workspaces) {
        if (!w->confirmClose()) {
            event->ignore();
            return;
        }
    }
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    if (auto *w = qobject_cast<views::Workspace *>(m_tabs->currentWidget()))
        settings.setValue("window/workspace", w->title());
    event->accept();
}

} // namespace ps::app
