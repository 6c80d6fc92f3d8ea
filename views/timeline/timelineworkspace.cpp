#include "views/timeline/timelineworkspace.h"

#include "core/trace/alignment.h"
#include "core/trace/formats/torchmemoryreader.h"
#include "core/trace/reportoutline.h"
#include "core/trace/tracestats.h"
#include "views/common/emptystate.h"
#include "views/common/filedialogs.h"
#include "views/common/latestjob.h"
#include "views/common/problemsbanner.h"
#include "views/common/recentfiles.h"
#include "views/overview/clusteroverview.h"
#include "views/stats/breakdownpane.h"
#include "views/stats/comparepane.h"
#include "views/stats/phasespane.h"
#include "views/stats/statspane.h"
#include "views/timeline/collectivewiring.h"
#include "views/timeline/detailspane.h"
#include "views/timeline/eventcopy.h"
#include "views/timeline/eventmenu.h"
#include "views/timeline/memorywiring.h"
#include "views/timeline/overviewcontroller.h"
#include "views/timeline/reportpager.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineloader.h"
#include "views/timeline/timelinesearchbar.h"
#include "views/timeline/timelinetoolbar.h"
#include "views/timeline/timelineview.h"
#include "views/timeline/timelineviewstate.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <numeric>

namespace ps::views {

using namespace ps::core::trace;

namespace {
const char kSessionFilter[] = "ProfStudio sessions (*.psession);;All files (*)";

} // namespace

TimelineWorkspace::TimelineWorkspace(QWidget *parent)
    : Workspace(parent), m_recentSessions(std::make_unique<RecentFiles>(QStringLiteral("recent/sessions")))
{
    m_loader = new TimelineLoader(this);
    createJobs();
    buildUi();
    connect(m_loader, &TimelineLoader::started, this, [this](int total) {
        m_progressRow->show();
        m_progress->setValue(0);
        m_progressText->setText(QStringLiteral("Loading %1 report(s)…").arg(total));
    });
    connect(m_loader, &TimelineLoader::progress, this, [this](double f, const QString &text) {
        m_progress->setValue(int(f * 1000));
        m_progressText->setText(text);
    });
    connect(m_loader, &TimelineLoader::reportsReady, this, &TimelineWorkspace::onReportsReady);
    connect(m_loader, &TimelineLoader::failed, this, [this](const QStringList &reasons) {
        m_failedCount = int(reasons.size());
        m_problems->addProblems(
            QStringLiteral("%1 file(s) could not be loaded; the others are open").arg(reasons.size()), reasons);
    });
    connect(m_loader, &TimelineLoader::filesCancelled, this, [this](const QStringList &paths) {
        m_cancelledCount = int(paths.size());
        QStringList lines;
        for (const QString &p : paths)
            lines << p + QStringLiteral(": cancelled, not loaded");
        m_problems->addProblems(
            QStringLiteral("Loading cancelled: %1 file(s) not loaded (open them again to load them)").arg(paths.size()),
            lines);
    });
    connect(m_loader, &TimelineLoader::nothingFound, this, [this](const QStringList &lines) {
        m_nothingFound = true;
        m_problems->addProblems(QStringLiteral("No reports found there"), lines);
        emit statusMessage(QStringLiteral("No reports: ") + lines.join(QStringLiteral("; ")), 0);
    });
    connect(m_loader, &TimelineLoader::finished, this, &TimelineWorkspace::onLoadFinished);
}

TimelineWorkspace::~TimelineWorkspace() = default;

void TimelineWorkspace::createJobs()
{
    m_alignJob = new LatestJob<AlignResult>(this, [this](const AlignResult &res) { applyAlignment(res); });
    m_overlayJob = new LatestJob<TimelineScene>(this, [this](const TimelineScene &scene) {
        if (scene.entries.empty() && m_overlay) // say why the canvas is empty
            emit statusMessage(QStringLiteral("Step overlay: no range named '%1' in this rank's reports (exact "
                                              "name, optionally NAME#K for the K-th occurrence)")
                                   .arg(m_overlay->second),
                               10000);
        applyScene(std::make_shared<TimelineScene>(scene));
    });
    m_searchJob = new LatestJob<SearchResult>(this, [this](const SearchResult &r) {
        m_searchResult = std::make_shared<SearchResult>(r);
        m_view->canvas()->setSearch(m_searchResult);
        updateMatchLabel();
    });
    for (LatestJobBase *job : jobs())
        connect(job, &LatestJobBase::busyChanged, this, [this] { emit busyChanged(isBusy()); });
}

std::array<LatestJobBase *, 3> TimelineWorkspace::jobs() const
{
    return {m_alignJob, m_overlayJob, m_searchJob};
}

void TimelineWorkspace::buildUi()
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_problems = new ProblemsBanner(this); // above both pages: an empty result still shows why
    layout->addWidget(m_problems);
    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack);
    buildEmptyState();
    m_main = new QWidget(m_stack);
    auto *mainLayout = new QVBoxLayout(m_main);
    mainLayout->setContentsMargins(0, 0, 0, 0);
    mainLayout->setSpacing(2);
    m_toolbar = new TimelineToolbar(m_main);
    m_search = m_toolbar->searchBar();
    mainLayout->addWidget(m_toolbar);
    mainLayout->addWidget(buildProgressRow());
    mainLayout->addWidget(buildPanes(), 1);
    m_stack->addWidget(m_main);

    m_statsDebounce = new QTimer(this);
    m_statsDebounce->setSingleShot(true);
    m_statsDebounce->setInterval(100);
    // Reports arrive one by one while loading; realigning (all reports, on a worker) and
    // rebuilding the scene at most every 50 ms keeps a load of N reports from doing it N times.
    m_realignThrottle = new QTimer(this);
    m_realignThrottle->setSingleShot(true);
    m_realignThrottle->setInterval(50);
    connect(m_realignThrottle, &QTimer::timeout, this, &TimelineWorkspace::realign);
    connectPanes();
    connectToolbar();
}

