#include "views/timeline/timelineworkspace.h"

#include "views/stats/comparepane.h"

#include "core/trace/read/tracereader.h"
#include "views/common/emptystate.h"
#include "views/common/problemsbanner.h"
#include "views/timeline/detailsdock.h"
#include "views/timeline/eventcopy.h"
#include "views/timeline/eventmenu.h"
#include "views/timeline/farclocks.h"
#include "views/timeline/loadprogress.h"
#include "views/timeline/overviewcontroller.h"
#include "views/timeline/sessionmenu.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelinehittest.h"
#include "views/timeline/timelinesearchbar.h"
#include "views/timeline/timelinetoolbar.h"
#include "views/timeline/timelineview.h"

#include <QAction>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QShortcut>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace ps::views {

using namespace ps::core::trace;

TimelineWorkspace::TimelineWorkspace(QWidget *parent) : Workspace(parent), m_doc(new TimelineDocument(this))
{
    buildUi();
    connectDocument();
    connectCanvas();
    connectToolbar();
}

// The widgets go first: they show the document to the end.
TimelineWorkspace::~TimelineWorkspace()
{
    delete m_stack;
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
    m_progressRow = new LoadProgressRow(m_doc, m_problems, m_main);
    mainLayout->addWidget(m_progressRow);
    m_panes = new TimelinePanes(m_doc, m_main);
    mainLayout->addWidget(m_panes, 1);
    m_stack->addWidget(m_main);
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
            m_sessionMenu->showOpenSessionDialog();
        else if (id == QLatin1String("open-demo"))
            emit demoRequested();
        else if (id == QLatin1String("configure"))
            emit workspaceRequested(QStringLiteral("Configure"));
        else
            m_sessionMenu->showOpenDialog(id == QLatin1String("open-folder"));
    });
    m_stack->addWidget(m_empty);
}

void TimelineWorkspace::connectDocument()
{
    connect(m_doc, &TimelineDocument::loadStarting, this, [this] { m_stack->setCurrentWidget(m_main); });
    connect(m_doc, &TimelineDocument::loadFinished, this, &TimelineWorkspace::onLoadFinished);
    connect(m_doc, &TimelineDocument::openedPath, this, &TimelineWorkspace::openedPath);
    connect(m_doc, &TimelineDocument::sceneChanged, this, &TimelineWorkspace::onSceneChanged);
    connect(m_doc, &TimelineDocument::searchChanged, this, &TimelineWorkspace::onSearchChanged);
    connect(m_doc, &TimelineDocument::alignmentChanged, m_toolbar, &TimelineToolbar::showAlignment);
    connect(m_doc, &TimelineDocument::rankChoicesChanged, m_toolbar, &TimelineToolbar::setRankChoices);
    connect(m_doc, &TimelineDocument::statusMessage, this, &TimelineWorkspace::statusMessage);
    connect(m_progressRow, &LoadProgressRow::statusMessage, this, &TimelineWorkspace::statusMessage);
    connect(m_doc, &TimelineDocument::problem, m_problems, &ProblemsBanner::addProblems);
    connect(m_doc, &TimelineDocument::closedAll, this, [this] {
        m_problems->clear();
        m_stack->setCurrentWidget(m_empty);
        emit statusMessage(QStringLiteral("Closed all reports"), 4000);
    });
    // Esc cancels a load wherever the focus is in the window (after File > Open it is on no
    // canvas): a window shortcut, enabled only while loading, so that otherwise the canvas's Esc
    // (clear the selection) and the panes' own get the key.
    auto *esc = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    esc->setContext(Qt::WindowShortcut);
    esc->setEnabled(false);
    connect(m_doc, &TimelineDocument::loadStarting, esc, [esc] { esc->setEnabled(true); });
    connect(m_doc, &TimelineDocument::loadFinished, esc, [esc] { esc->setEnabled(false); });
    connect(esc, &QShortcut::activated, m_doc, &TimelineDocument::cancelLoad);
    connect(m_doc, &TimelineDocument::busyChanged, this, [this] { emit busyChanged(isBusy()); });
    connect(m_panes, &TimelinePanes::busyChanged, this, [this] { emit busyChanged(isBusy()); });
    // A Compare Runs row: its events outlined in both runs, the first selected and fitted.
    connect(m_panes->compare(), &ComparePane::findInTimeline, this,
            [this](const QString &pattern, const std::vector<CompareSite> &sites) {
                m_fitNextMatch = true;
                m_comparedSites = sites;
                setSearch(pattern, true);
                gotoFirstMatch();
            });
}

