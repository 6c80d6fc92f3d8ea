#include "views/timeline/timelinedocument.h"

#include "core/analysis/phases/phaseanchor.h"
#include "core/trace/alignment.h"
#include "core/trace/read/duplicatereports.h"
#include "core/trace/read/reportsource.h"
#include "views/common/latestjob.h"
#include "views/timeline/reportpager.h"
#include "views/timeline/timelineloader.h"

#include <QSignalBlocker>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace ps::views {

using namespace ps::core::trace;
using ps::core::CancelToken;

TimelineDocument::TimelineDocument(QObject *parent)
    : QObject(parent), m_loader(new TimelineLoader(this)), m_pager(new ReportPager(this)),
      m_state(new TimelineViewState(this))
{
    createJobs();
    // Reports arrive one by one while loading; realigning (all reports, on a worker) and
    // rebuilding the scene at most every 50 ms keeps a load of N reports from doing it N times.
    m_realignThrottle = new QTimer(this);
    m_realignThrottle->setSingleShot(true);
    m_realignThrottle->setInterval(50);
    connect(m_realignThrottle, &QTimer::timeout, this, &TimelineDocument::realign);
    connect(m_loader, &TimelineLoader::reportsReady, this, &TimelineDocument::onReportsReady);
    connect(m_loader, &TimelineLoader::finished, this, &TimelineDocument::onLoadFinished);
    // Queued: the pager may drop a report while the canvas paints.
    connect(m_pager, &ReportPager::pagedIn, this, &TimelineDocument::swapReport, Qt::QueuedConnection);
    connect(m_pager, &ReportPager::pagedOut, this, &TimelineDocument::swapReport, Qt::QueuedConnection);
    connect(m_pager, &ReportPager::failed, this, [this](const QString &reason) {
        emit problem(QStringLiteral("The events of a digest could not be loaded"), {reason});
    });
    // Far-clock reports taken into the extent, or left out again: the scene and the fit follow.
    connect(m_state, &TimelineViewState::fitIncludesFarChanged, this, [this] {
        m_fitOnNextScene = true;
        rebuildScene();
    });
}

TimelineDocument::~TimelineDocument() = default;

void TimelineDocument::createJobs()
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
        m_searchAwaited = false;
        m_searchResult = std::make_shared<SearchResult>(r);
        emit searchChanged();
    });
    for (LatestJobBase *job : jobs())
        connect(job, &LatestJobBase::busyChanged, this, [this] { emit busyChanged(isBusy()); });
}

std::array<LatestJobBase *, 3> TimelineDocument::jobs() const
{
    return {m_alignJob, m_overlayJob, m_searchJob};
}

bool TimelineDocument::jobsRunning() const
{
    const auto j = jobs();
    return std::any_of(j.begin(), j.end(), [](const LatestJobBase *job) { return job->isBusy(); });
}

bool TimelineDocument::isBusy() const
{
    return m_loader->isRunning() || jobsRunning() || m_realignThrottle->isActive();
}

bool TimelineDocument::isLoading() const
{
    return m_loader->isRunning();
}

bool TimelineDocument::isSearching() const
{
    return m_searchAwaited;
}

void TimelineDocument::setBusyState(bool wasBusy)
{
    if (wasBusy != isBusy())
        emit busyChanged(isBusy());
}

void TimelineDocument::flushDeferred()
{
    if (m_realignThrottle->isActive()) {
        m_realignThrottle->stop();
        realign();
    }
}

bool TimelineDocument::load(const QStringList &paths)
{
    QStringList fresh; // what is open already is skipped
    for (const QString &p : paths) {
        bool open = false;
        for (const auto &r : m_reports)
            open = open || QString::fromStdString(r->report().path) == p;
        if (!open)
            fresh << p;
        else
            emit openedPath(p); // open already: it belongs in Open Recent
    }
    if (fresh.isEmpty())
        return false;
    if (m_loader->isRunning()) {
        m_queuedPaths << fresh;
        return false;
    }
    const bool was = isBusy();
    m_loadBase = m_reports.size();
    m_requested = fresh;
    emit loadStarting();
    m_loader->load(fresh);
    setBusyState(was);
    return true;
}