// The first page a new user sees: every way in, and every format ProfStudio reads.
void TimelineWorkspace::buildEmptyState()
{
    m_empty = new EmptyState(
        QStringLiteral("Open a run"),
        QStringLiteral("Line up the reports of a run on one time axis: one per worker and capture range, or a folder "
                       "that holds them. ProfStudio reads Nsight Systems (<code>.nsys-rep</code>, exported with "
                       "<code>nsys</code>, and its SQLite <code>.sqlite</code>), ROCm rocprofv3 databases "
                       "(rocpd <code>.db</code>), Ascend msprof / torch_npu databases (<code>.db</code>) and PyTorch "
                       "profiler (Kineto) traces (<code>.json</code>, <code>.json.gz</code>). Drop files or folders "
                       "on the window, or try the demo: an 8-rank RLinf run with a straggler."),
        m_stack);
    m_empty->addAction(QStringLiteral("open-demo"), QStringLiteral("Open the Demo Run"));
    m_empty->addAction(QStringLiteral("open-reports"), QStringLiteral("Open Reports…"));
    m_empty->addAction(QStringLiteral("open-folder"), QStringLiteral("Open Report Folder…"));
    m_empty->addAction(QStringLiteral("open-session"), QStringLiteral("Open Session…"));
    m_empty->addAction(QStringLiteral("configure"), QStringLiteral("Configure a Profiled Run (config or preset)…"));
    connect(m_empty, &EmptyState::triggered, this, [this](const QString &id) {
        if (id == QLatin1String("open-session"))
            showOpenSessionDialog();
        else if (id == QLatin1String("open-demo"))
            emit demoRequested();
        else if (id == QLatin1String("configure"))
            emit workspaceRequested(QStringLiteral("Configure"));
        else
            showOpenDialog(id == QLatin1String("open-folder"));
    });
    m_stack->addWidget(m_empty);
}

void TimelineWorkspace::showOpenSessionDialog()
{
    const QString f = openFileName(this, QStringLiteral("session"), QStringLiteral("Open Session"), kSessionFilter);
    if (!f.isEmpty())
        openSessionFile(f);
}

void TimelineWorkspace::showSaveSessionDialog()
{
    QString f = saveFileName(this, QStringLiteral("session"), QStringLiteral("Save Session"),
                             QStringLiteral("timeline.psession"), kSessionFilter);
    if (f.isEmpty())
        return;
    if (!isSessionFileName(f))
        f += QStringLiteral(".psession");
    saveSession(f);
}

// The progress row, shown while loading.
QWidget *TimelineWorkspace::buildProgressRow()
{
    m_progressRow = new QWidget(m_main);
    auto *pr = new QHBoxLayout(m_progressRow);
    pr->setContentsMargins(6, 0, 6, 0);
    m_progress = new QProgressBar(m_progressRow);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(12);
    m_progressText = new QLabel(m_progressRow);
    m_cancel = new QPushButton(QStringLiteral("Cancel"), m_progressRow);
    pr->addWidget(m_progressText);
    pr->addWidget(m_progress, 1);
    pr->addWidget(m_cancel);
    m_progressRow->hide();
    return m_progressRow;
}

// The timeline beside the details pane, over the stats pane.
QWidget *TimelineWorkspace::buildPanes()
{
    auto *vsplit = new QSplitter(Qt::Vertical, m_main);
    auto *hsplit = new QSplitter(Qt::Horizontal, vsplit);
    // A large run's cluster overview above the timeline (overviewcontroller.h).
    auto *overviewSplit = new QSplitter(Qt::Vertical, hsplit);
    m_view = new TimelineView(overviewSplit);
    m_details = new DetailsPane(hsplit);
    hsplit->addWidget(overviewSplit);
    hsplit->addWidget(m_details);
    hsplit->setStretchFactor(0, 1);
    hsplit->setSizes({1200, 280});
    // Below the timeline: the statistics of the visible window, and the RL phase table.
    m_bottomTabs = new QTabWidget(vsplit);
    m_stats = new StatsPane(m_bottomTabs);
    m_phases = new PhasesPane(m_bottomTabs);
    m_bottomTabs->addTab(m_stats, QStringLiteral("Statistics"));
    m_bottomTabs->addTab(m_phases, QStringLiteral("RL Phases"));
    m_breakdown = new BreakdownPane(m_phases, m_bottomTabs); // follows the phase table's reports
    m_bottomTabs->addTab(m_breakdown, QStringLiteral("Breakdown"));
    m_overview = new OverviewController(m_view->canvas(), m_phases, overviewSplit);
    overviewSplit->insertWidget(0, m_overview->overview());
    overviewSplit->setSizes({330, 400});
    m_compare = new ComparePane(m_bottomTabs);
    m_bottomTabs->addTab(m_compare, QStringLiteral("Compare Runs"));
    m_collectives = addCollectivesTab(m_bottomTabs, m_view->canvas(), m_details);
    m_memory = addMemoryTab(m_bottomTabs, m_view->canvas(), this);
    vsplit->addWidget(hsplit);
    vsplit->addWidget(m_bottomTabs);
    vsplit->setStretchFactor(0, 3);
    vsplit->setStretchFactor(1, 1);
    vsplit->setSizes({700, 260});
    return vsplit;
}