void TimelineWorkspace::connectCanvas()
{
    TimelineCanvas *c = canvas();
    connect(c, &TimelineCanvas::escapePressed, m_doc, &TimelineDocument::cancelLoad);
    connect(c, &TimelineCanvas::contextMenuBuilt, this, [this](QMenu *menu, QPoint pos, int row) {
        extendCanvasMenu(menu, pos, row, scene().get(), *canvas(),
                         {[this](const QString &name) { setSearch(name); },
                          [this](const QString &run) { closeRun(run); }, [this] { closeAll(); },
                          [this](const QString &path) { closeReport(path); }});
    });
    // Ctrl+C on the timeline copies the selected event's name (tables and fields keep their own).
    auto *copy = new QAction(QStringLiteral("Copy Name"), c);
    copy->setObjectName(QStringLiteral("copyEventName"));
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    c->addAction(copy);
    connect(copy, &QAction::triggered, this, [this] {
        if (const QString copied = copySelectedEventName(scene().get(), *canvas()); !copied.isEmpty())
            emit statusMessage(copied, 4000);
    });
    connect(c, &TimelineCanvas::drawingProblem, this, [this](const QString &reason) {
        m_problems->addProblems(QStringLiteral("A digest's pyramids could not be read (drawn empty)"), {reason});
    });
    addAction(overview()->goToRankAction());
    overview()->goToRankAction()->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_panes->detailsDock()->foldAction());
    m_panes->detailsDock()->foldAction()->setShortcutContext(Qt::WidgetWithChildrenShortcut);
}

void TimelineWorkspace::connectToolbar()
{
    m_sessionMenu = new SessionMenu(this, m_toolbar->sessionMenu());
    connect(m_sessionMenu, &SessionMenu::statusMessage, this, &TimelineWorkspace::statusMessage);
    connect(m_toolbar, &TimelineToolbar::statusMessage, this, &TimelineWorkspace::statusMessage);
    connect(m_toolbar, &TimelineToolbar::alignmentRequested, this, &TimelineWorkspace::setAlignment);
    connect(m_toolbar, &TimelineToolbar::rangeEntered, this, [this](const QString &name) {
        if (const auto &overlay = m_doc->stepOverlay())
            setStepOverlay(overlay->first, name);
        // Asked for a range that was not found (the combo shows the fallback): Enter tries the
        // name typed now.
        else if (m_doc->alignment().startsWith(QLatin1String("range:")) && !name.isEmpty() &&
                 m_doc->alignment() != QStringLiteral("range:") + name)
            setAlignment(QStringLiteral("range:") + name);
    });
    connect(m_toolbar, &TimelineToolbar::zoomRequested, this, [this](double f) { canvas()->zoomBy(f); });
    connect(m_toolbar, &TimelineToolbar::fitRequested, this, [this] { canvas()->fitAll(); });
    connect(m_toolbar, &TimelineToolbar::viewRequested, this, [this](int i) {
        if (i <= 0)
            m_doc->clearStepOverlay();
        else
            setStepOverlay(i - 1, m_toolbar->rangeName());
    });
    connect(m_search, &TimelineSearchBar::searchRequested, this, [this] { m_doc->search(m_search->query()); });
    connect(m_search, &TimelineSearchBar::firstMatchRequested, this, &TimelineWorkspace::gotoFirstMatch);
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
    return {m_findAction, overview()->goToRankAction()};
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
    // The readers' own patterns (core/trace/read/tracereader.h), as the loader and the CLI use.
    return core::trace::ReaderRegistry::instance().isReportName(fileName.toStdString(), core::trace::NameScope::Given);
}

