#pragma once
// The Timeline workspace's document, as ConfigSession is Configure's: what is open and how it is
// shown, apart from the widgets that show it. It holds
//   - the open reports, loaded by its TimelineLoader and paged in and out by its ReportPager
//     (a digest's outline and the same report with its events take each other's place here);
//   - their alignment, the per-report nudges and the step overlay, and the scene built from them;
//   - the view state (TimelineViewState: window, scroll, selection, ruler) and the track view
//     (TrackView: collapsed, hidden, pinned rows);
//   - the search and its current match;
//   - the analyses in flight: alignment, step overlay and search run as LatestJobs, and reports
//     arriving during a load are realigned at most every 50 ms.
// It signals every change. The workspace wires widgets to it and the canvas draws it and turns
// input into its changes; a canvas made alone (tests, the render command) makes its own.

#include "views/scene/timelinescene.h"
#include "views/timeline/eventsearch.h"
#include "views/timeline/rowlayout.h"
#include "views/timeline/timelinesession.h"
#include "views/timeline/timelineviewstate.h"

#include <QMap>
#include <QObject>
#include <QSet>
#include <QStringList>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QTimer;

namespace ps::core::trace {
struct AlignResult;
}

namespace ps::views {

class LatestJobBase;
template <typename T> class LatestJob;
class ReportPager;
class TimelineLoader;

class TimelineDocument : public QObject
{
    Q_OBJECT
public:
    explicit TimelineDocument(QObject *parent = nullptr);
    ~TimelineDocument() override;

    // --- Reports -------------------------------------------------------------------------------
    const std::vector<PreparedReportPtr> &reports() const { return m_reports; }
    // The runs open (identity.run, in report order).
    QStringList runNames() const { return runNamesOf(m_reports); }
    // Loads report files and folders in the background, skipping those open already (they are
    // reported as opened). While a load runs they wait for it. True when a load started now.
    bool load(const QStringList &paths);
    // Adds reports loaded elsewhere (tests, the render command); prepared in the background.
    bool addReports(std::vector<core::trace::ReportPtr> reports);
    void cancelLoad();
    bool isLoading() const;
    // A search was asked for and its result has not arrived yet.
    bool isSearching() const;
    // Closes the reports of one run; the others stay, realigned without it. Closing the last
    // run closes all. Returns how many reports closed.
    size_t closeRun(const QString &run);
    // Closes the one report at `path` (a report header's Close This Report), as closeRun does.
    bool closeReport(const QString &path);
    void closeAll();
    TimelineLoader *loader() const { return m_loader; }
    // Pages a digest's events in where the view zooms past its pyramids (reportpager.h).
    ReportPager *pager() const { return m_pager; }

    // --- Alignment and step overlay ------------------------------------------------------------
    // "utc", "start" or "range:NAME[#K]"; false (with `error`) on bad syntax.
    bool setAlignment(const QString &spec, QString &error);
    QString alignment() const { return m_align; }
    QStringList alignmentWarnings() const { return m_alignWarnings; }
    // Extra offset of one report (index into reports()) on top of the alignment, ns.
    void setNudge(int report, int64_t ns);
    int64_t nudge(int report) const;
    // Step overlay of one rank (index into rankChoices(reports())); an empty range name stacks
    // the rank's reports at their first event.
    void setStepOverlay(int rank, const QString &rangeName);
    void clearStepOverlay();
    const std::optional<std::pair<int, QString>> &stepOverlay() const { return m_overlay; }

    // --- Scene and view ------------------------------------------------------------------------
    std::shared_ptr<const TimelineScene> scene() const { return m_scene; }
    // Shows a scene built elsewhere (a canvas alone, tests); the selection of the old one goes.
    void setScene(std::shared_ptr<const TimelineScene> scene, bool keepWindow = false);
    TimelineViewState *state() const { return m_state; }
    std::optional<TimelineSelection> selection() const { return m_state->selection(); }
    void select(std::optional<TimelineSelection> s) { m_state->select(s); }
    // Hidden and pinned tracks with the collapsed headers. Past kDenseReports in a scene, reports
    // new to the document start as one density row each (a 1024-rank run fits on a screen; a
    // report the user expanded stays expanded when the scene is rebuilt).
    static constexpr size_t kDenseReports = 32;
    // The timeline's visible height: a new run that would start below it opens folded.
    void setViewHeight(int height) { m_viewHeight = height; }
    const TrackView &trackView() const { return m_trackView; }
    void setTrackView(const TrackView &view);
    // Applies `edit` to a copy of the track view and shows the result.
    void changeTrackView(const std::function<void(TrackView &)> &edit);