void TimelineWorkspace::connectPanes()
{
    TimelineCanvas *c = m_view->canvas();
    connect(m_cancel, &QPushButton::clicked, this, &TimelineWorkspace::cancelLoad);
    connect(c, &TimelineCanvas::escapePressed, this, [this] {
        if (m_loader->isRunning())
            cancelLoad();
    });
    connect(c, &TimelineCanvas::selectionChanged, this, &TimelineWorkspace::updateDetails);
    connect(c, &TimelineCanvas::selectionChanged, this, &TimelineWorkspace::selectInPanes);
    connect(c, &TimelineCanvas::selectionChanged, m_statsDebounce, qOverload<>(&QTimer::start)); // the run may change
    connect(c, &TimelineCanvas::windowChanged, m_statsDebounce, qOverload<>(&QTimer::start));
    connect(m_statsDebounce, &QTimer::timeout, this, &TimelineWorkspace::updateStatsInput);
    connect(m_details, &DetailsPane::jumpToCorrelated, this, [this](EventRef ref) {
        if (auto s = m_view->canvas()->selection())
            m_view->canvas()->reveal({s->entry, ref});
    });
    connect(m_details, &DetailsPane::nudgeEdited, this, [this](int report, qint64 ns) { setNudge(report, ns); });
    connect(c, &TimelineCanvas::contextMenuBuilt, this, [this](QMenu *menu, QPoint pos, int row) {
        extendCanvasMenu(menu, pos, row, m_scene.get(), *canvas(),
                         {[this](const QString &name) { setSearch(name); },
                          [this](const QString &run) { closeRun(run); }, [this] { closeAll(); }});
    });
    // Ctrl+C on the timeline copies the selected event's name (tables and fields keep their own).
    auto *copy = new QAction(QStringLiteral("Copy Name"), c);
    copy->setObjectName(QStringLiteral("copyEventName"));
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    c->addAction(copy);
    connect(copy, &QAction::triggered, this, [this] {
        if (const QString copied = copySelectedEventName(m_scene.get(), *canvas()); !copied.isEmpty())
            emit statusMessage(copied, 4000);
    });
    // Queued: the pager may drop a report while the canvas paints.
    connect(c->pager(), &ReportPager::pagedIn, this, &TimelineWorkspace::swapReport, Qt::QueuedConnection);
    connect(c->pager(), &ReportPager::pagedOut, this, &TimelineWorkspace::swapReport, Qt::QueuedConnection);
    connect(c->pager(), &ReportPager::failed, this, [this](const QString &reason) {
        m_problems->addProblems(QStringLiteral("The events of a digest could not be loaded"), {reason});
    });
    connect(c, &TimelineCanvas::drawingProblem, this, [this](const QString &reason) {
        m_problems->addProblems(QStringLiteral("A digest's pyramids could not be read (drawn empty)"), {reason});
    });
    connect(m_stats, &StatsPane::jumpTo, this, [this](int entry, EventRef ref) {
        m_view->canvas()->reveal({entry, ref});
    });
    connect(m_stats, &StatsPane::busyChanged, this, [this](bool) { emit busyChanged(isBusy()); });
    addAction(m_overview->goToRankAction());
    m_overview->goToRankAction()->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_overview->overview(), &ClusterOverview::busyChanged, this, [this](bool) { emit busyChanged(isBusy()); });
    connect(m_phases, &PhasesPane::busyChanged, this, [this](bool) { emit busyChanged(isBusy()); });
    connect(m_compare, &ComparePane::busyChanged, this, [this](bool) { emit busyChanged(isBusy()); });
    connect(m_breakdown, &BreakdownPane::busyChanged, this, [this](bool) { emit busyChanged(isBusy()); });
    connect(m_collectives, &CollectivesPane::busyChanged, this, [this](bool) { emit busyChanged(isBusy()); });
}

void TimelineWorkspace::connectToolbar()
{
    connect(m_toolbar->sessionMenu(), &QMenu::aboutToShow, this, &TimelineWorkspace::rebuildRecentSessions);
    connect(m_toolbar, &TimelineToolbar::statusMessage, this, &TimelineWorkspace::statusMessage);
    connect(m_toolbar, &TimelineToolbar::alignmentRequested, this, &TimelineWorkspace::setAlignment);
    connect(m_toolbar, &TimelineToolbar::rangeEntered, this, [this](const QString &name) {
        if (m_overlay)
            setStepOverlay(m_overlay->first, name);
    });
    connect(m_toolbar, &TimelineToolbar::zoomRequested, this, [this](double f) { canvas()->zoomBy(f); });
    connect(m_toolbar, &TimelineToolbar::fitRequested, this, [this] { canvas()->fitAll(); });
    connect(m_toolbar, &TimelineToolbar::viewRequested, this, [this](int i) {
        if (i <= 0)
            clearStepOverlay();
        else
            setStepOverlay(i - 1, m_toolbar->rangeName());
    });
    connect(m_search, &TimelineSearchBar::searchRequested, this, &TimelineWorkspace::runSearch);
    connect(m_search, &TimelineSearchBar::nextRequested, this, &TimelineWorkspace::nextMatch);
    connect(m_search, &TimelineSearchBar::previousRequested, this, &TimelineWorkspace::previousMatch);
    m_findAction = new QAction(QStringLiteral("&Find…"), this);
    m_findAction->setShortcut(QKeySequence::Find);
    m_findAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_findAction);
    connect(m_findAction, &QAction::triggered, this, [this] {
        m_search->edit()->setFocus();
        m_search->edit()->selectAll();
    });
}