QString TimelineWorkspace::reportFileFilter()
{
    QStringList globs;
    for (const std::string &glob : core::trace::ReaderRegistry::instance().namePatterns())
        globs << QString::fromStdString(glob);
    return QStringLiteral("Profiler reports (%1);;All files (*)").arg(globs.join(QLatin1Char(' ')));
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
    return m_doc->isBusy() || m_panes->isBusy();
}

void TimelineWorkspace::flushDeferred()
{
    m_doc->flushDeferred();
    m_panes->flushDeferred();
}

void TimelineWorkspace::closeRun(const QString &run)
{
    const size_t closed = m_doc->closeRun(run);
    if (closed > 0 && !m_doc->reports().empty())
        emit statusMessage(QStringLiteral("Closed run %1 (%2 reports)")
                               .arg(run.isEmpty() ? QStringLiteral("(no run)") : run)
                               .arg(closed),
                           5000);
}

void TimelineWorkspace::closeReport(const QString &path)
{
    if (m_doc->closeReport(path) && !m_doc->reports().empty())
        emit statusMessage(QStringLiteral("Closed %1").arg(path), 5000);
}

void TimelineWorkspace::closeAll()
{
    m_doc->closeAll();
}

void TimelineWorkspace::openPaths(const QStringList &paths)
{
    QStringList reports;
    for (const QString &p : paths) {
        const QFileInfo fi(p);
        if (fi.isFile() && isSessionFileName(fi.fileName())) {
            m_sessionMenu->openSessionFile(fi.absoluteFilePath());
            continue;
        }
        reports << fi.absoluteFilePath();
    }
    if (!reports.isEmpty())
        m_doc->load(reports);
}

void TimelineWorkspace::addReports(std::vector<ReportPtr> reports)
{
    if (m_doc->addReports(std::move(reports)))
        m_stack->setCurrentWidget(m_main);
}

void TimelineWorkspace::onLoadFinished()
{
    const bool any = !m_doc->reports().empty();
    // The keys work on what was opened, whichever way (dialog, drop, command line) it came.
    if (any && isVisible())
        canvas()->setFocus(Qt::OtherFocusReason);
    if (!any)
        m_stack->setCurrentWidget(m_empty);
}

bool TimelineWorkspace::setAlignment(const QString &spec)
{
    QString error;
    if (m_doc->setAlignment(spec, error))
        return true;
    emit statusMessage(QStringLiteral("Alignment: %1").arg(error), 8000);
    return false;
}

// The canvas has laid the new scene out; the rest of the workspace follows.
void TimelineWorkspace::onSceneChanged(bool keepWindow)
{
    const std::shared_ptr<const TimelineScene> s = scene();
    TimelineCanvas *c = canvas();
    overview()->setScene(s);
    if (const QStringList far = s ? farClockLines(*s) : QStringList(); !far.isEmpty())
        m_problems->addProblems(kFarClocksTitle, far);
    if (!keepWindow && s && s->focus) {
        const int64_t pad = std::max<int64_t>(s->focus->duration() / 50, 1);
        c->setWindow({s->focus->start - pad, s->focus->end + pad});
    }
    if (const std::optional<TimelineSession> restored = m_doc->takeRestoredView()) {
        c->setTrackView(restored->trackView());
        if (restored->labelWidth > 0)
            c->setLabelWidth(restored->labelWidth);
        if (restored->view)
            c->setWindow(*restored->view);
    }
    m_stack->setCurrentWidget(m_doc->reports().empty() && !m_doc->isLoading() ? static_cast<QWidget *>(m_empty)
                                                                              : m_main);
    m_panes->refresh();
}