    // --- Search --------------------------------------------------------------------------------
    // Searches the scene on a worker (again whenever the scene changes); an empty query clears.
    void search(const SearchQuery &query);
    std::shared_ptr<const SearchResult> searchResult() const { return m_searchResult; }
    int currentMatch() const { return m_currentMatch; }
    // The match `i` (wrapped around), made current; nullopt without matches.
    std::optional<SearchMatch> chooseMatch(int i);

    // --- Sessions ------------------------------------------------------------------------------
    // The session of what is open (the label column's width is the canvas's: the caller adds it).
    TimelineSession session() const;
    // Closes what is open and takes the session's alignment and nudges; its rows and window wait
    // for its reports (takeRestoredView()). The caller loads s.reports.
    void restore(const TimelineSession &s);
    // The restored session whose reports have all loaded, once; nullopt otherwise.
    std::optional<TimelineSession> takeRestoredView();

    // A load, a realignment still to come, or a job is running.
    bool isBusy() const;
    // Runs a pending realignment now (tests, render).
    void flushDeferred();

signals:
    // A new scene (or none); keepWindow false asks the view to fit it.
    void sceneChanged(bool keepWindow);
    void trackViewChanged();
    void searchChanged();
    void alignmentChanged(const QString &spec);
    // The step overlay's rank choices ("All reports" is index 0, then ranks), as the scene changes.
    void rankChoicesChanged(const QStringList &ranks, int current);
    void busyChanged(bool busy);
    void statusMessage(const QString &text, int timeoutMs);
    void problem(const QString &title, const QStringList &lines);
    // A load starts (the previous load's problems are history) or is being cancelled.
    void loadStarting();
    void loadCancelling();
    // A load ended (reports may still be realigning); then openedPath for each requested path
    // that gave a report has been emitted.
    void loadFinished(bool cancelled);
    void openedPath(const QString &path);
    // Everything was closed (closeAll, or the last run closed).
    void closedAll();

private:
    void createJobs();
    std::array<LatestJobBase *, 3> jobs() const;
    bool jobsRunning() const;
    void setBusyState(bool wasBusy);
    void onReportsReady(const std::vector<PreparedReportPtr> &reports);
    void onLoadFinished(bool cancelled);
    void leaveOutDuplicates();
    // Closes the reports `closes` accepts; the others stay, realigned. Returns how many closed.
    size_t closeWhere(const std::function<bool(const PreparedReport &)> &closes);
    void recordOpened();
    void realign();
    void chooseDefaultAlignment(const std::vector<core::trace::ReportPtr> &reports);
    void applyAlignment(const core::trace::AlignResult &res);
    void rebuildScene();
    void applyScene(std::shared_ptr<const TimelineScene> scene);
    void collapseNewReportsWhenDense();
    void swapReport(const PreparedReportPtr &from, const PreparedReportPtr &to);
    void runSearch();

    TimelineLoader *m_loader = nullptr;
    ReportPager *m_pager = nullptr;
    TimelineViewState *m_state = nullptr;
    std::vector<PreparedReportPtr> m_reports;
    size_t m_loadBase = 0;     // reports before this index came from earlier loads
    QStringList m_queuedPaths; // opened while a load ran
    QStringList m_requested;   // paths of the running load: openedPath for those that loaded
    QTimer *m_realignThrottle = nullptr;

    std::vector<int64_t> m_alignOffsets;
    QMap<QString, qint64> m_nudges; // by report path
    QString m_align = QStringLiteral("utc");
    bool m_alignChosen = false; // by the user or a session; else UTC, or start (chooseDefaultAlignment)
    QString m_defaultAlignNote; // why the default alignment is not UTC
    QStringList m_alignWarnings;
    bool m_alignFellBack = false;       // the last alignment did not find the range asked for (the combo says so)
    std::optional<int64_t> m_utcOrigin; // UTC ns of axis 0 when aligned by UTC
    std::optional<std::pair<int, QString>> m_overlay;
    bool m_fitOnNextScene = true;
    std::optional<TimelineSession> m_pendingSession; // applied when its reports have loaded

    std::shared_ptr<const TimelineScene> m_scene;
    TrackView m_trackView;
    QSet<QString> m_seenReports; // report keys of every scene shown (kDenseReports)
    int m_viewHeight = 1 << 20;  // the timeline's visible height, for folding a new run (setViewHeight)

    SearchQuery m_query;
    std::shared_ptr<const SearchResult> m_searchResult;
    bool m_searchAwaited = false; // runSearch started a search whose result has not come
    int m_currentMatch = -1;

    LatestJob<core::trace::AlignResult> *m_alignJob = nullptr;
    LatestJob<TimelineScene> *m_overlayJob = nullptr; // step overlays (plain scenes are built inline)
    LatestJob<SearchResult> *m_searchJob = nullptr;
};

} // namespace ps::views