QList<QAction *> TimelineWorkspace::editActions() const
{
    return {m_findAction, m_overview->goToRankAction()};
}

TimelineCanvas *TimelineWorkspace::canvas() const
{
    return m_view->canvas();
}

QLineEdit *TimelineWorkspace::searchEdit() const
{
    return m_search->edit();
}

QLabel *TimelineWorkspace::matchLabel() const
{
    return m_search->matchLabel();
}

bool TimelineWorkspace::isReportFileName(const QString &fileName)
{
    const QString n = fileName.toLower();
    return n.endsWith(QLatin1String(".sqlite")) || n.endsWith(QLatin1String(".db")) ||
           n.endsWith(QLatin1String(".nsys-rep")) || n.endsWith(QLatin1String(".qdrep")) ||
           n.endsWith(QLatin1String(".json")) || n.endsWith(QLatin1String(".json.gz")) ||
           n.endsWith(QLatin1String(".jsonl")) || n.endsWith(QLatin1String(".psdigest")) ||
           isMemoryReportName(fileName.toStdString()); // torch_memory_*.pickle, memory timelines
}

QString TimelineWorkspace::reportFileFilter()
{
    // The patterns isReportFileName() accepts (memory pickles are told apart by the loader).
    return QStringLiteral("Profiler reports (*.sqlite *.db *.nsys-rep *.qdrep *.json *.json.gz *.jsonl *.psdigest "
                          "*.pickle *.raw.gz);;All files (*)");
}

bool TimelineWorkspace::isSessionFileName(const QString &fileName)
{
    return fileName.toLower().endsWith(QLatin1String(".psession"));
}

bool TimelineWorkspace::accepts(const QString &path) const
{
    const QFileInfo fi(path);
    return fi.isDir() || (fi.isFile() && (isReportFileName(fi.fileName()) || isSessionFileName(fi.fileName())));
}

bool TimelineWorkspace::isBusy() const
{
    return m_loader->isRunning() || jobsRunning() || m_stats->isBusy() || m_phases->isBusy() || m_compare->isBusy() ||
           m_overview->isBusy() || m_breakdown->isBusy() || m_collectives->isBusy() || m_memory->isBusy() ||
           m_statsDebounce->isActive() || m_realignThrottle->isActive();
}

// An event selected in the timeline is selected in the other views too: its range or kernel in
// the statistics (whose cross-rank chart then shows it), the phase it ran in in the phase table.
void TimelineWorkspace::selectInPanes()
{
    const auto sel = canvas()->selection();
    if (!sel || !m_scene || sel->entry < 0 || size_t(sel->entry) >= m_scene->entries.size())
        return;
    const EventStore &store = m_scene->entries[size_t(sel->entry)].report->store();
    const Track &t = store.track(sel->ref.track);
    const size_t i = sel->ref.index;
    if (isRangeKind(t.kind())) {
        m_stats->selectName(QString::fromStdString(nvtxRangeName(store, t.name(i), t.attr(i))), StatsKind::NvtxSum);
    } else if (t.kind() == TrackKind::Kernel) { // kernel_sum lists the full name, not the short one
        const std::string_view name = store.name(t.name(i));
        m_stats->selectName(QString::fromUtf8(name.data(), qsizetype(name.size())), StatsKind::KernelSum);
    }
    m_phases->selectAt(sel->entry, t.start(i));
}

void TimelineWorkspace::flushDeferred()
{
    if (m_realignThrottle->isActive()) {
        m_realignThrottle->stop();
        realign();
    }
    if (m_statsDebounce->isActive()) {
        m_statsDebounce->stop();
        updateStatsInput();
    }
    m_stats->flushDeferred();
}

bool TimelineWorkspace::jobsRunning() const
{
    const auto j = jobs();
    return std::any_of(j.begin(), j.end(), [](const LatestJobBase *job) { return job->isBusy(); });
}

void TimelineWorkspace::setBusyState(bool wasBusy)
{
    if (wasBusy != isBusy())
        emit busyChanged(isBusy());
}

// Opening adds a run beside the open ones; with `replace` the open reports close first.
void TimelineWorkspace::showOpenDialog(bool folder, bool replace)
{
    QStringList paths;
    if (folder) {
        const QString d = existingDirectory(this, QStringLiteral("reports"),
                                            replace ? QStringLiteral("Open Report Folder (Replace Open Reports)")
                                                    : QStringLiteral("Open Report Folder"));
        if (!d.isEmpty())
            paths << d;
    } else {
        paths = openFileNames(this, QStringLiteral("reports"),
                              replace ? QStringLiteral("Open Reports (Replace Open Reports)")
                                      : QStringLiteral("Open Reports"),
                              reportFileFilter());
    }
    if (paths.isEmpty())
        return;
    if (replace)
        closeAll();
    openPaths(paths);
}

QStringList TimelineWorkspace::runNames() const
{
    QStringList runs;
    for (const auto &r : m_reports) {
        const QString run = QString::fromStdString(r->report().identity.run);
        if (!runs.contains(run))
            runs << run;
    }
    return runs;
}