void TimelineWorkspace::setStepOverlay(int rank, const QString &rangeName)
{
    if (!rangeName.isEmpty())
        m_toolbar->setRangeName(rangeName);
    m_doc->setStepOverlay(rank, rangeName);
}

void TimelineWorkspace::setSearch(const QString &text, bool regex)
{
    m_search->setQuery(text, regex);
}

void TimelineWorkspace::updateMatchLabel()
{
    m_search->showMatches(searchResult().get(), currentMatch());
}

void TimelineWorkspace::gotoMatch(int i)
{
    const std::optional<SearchMatch> m = m_doc->chooseMatch(i);
    if (!m)
        return;
    const TimelineSelection match{m->entry, {m->track, m->index}};
    canvas()->reveal(match); // selects it and scrolls its row into view
    if (std::exchange(m_fitNextMatch, false))
        canvas()->zoomToEvent(match);
    updateMatchLabel();
}

void TimelineWorkspace::gotoFirstMatch()
{
    if (m_doc->isSearching())
        m_firstMatchPending = true; // onSearchChanged
    else if (!m_comparedSites.empty())
        showComparedSites();
    else
        gotoMatch(0);
}

// A Compare Runs phase row's own ranges: the candidate's selected, and the window fitted to both
// where they lie near each other on the axis (else to the candidate's). The first match where
// neither is on the timeline (a digest opened as its outline, a rank the Show filter hides).
void TimelineWorkspace::showComparedSites()
{
    const std::vector<CompareSite> sites = std::exchange(m_comparedSites, {});
    const TimelineScene *shown = scene().get();
    std::vector<TimelineSelection> found;
    for (const CompareSite &site : sites)
        for (size_t e = 0; shown && e < shown->entries.size(); ++e)
            if (shown->entries[e].report->report().path == site.reportPath) {
                if (const TimelineSelection s{int(e), site.range}; isValidSelection(shown, s))
                    found.push_back(s);
                break;
            }
    if (found.empty()) {
        gotoMatch(0);
        return;
    }
    m_fitNextMatch = false;
    canvas()->reveal(found.back());
    const core::TimeWindow own = *sharedWindowOf(*shown, {&found.back(), 1});
    const core::TimeWindow both = *sharedWindowOf(*shown, found);
    const core::TimeWindow fit = both.duration() <= 3 * own.duration() * int64_t(found.size()) ? both : own;
    const int64_t pad = std::max<int64_t>(fit.duration() / 20, 1);
    canvas()->setWindow({fit.start - pad, fit.end + pad});
    updateMatchLabel();
}

void TimelineWorkspace::onSearchChanged()
{
    updateMatchLabel();
    if (m_firstMatchPending && !m_doc->isSearching()) {
        m_firstMatchPending = false;
        if (!m_comparedSites.empty())
            showComparedSites();
        else
            gotoMatch(0); // nothing when the search found nothing or was cleared
    }
}

void TimelineWorkspace::nextMatch()
{
    if (m_doc->isSearching()) // Enter while the result is on its way: its first match
        gotoFirstMatch();
    else
        gotoMatch(currentMatch() + 1);
}

void TimelineWorkspace::previousMatch()
{
    gotoMatch(currentMatch() < 0 ? -1 : currentMatch() - 1);
}

TimelineSession TimelineWorkspace::session() const
{
    TimelineSession s = m_doc->session();
    if (canvas()->wantedLabelWidth() != TimelineCanvas::kDefaultLabelWidth)
        s.labelWidth = canvas()->wantedLabelWidth();
    return s;
}

void TimelineWorkspace::restoreSession(const TimelineSession &s)
{
    m_doc->restore(s);
    openPaths(s.reports);
}

} // namespace ps::views