bool TimelineDocument::addReports(std::vector<ReportPtr> reports)
{
    const bool was = isBusy();
    const size_t base = m_reports.size();
    if (!m_loader->addReports(std::move(reports)))
        return false;
    m_loadBase = base;
    setBusyState(was);
    return true;
}

void TimelineDocument::cancelLoad()
{
    if (!m_loader->isRunning())
        return;
    m_loader->cancel();
    m_queuedPaths.clear();
    emit loadCancelling();
}

void TimelineDocument::onReportsReady(const std::vector<PreparedReportPtr> &reports)
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
void TimelineDocument::recordOpened()
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

// One rank, one report, decided as the CLI decides it (duplicatereports.h), over every report
// open, so a load that adds a second copy of a rank leaves one of them out too.
void TimelineDocument::leaveOutDuplicates()
{
    std::vector<core::trace::ReportPtr> reports;
    for (const auto &r : m_reports)
        reports.push_back(r->reportPtr());
    const std::vector<core::trace::LeftOutReport> leftOut = core::trace::duplicateReports(reports);
    if (leftOut.empty())
        return;
    m_pager->clear(); // back to outlines, as closeRun does: paged copies may be among them
    QStringList lines;
    std::vector<bool> drop(m_reports.size(), false);
    for (const core::trace::LeftOutReport &l : leftOut) {
        drop[l.index] = true;
        lines << QString::fromStdString(l.reason);
        m_nudges.remove(QString::fromStdString(reports[l.index]->path));
    }
    std::vector<PreparedReportPtr> kept;
    for (size_t i = 0; i < m_reports.size(); ++i)
        if (!drop[i])
            kept.push_back(m_reports[i]);
    m_reports = std::move(kept);
    m_alignOffsets.assign(m_reports.size(), 0);
    m_overlay.reset(); // its rank indices were the old reports'
    m_fitOnNextScene = true;
    realign();
    emit problem(QStringLiteral("%1 report(s) left out: another report holds the same rank").arg(leftOut.size()),
                 lines);
}

void TimelineDocument::onLoadFinished(bool cancelled)
{
    leaveOutDuplicates();
    recordOpened();
    emit loadFinished(cancelled);
    if (!m_queuedPaths.isEmpty()) {
        const QStringList q = m_queuedPaths;
        m_queuedPaths.clear();
        load(q);
    }
    // With a realign still to come, its scene applies the session instead.
    if (!jobsRunning() && !m_realignThrottle->isActive() && m_pendingSession)
        applyScene(m_scene);
    setBusyState(true);
}

size_t TimelineDocument::closeRun(const QString &run)
{
    return closeWhere(
        [&run](const PreparedReport &r) { return QString::fromStdString(r.report().identity.run) == run; });
}

bool TimelineDocument::closeReport(const QString &path)
{
    return closeWhere([&path](const PreparedReport &r) { return QString::fromStdString(r.report().path) == path; }) > 0;
}

size_t TimelineDocument::closeWhere(const std::function<bool(const PreparedReport &)> &closes)
{
    m_pager->clear(); // back to outlines: what stays paged is asked for again
    cancelLoad();
    std::vector<PreparedReportPtr> kept;
    for (const auto &r : m_reports) {
        if (!closes(*r))
            kept.push_back(r);
        else
            m_nudges.remove(QString::fromStdString(r->report().path));
    }
    const size_t closed = m_reports.size() - kept.size();
    if (closed == 0)
        return 0;
    if (kept.empty()) {
        closeAll();
        return closed;
    }
    m_reports = std::move(kept);
    m_alignOffsets.assign(m_reports.size(), 0);
    m_overlay.reset(); // its rank indices were the old reports'
    m_fitOnNextScene = true;
    realign();
    return closed;
}

void TimelineDocument::closeAll()
{
    m_pager->clear();
    cancelLoad();
    m_queuedPaths.clear();
    m_reports.clear();
    m_alignOffsets.clear();
    m_overlay.reset();
    m_nudges.clear();
    m_pendingSession.reset();
    m_align = QStringLiteral("utc");
    m_alignChosen = false; // the next run gets the default again
    emit alignmentChanged(m_align);
    applyScene(nullptr);
    emit closedAll();
}

bool TimelineDocument::setAlignment(const QString &spec, QString &error)
{
    std::string why;
    if (!parseAlignSpec(spec.toStdString(), why)) {
        error = QString::fromStdString(why);
        return false;
    }
    m_align = spec;
    m_alignChosen = true;
    emit alignmentChanged(spec);
    realign();
    return true;
}