// Closes the reports of one run (identity.run); the other runs stay, realigned without it.
void TimelineWorkspace::closeRun(const QString &run)
{
    m_view->canvas()->pager()->clear(); // back to outlines: what stays paged is asked for again
    if (m_loader->isRunning())
        cancelLoad();
    std::vector<PreparedReportPtr> kept;
    for (const auto &r : m_reports) {
        if (QString::fromStdString(r->report().identity.run) != run)
            kept.push_back(r);
        else
            m_nudges.remove(QString::fromStdString(r->report().path));
    }
    const size_t closed = m_reports.size() - kept.size();
    if (closed == 0)
        return;
    if (kept.empty()) {
        closeAll();
        return;
    }
    m_reports = std::move(kept);
    m_alignOffsets.assign(m_reports.size(), 0);
    m_overlay.reset(); // its rank indices were the old reports'
    m_fitOnNextScene = true;
    realign();
    emit statusMessage(
        QStringLiteral("Closed run %1 (%2 reports)").arg(run.isEmpty() ? QStringLiteral("(no run)") : run).arg(closed),
        5000);
}

void TimelineWorkspace::openPaths(const QStringList &paths)
{
    QStringList reports;
    for (const QString &p : paths) {
        const QFileInfo fi(p);
        if (fi.isFile() && isSessionFileName(fi.fileName())) {
            openSessionFile(fi.absoluteFilePath());
            continue;
        }
        reports << fi.absoluteFilePath();
    }
    if (reports.isEmpty())
        return;
    // Skip what is already open.
    QStringList fresh;
    for (const QString &p : reports) {
        bool open = false;
        for (const auto &r : m_reports)
            open = open || QString::fromStdString(r->report().path) == p;
        if (!open)
            fresh << p;
        else
            emit openedPath(p); // open already: it belongs in Open Recent
    }
    if (fresh.isEmpty())
        return;
    if (m_loader->isRunning()) {
        m_queuedPaths << fresh;
        return;
    }
    const bool was = isBusy();
    m_loadBase = m_reports.size();
    m_problems->clear();
    m_failedCount = m_cancelledCount = 0;
    m_nothingFound = false;
    m_requested = fresh;
    m_loader->load(fresh);
    setBusyState(was);
    m_stack->setCurrentWidget(m_main);
}

void TimelineWorkspace::addReports(std::vector<ReportPtr> reports)
{
    const bool was = isBusy();
    const size_t base = m_reports.size();
    if (!m_loader->addReports(std::move(reports)))
        return;
    m_loadBase = base;
    setBusyState(was);
    m_stack->setCurrentWidget(m_main);
}

void TimelineWorkspace::cancelLoad()
{
    if (!m_loader->isRunning())
        return;
    m_loader->cancel();
    m_queuedPaths.clear();
    m_progressText->setText(QStringLiteral("Cancelling…"));
}

void TimelineWorkspace::onReportsReady(const std::vector<PreparedReportPtr> &reports)
{
    // Reports of one load arrive in the order they finish; keep them in path order (after the
    // reports of earlier loads) so rows do not depend on which file happened to load first.
    const auto byPath = [](const PreparedReportPtr &a, const PreparedReportPtr &b) {
        return a->report().path < b->report().path;
    };
    for (const PreparedReportPtr &r : reports) {
        const auto from = m_reports.begin() + std::ptrdiff_t(std::min(m_loadBase, m_reports.size()));
        m_reports.insert(std::upper_bound(from, m_reports.end(), r, byPath), r);
    }
    m_fitOnNextScene = true;
    if (!m_realignThrottle->isActive()) {
        const bool was = isBusy();
        m_realignThrottle->start();
        setBusyState(was);
    }
}

// Open Recent gets the requested files and folders that gave at least one report.
void TimelineWorkspace::recordOpened()
{
    for (const QString &p : std::as_const(m_requested)) {
        bool loaded = false;
        for (const auto &r : m_reports) {
            const QString path = QString::fromStdString(r->report().path);
            loaded = loaded || path == p || path.startsWith(p + QLatin1Char('/')) ||
                     path.startsWith(p + QLatin1Char('#')); // a worker of an RLinf tracer file
        }
        if (loaded)
            emit openedPath(p);
    }
    m_requested.clear();
}

void TimelineWorkspace::onLoadFinished(bool cancelled)
{
    const bool was = true;
    m_progressRow->hide();
    recordOpened();
    // The keys work on what was opened, whichever way (dialog, drop, command line) it came.
    if (!m_reports.empty() && isVisible())
        canvas()->setFocus(Qt::OtherFocusReason);
    // "No reports found" (nothingFound) stays in the status bar rather than "0 report(s)".
    if (!m_reports.empty() || m_failedCount > 0 || m_cancelledCount > 0 || !m_nothingFound)
        showLoadSummary(cancelled);
    if (m_reports.empty())
        m_stack->setCurrentWidget(m_empty);
    if (!m_queuedPaths.isEmpty()) {
        const QStringList q = m_queuedPaths;
        m_queuedPaths.clear();
        openPaths(q);
    }
    // With a realign still to come, its scene applies the session instead.
    if (!jobsRunning() && !m_realignThrottle->isActive() && m_pendingSession)
        applyScene(m_scene);
    setBusyState(was);
}

// "Loading cancelled — 5 report(s), 1,234 events; 2 file(s) could not be loaded; 9 file(s)
// cancelled", the failures and cancels listed in the banner.
void TimelineWorkspace::showLoadSummary(bool cancelled)
{
    size_t events = 0;
    for (const auto &r : m_reports)
        events += r->eventCount();
    QString failures;
    if (m_failedCount > 0)
        failures += QStringLiteral("; %1 file(s) could not be loaded (listed above)").arg(m_failedCount);
    if (m_cancelledCount > 0)
        failures += QStringLiteral("; %1 file(s) cancelled (listed above)").arg(m_cancelledCount);
    emit statusMessage(QStringLiteral("%1%2 report(s), %3 events%4")
                           .arg(cancelled ? QStringLiteral("Loading cancelled — ") : QString())
                           .arg(m_reports.size())
                           .arg(QLocale().toString(qulonglong(events)))
                           .arg(failures),
                       failures.isEmpty() ? 8000 : 0);
}

bool TimelineWorkspace::setAlignment(const QString &spec)
{
    std::string error;
    if (!parseAlignSpec(spec.toStdString(), error)) {
        emit statusMessage(QStringLiteral("Alignment: %1").arg(QString::fromStdString(error)), 8000);
        return false;
    }
    m_align = spec;
    m_alignChosen = true;
    m_toolbar->showAlignment(spec);
    realign();
    return true;
}

void TimelineWorkspace::realign()
{
    if (m_reports.empty()) {
        applyScene(nullptr);
        return;
    }
    std::vector<ReportPtr> plain;
    for (const auto &r : m_reports)
        plain.push_back(r->reportPtr());
    // Reports arrive as they load: the default is chosen again over all of them each time, so
    // the note stays with the alignment it explains.
    if (!m_alignChosen && (m_align == QLatin1String("utc") || !m_defaultAlignNote.isEmpty()))
        chooseDefaultAlignment(plain);
    else
        m_defaultAlignNote.clear();
    std::string error;
    AlignSpec spec = parseAlignSpec(m_align.toStdString(), error).value_or(AlignSpec{});
    m_alignJob->run([plain, spec](const CancelToken &) { return alignReports(plain, spec); });
}

namespace {
// The UTC time of a report's first event. An origin of 0 means the report's own clock is the
// epoch (Kineto, Ascend): its events say when they ran, so origins alone are never compared. A
// first event before 2000 is a clock that was never set, not a time: nullopt, as without an origin.
std::optional<int64_t> wallClockStart(const Report &r)
{
    if (!r.meta.utcStartNs)
        return std::nullopt;
    const int64_t own = r.outline ? r.outline->firstStart : r.store ? r.store->firstStart() : 0;
    constexpr int64_t kYear2000Ns = 946'684'800'000'000'000;
    const int64_t utc = *r.meta.utcStartNs + own;
    return utc >= kYear2000Ns ? std::optional<int64_t>(utc) : std::nullopt;
}
} // namespace

// UTC origins more than a day apart are separate runs (or a host whose clock was never set):
// aligned by UTC they would sit days apart on one axis with every event a sliver, so the default
// becomes "start". Choosing UTC in Align keeps UTC.
void TimelineWorkspace::chooseDefaultAlignment(const std::vector<ReportPtr> &reports)
{
    std::optional<int64_t> first, last;
    for (const ReportPtr &r : reports) {
        if (const auto utc = wallClockStart(*r)) {
            first = first ? std::min(*first, *utc) : *utc;
            last = last ? std::max(*last, *utc) : *utc;
        }
    }
    constexpr int64_t kDayNs = 86'400'000'000'000;
    m_defaultAlignNote.clear();
    m_align = QStringLiteral("utc");
    if (!first || *last - *first <= kDayNs) {
        m_toolbar->showAlignment(m_align);
        return;
    }
    m_align = QStringLiteral("start");
    m_toolbar->showAlignment(m_align);
    m_defaultAlignNote = QStringLiteral("Reports' UTC origins are %1 days apart: aligned by start (choose UTC in "
                                        "Align to align by wall clock)")
                             .arg(double(*last - *first) / double(kDayNs), 0, 'f', 1);
}

void TimelineWorkspace::applyAlignment(const AlignResult &res)
{
    if (res.offsets.size() != m_reports.size())
        return; // reports were removed meanwhile (a session was restored)
    m_alignOffsets = res.offsets;
    m_alignWarnings.clear();
    if (!m_defaultAlignNote.isEmpty())
        m_alignWarnings << m_defaultAlignNote;
    for (const auto &w : res.warnings)
        m_alignWarnings << QString::fromStdString(w);
    if (!m_alignWarnings.isEmpty())
        emit statusMessage(m_alignWarnings.join(QStringLiteral("; ")), 8000);
    // Aligned by UTC, axis 0 is the earliest report's UTC origin, so the axis can say wall-clock
    // dates.
    m_utcOrigin = res.utcOriginNs;
    rebuildScene();
}

void TimelineWorkspace::setNudge(int report, int64_t ns)
{
    if (report < 0 || size_t(report) >= m_reports.size())
        return;
    const QString path = QString::fromStdString(m_reports[size_t(report)]->report().path);
    if (ns == 0)
        m_nudges.remove(path);
    else
        m_nudges[path] = ns;
    rebuildScene();
}

int64_t TimelineWorkspace::nudge(int report) const
{
    if (report < 0 || size_t(report) >= m_reports.size())
        return 0;
    return m_nudges.value(QString::fromStdString(m_reports[size_t(report)]->report().path), 0);
}

void TimelineWorkspace::rebuildScene()
{
    if (m_reports.empty()) {
        applyScene(nullptr);
        return;
    }
    // Rank choices for the "Show" selector.
    const std::vector<RankChoice> ranks = rankChoices(m_reports);
    QStringList rankLabels;
    for (const RankChoice &r : ranks)
        rankLabels << r.label;
    m_toolbar->setRankChoices(rankLabels, m_overlay ? m_overlay->first + 1 : 0);
    // A step overlay's axis is time into the step: relative, whatever the alignment.
    canvas()->state()->setWallClockOrigin(m_overlay ? std::nullopt : m_utcOrigin);

    if (m_overlay) {
        if (m_overlay->first < 0 || size_t(m_overlay->first) >= ranks.size()) {
            m_overlay.reset();
        } else {
            m_overlayJob->run([reports = m_reports, rank = ranks[size_t(m_overlay->first)], name = m_overlay->second](
                                  const CancelToken &) { return buildStepOverlay(reports, rank, name); });
            return;
        }
    }
    m_overlayJob->cancel(); // a plain scene supersedes a pending overlay
    std::vector<int64_t> offsets(m_reports.size(), 0);
    for (size_t i = 0; i < m_reports.size(); ++i)
        offsets[i] = (i < m_alignOffsets.size() ? m_alignOffsets[i] : 0) + nudge(int(i));
    applyScene(std::make_shared<TimelineScene>(buildScene(m_reports, offsets)));
}