void TimelineDocument::realign()
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
    // "On range" takes an RL phase's name too, as the RL Phases pane names them.
    m_alignJob->run(
        [plain, spec](const CancelToken &) { return alignReports(plain, spec, core::analysis::rangeOrPhaseAnchor()); });
}

namespace {
// The UTC time of a report's first event. An origin of 0 means the report's own clock is the
// epoch (Kineto, Ascend): its events say when they ran, so origins alone are never compared. A
// first event before 2000 is a clock that was never set, not a time: nullopt, as without an origin.
std::optional<int64_t> wallClockStart(const Report &r)
{
    if (!r.meta.utcStartNs)
        return std::nullopt;
    constexpr int64_t kYear2000Ns = 946'684'800'000'000'000;
    const int64_t utc = *r.meta.utcStartNs + extentOf(r).firstStart; // the events, or the digest's
    return utc >= kYear2000Ns ? std::optional<int64_t>(utc) : std::nullopt;
}
} // namespace

// UTC origins more than a day apart are separate runs (or a host whose clock was never set):
// aligned by UTC they would sit days apart on one axis with every event a sliver, so the default
// becomes "start". Choosing UTC in Align keeps UTC.
void TimelineDocument::chooseDefaultAlignment(const std::vector<ReportPtr> &reports)
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
    if (first && *last - *first > kDayNs) {
        m_align = QStringLiteral("start");
        m_defaultAlignNote = QStringLiteral("Reports' UTC origins are %1 days apart: aligned by start (choose UTC "
                                            "in Align to align by wall clock)")
                                 .arg(double(*last - *first) / double(kDayNs), 0, 'f', 1);
    }
    emit alignmentChanged(m_align);
}

void TimelineDocument::applyAlignment(const AlignResult &res)
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
    // A range no report has: the banner says so, the Align combo shows the mode actually used.
    std::string ignored;
    const auto asked = parseAlignSpec(m_align.toStdString(), ignored);
    const bool fellBack = asked && asked->mode != res.used;
    if (fellBack)
        emit problem(QStringLiteral("Alignment on %1 fell back").arg(m_align), m_alignWarnings);
    if (std::exchange(m_alignFellBack, fellBack) || fellBack)
        emit alignmentChanged(fellBack ? QString::fromStdString(alignSpecText({res.used, {}, {}})) : m_align);
    // Aligned by UTC, axis 0 is the earliest report's UTC origin: the axis can say wall-clock dates.
    m_utcOrigin = res.utcOriginNs;
    rebuildScene();
}

void TimelineDocument::setNudge(int report, int64_t ns)
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

int64_t TimelineDocument::nudge(int report) const
{
    if (report < 0 || size_t(report) >= m_reports.size())
        return 0;
    return m_nudges.value(QString::fromStdString(m_reports[size_t(report)]->report().path), 0);
}

void TimelineDocument::setStepOverlay(int rank, const QString &rangeName)
{
    m_overlay = std::make_pair(rank, rangeName);
    m_fitOnNextScene = true;
    rebuildScene();
}

void TimelineDocument::clearStepOverlay()
{
    if (!m_overlay)
        return;
    m_overlay.reset();
    m_fitOnNextScene = true;
    rebuildScene();
}

void TimelineDocument::rebuildScene()
{
    if (m_reports.empty()) {
        applyScene(nullptr);
        return;
    }
    const std::vector<RankChoice> ranks = rankChoices(m_reports);
    QStringList rankLabels;
    for (const RankChoice &r : ranks)
        rankLabels << r.label;
    emit rankChoicesChanged(rankLabels, m_overlay ? m_overlay->first + 1 : 0);
    // A step overlay's axis is time into the step: relative, whatever the alignment.
    m_state->setWallClockOrigin(m_overlay ? std::nullopt : m_utcOrigin);
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
    auto scene = std::make_shared<TimelineScene>(buildScene(m_reports, offsets));
    scene->farIncluded = m_state->fitIncludesFar();
    applyScene(std::move(scene));
}

void TimelineDocument::applyScene(std::shared_ptr<const TimelineScene> scene)
{
    const bool fit = m_fitOnNextScene;
    m_fitOnNextScene = false;
    setScene(std::move(scene), !fit);
    if (!m_query.isEmpty())
        runSearch();
}