void TimelineWorkspace::applyScene(std::shared_ptr<const TimelineScene> scene)
{
    TimelineCanvas *c = m_view->canvas();
    const bool fit = m_fitOnNextScene;
    m_fitOnNextScene = false;
    m_scene = std::move(scene);
    c->setScene(m_scene, !fit);
    m_overview->setScene(m_scene);
    if (fit && m_scene && m_scene->focus) {
        const int64_t pad = std::max<int64_t>(m_scene->focus->duration() / 50, 1);
        c->setWindow({m_scene->focus->start - pad, m_scene->focus->end + pad});
    }
    if (m_pendingSession && !m_loader->isRunning()) {
        const TimelineSession &ps = *m_pendingSession;
        c->setTrackView(ps.trackView());
        if (ps.labelWidth > 0)
            c->setLabelWidth(ps.labelWidth);
        if (m_pendingSession->view)
            c->setWindow(*m_pendingSession->view);
        m_pendingSession.reset();
    }
    m_stack->setCurrentWidget(m_reports.empty() && !m_loader->isRunning() ? static_cast<QWidget *>(m_empty) : m_main);
    updateDetails();
    updateStatsInput();
    if (!m_search->query().text.isEmpty())
        runSearch();
}

void TimelineWorkspace::setStepOverlay(int rank, const QString &rangeName)
{
    m_overlay = std::make_pair(rank, rangeName);
    m_fitOnNextScene = true;
    if (!rangeName.isEmpty())
        m_toolbar->setRangeName(rangeName);
    rebuildScene();
}

void TimelineWorkspace::clearStepOverlay()
{
    if (!m_overlay)
        return;
    m_overlay.reset();
    m_fitOnNextScene = true;
    rebuildScene();
}

void TimelineWorkspace::setSearch(const QString &text, bool regex)
{
    m_search->setQuery(text, regex);
}

void TimelineWorkspace::runSearch()
{
    const SearchQuery q = m_search->query();
    m_currentMatch = -1;
    if (q.isEmpty() || !m_scene) {
        m_searchJob->cancel();
        m_searchResult.reset();
        m_view->canvas()->setSearch(nullptr);
        updateMatchLabel();
        return;
    }
    m_searchJob->run([scene = m_scene, q](const CancelToken &cancel) { return searchEvents(*scene, q, &cancel); });
}

void TimelineWorkspace::updateMatchLabel()
{
    m_search->showMatches(m_searchResult.get(), m_currentMatch);
}

void TimelineWorkspace::gotoMatch(int i)
{
    if (!m_searchResult || m_searchResult->matches.empty())
        return;
    const int n = int(m_searchResult->matches.size());
    m_currentMatch = ((i % n) + n) % n;
    const SearchMatch &m = m_searchResult->matches[size_t(m_currentMatch)];
    m_view->canvas()->reveal({m.entry, {m.track, m.index}});
    updateMatchLabel();
}

void TimelineWorkspace::nextMatch()
{
    gotoMatch(m_currentMatch + 1);
}

void TimelineWorkspace::previousMatch()
{
    gotoMatch(m_currentMatch < 0 ? -1 : m_currentMatch - 1);
}

void TimelineWorkspace::updateDetails()
{
    const auto s = m_view->canvas()->selection();
    if (!s || !m_scene || s->entry < 0 || size_t(s->entry) >= m_scene->entries.size()) {
        m_details->clear();
        return;
    }
    const TimelineEntry &e = m_scene->entries[size_t(s->entry)];
    m_details->showDetails(&e, s->ref, nudge(e.reportIndex));
}

// Statistics never mix runs: with several runs on screen they cover the run of the selected
// event, else the first one, and say so.
std::vector<int> TimelineWorkspace::entriesOfOneRun(const std::vector<int> &entries)
{
    const auto runOf = [this](int e) -> const std::string & {
        return m_scene->entries[size_t(e)].report->report().identity.run;
    };
    std::vector<std::string> runs; // in screen order
    for (int e : entries)
        if (std::find(runs.begin(), runs.end(), runOf(e)) == runs.end())
            runs.push_back(runOf(e));
    if (runs.size() < 2) {
        m_stats->setScopeNote({});
        return entries;
    }
    std::string chosen = runs.front();
    if (const auto s = m_view->canvas()->selection(); s && s->entry >= 0 && size_t(s->entry) < m_scene->entries.size())
        if (std::find(runs.begin(), runs.end(), runOf(s->entry)) != runs.end())
            chosen = runOf(s->entry);
    std::vector<int> mine;
    for (int e : entries)
        if (runOf(e) == chosen)
            mine.push_back(e);
    m_stats->setScopeNote(QStringLiteral("run %1 (%2 runs open: select an event of another run to see its "
                                         "statistics)")
                              .arg(QString::fromStdString(chosen))
                              .arg(runs.size()));
    return mine;
}