void TimelineDocument::setScene(std::shared_ptr<const TimelineScene> scene, bool keepWindow)
{
    m_scene = std::move(scene);
    if (!m_scene || !m_scene->overlay) // closed reports' and runs' choices go with them
        m_trackView = m_trackView.keptFor(m_scene.get());
    {
        // The selection of the old scene means nothing in the new one; the view says so once
        // when it has shown the new scene (TimelineCanvas).
        const QSignalBlocker quiet(m_state);
        m_state->select(std::nullopt);
    }
    collapseNewReportsWhenDense();
    emit sceneChanged(keepWindow);
}

// Shown in sceneChanged, not trackViewChanged: the view lays the scene out once.
void TimelineDocument::collapseNewReportsWhenDense()
{
    if (!m_scene)
        return;
    const bool dense = m_scene->entries.size() > kDenseReports;
    // A new run that would start below the fold opens folded, so every run is on the first screen;
    // its reports that arrive later open folded too.
    m_trackView.collapsed.unite(newReportsOfFoldedRuns(*m_scene, m_trackView, m_seenReports));
    m_trackView.collapsed.unite(reportsToFoldForNewRun(*m_scene, m_trackView, m_viewHeight, m_seenReports));
    for (const TimelineEntry &e : m_scene->entries) {
        const QString key = RowLayout::reportKey(e);
        if (m_seenReports.contains(key))
            continue;
        m_seenReports.insert(key);
        if (dense)
            m_trackView.collapsed.insert(key);
    }
}

void TimelineDocument::setTrackView(const TrackView &view)
{
    m_trackView = view;
    emit trackViewChanged();
}

void TimelineDocument::changeTrackView(const std::function<void(TrackView &)> &edit)
{
    TrackView v = m_trackView;
    v.foldedReportHeight = 0; // a user's edit ends a collective's squeezed view (membersinview.h)
    edit(v);
    setTrackView(v);
}

// A report's outline and the same report with its events paged in take each other's place.
void TimelineDocument::swapReport(const PreparedReportPtr &from, const PreparedReportPtr &to)
{
    const auto it = std::find(m_reports.begin(), m_reports.end(), from);
    if (it == m_reports.end())
        return;
    *it = to;
    if (const auto s = selection(); s && s->entry >= 0 && m_scene && m_scene->entries[size_t(s->entry)].report == from)
        select(std::nullopt); // its event is in the report going out
    rebuildScene();
}

void TimelineDocument::search(const SearchQuery &query)
{
    m_query = query;
    runSearch();
}

void TimelineDocument::runSearch()
{
    m_currentMatch = -1;
    m_searchAwaited = !m_query.isEmpty() && m_scene;
    if (!m_searchAwaited) {
        m_searchJob->cancel();
        m_searchResult.reset();
        emit searchChanged();
        return;
    }
    m_searchJob->run(
        [scene = m_scene, q = m_query](const CancelToken &cancel) { return searchEvents(*scene, q, &cancel); });
}

std::optional<SearchMatch> TimelineDocument::chooseMatch(int i)
{
    if (!m_searchResult || m_searchResult->matches.empty())
        return std::nullopt;
    const int n = int(m_searchResult->matches.size());
    m_currentMatch = ((i % n) + n) % n;
    return m_searchResult->matches[size_t(m_currentMatch)];
}

TimelineSession TimelineDocument::session() const
{
    TimelineSession s;
    for (const auto &r : m_reports)
        s.reports << QString::fromStdString(r->report().path);
    s.align = m_align;
    s.nudges = m_nudges;
    s.setTrackView(m_trackView);
    if (m_scene)
        s.view = m_state->window();
    return s;
}

void TimelineDocument::restore(const TimelineSession &s)
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
    emit alignmentChanged(m_align);
    m_pendingSession = s;
    applyScene(nullptr);
    m_pendingSession = s; // applyScene(nullptr) above must not consume it
}

std::optional<TimelineSession> TimelineDocument::takeRestoredView()
{
    if (!m_pendingSession || m_loader->isRunning())
        return std::nullopt;
    std::optional<TimelineSession> s = std::move(m_pendingSession);
    m_pendingSession.reset();
    return s;
}

} // namespace ps::views