void TimelineWorkspace::updateStatsInput()
{
    m_compare->setInput(m_reports); // every open run, whatever the timeline and statistics show
    if (!m_scene) {
        m_stats->setInput(nullptr, {}, {});
        m_phases->setInput(nullptr, {});
        m_collectives->setInput(nullptr, {});
        return;
    }
    // Every report of the scene (the Show filter and the step overlay choose the scene): folding
    // rows away is a matter of display and never changes the numbers.
    std::vector<int> entries(m_scene->entries.size());
    std::iota(entries.begin(), entries.end(), 0);
    entries = entriesOfOneRun(entries);
    m_phases->setInput(m_scene, entries);
    m_collectives->setInput(m_scene, entries);
    m_stats->setInput(m_scene, std::move(entries), m_view->canvas()->window());
}

TimelineSession TimelineWorkspace::session() const
{
    TimelineSession s;
    for (const auto &r : m_reports)
        s.reports << QString::fromStdString(r->report().path);
    s.align = m_align;
    s.nudges = m_nudges;
    s.setTrackView(m_view->canvas()->trackView());
    if (m_view->canvas()->wantedLabelWidth() != TimelineCanvas::kDefaultLabelWidth)
        s.labelWidth = m_view->canvas()->wantedLabelWidth();
    if (m_scene)
        s.view = m_view->canvas()->window();
    return s;
}

void TimelineWorkspace::restoreSession(const TimelineSession &s)
{
    cancelLoad();
    m_reports.clear();
    m_alignOffsets.clear();
    m_overlay.reset();
    m_nudges = s.nudges;
    m_align = s.align;
    m_alignChosen = true; // the session says how it was aligned
    std::string error;
    if (!parseAlignSpec(m_align.toStdString(), error))
        m_align = QStringLiteral("utc");
    m_toolbar->showAlignment(m_align);
    m_pendingSession = s;
    applyScene(nullptr);
    m_pendingSession = s; // applyScene(nullptr) above must not consume it
    if (m_loader->isRunning())
        m_queuedPaths = s.reports;
    else
        openPaths(s.reports);
}

bool TimelineWorkspace::saveSession(const QString &file, QString *error)
{
    QString err;
    const bool ok = session().save(file, err);
    if (ok)
        m_recentSessions->add(file);
    else if (error)
        *error = err;
    emit statusMessage(ok ? QStringLiteral("Session saved to %1").arg(file) : err, 6000);
    return ok;
}

void TimelineWorkspace::openSessionFile(const QString &file)
{
    QString error;
    auto s = TimelineSession::load(file, error);
    if (!s) {
        emit statusMessage(error, 10000);
        return;
    }
    m_recentSessions->add(file);
    restoreSession(*s);
}

// A report's outline and the same report with its events paged in take each other's place.
void TimelineWorkspace::swapReport(const PreparedReportPtr &from, const PreparedReportPtr &to)
{
    const auto it = std::find(m_reports.begin(), m_reports.end(), from);
    if (it == m_reports.end())
        return;
    *it = to;
    if (const auto s = m_view->canvas()->selection();
        s && s->entry >= 0 && m_scene && m_scene->entries[size_t(s->entry)].report == from)
        m_view->canvas()->select(std::nullopt); // its event is in the report going out
    rebuildScene();
}

void TimelineWorkspace::closeAll()
{
    m_view->canvas()->pager()->clear();
    cancelLoad();
    m_queuedPaths.clear();
    m_reports.clear();
    m_alignOffsets.clear();
    m_overlay.reset();
    m_nudges.clear();
    m_pendingSession.reset();
    m_problems->clear();
    m_align = QStringLiteral("utc");
    m_alignChosen = false; // the next run gets the default again
    m_toolbar->showAlignment(m_align);
    applyScene(nullptr);
    m_stack->setCurrentWidget(m_empty);
    emit statusMessage(QStringLiteral("Closed all reports"), 4000);
}

void TimelineWorkspace::rebuildRecentSessions()
{
    QMenu *m = m_toolbar->sessionMenu();
    m->clear();
    m->addAction(QStringLiteral("Open Reports…"), this, [this] { showOpenDialog(false); });
    m->addAction(QStringLiteral("Open Report Folder…"), this, [this] { showOpenDialog(true); });
    m->addAction(QStringLiteral("Open Report Folder, Replacing the Open Ones…"), this, [this] {
         showOpenDialog(true, true);
     })->setEnabled(!m_reports.empty());
    QMenu *closeRunMenu = m->addMenu(QStringLiteral("Close Run"));
    closeRunMenu->setObjectName(QStringLiteral("closeRunMenu"));
    closeRunMenu->setEnabled(!m_reports.empty());
    for (const QString &run : runNames())
        closeRunMenu->addAction(run.isEmpty() ? QStringLiteral("(reports without a run folder)") : run, this,
                                [this, run] { closeRun(run); });
    m->addAction(QStringLiteral("Close All Reports"), this, &TimelineWorkspace::closeAll)
        ->setEnabled(!m_reports.empty());
    m->addSeparator();
    m->addAction(QStringLiteral("Open Session…"), this, &TimelineWorkspace::showOpenSessionDialog);
    m->addAction(QStringLiteral("Save Session…"), this, &TimelineWorkspace::showSaveSessionDialog);
    QMenu *recent = m->addMenu(QStringLiteral("Recent Sessions"));
    const QStringList entries = m_recentSessions->entries();
    if (entries.isEmpty())
        recent->addAction(QStringLiteral("No recent sessions"))->setEnabled(false);
    for (const QString &f : entries)
        recent->addAction(QFileInfo(f).fileName(), this, [this, f] { openSessionFile(f); });
}

} // namespace ps::views
