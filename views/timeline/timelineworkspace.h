#pragma once
// The Timeline workspace: many reports on one time axis. A toolbar (TimelineToolbar: sessions,
// alignment, step overlay, search), the timeline view, the details pane of the selected event and the
// stats pane. Loads run in the background (progress bar, Cancel, Esc) and reports appear as
// their batch finishes; alignment, search, the overlay's range search and stats run on worker
// threads too, and isBusy() is true while any of them runs.

#include "views/common/workspace.h"
#include "views/scene/timelinescene.h"
#include "views/timeline/eventinfo.h"
#include "views/timeline/eventsearch.h"
#include "views/timeline/timelinesession.h"

#include <QMap>

#include <array>
#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTimer;

namespace ps::core::trace {
struct AlignResult;
}

namespace ps::views {

class BreakdownPane;
class ComparePane;
class CollectivesPane;
class MemoryBlocksPane;
class DetailsPane;
class EmptyState;
class ProblemsBanner;
class PhasesPane;
class LatestJobBase;
class OverviewController;
template <typename T> class LatestJob;
class RecentFiles;
class StatsPane;
class TimelineCanvas;
class TimelineLoader;
class TimelineSearchBar;
class TimelineToolbar;
class TimelineView;

class TimelineWorkspace : public Workspace
{
    Q_OBJECT
public:
    explicit TimelineWorkspace(QWidget *parent = nullptr);
    ~TimelineWorkspace() override;

    QString title() const override { return QStringLiteral("Timeline"); }
    bool accepts(const QString &path) const override;
    // Report files and folders are loaded and added; a *.psession file replaces the session.
    void openPaths(const QStringList &paths) override;
    bool isBusy() const override;
    void flushDeferred() override;
    QList<QAction *> editActions() const override;

    // True for the file names ProfStudio reads as reports (nsys SQLite/.nsys-rep, rocpd and
    // Ascend .db, Kineto .json/.json.gz).
    static bool isReportFileName(const QString &fileName);
    // The Open dialog's name filter for those files.
    static QString reportFileFilter();
    static bool isSessionFileName(const QString &fileName);

    // Adds reports loaded elsewhere (tests, the render command); prepared in the background.
    void addReports(std::vector<core::trace::ReportPtr> reports);
    const std::vector<PreparedReportPtr> &reports() const { return m_reports; }
    // Closes every report (Session > Close All Reports); the empty page shows again.
    void closeAll();
    // The runs open (identity.run, in report order), and Session > Close Run.
    QStringList runNames() const;
    void closeRun(const QString &run);
    // The files the last load could not read, with the core's messages (empty when all loaded).
    const ProblemsBanner *problems() const { return m_problems; }
    PhasesPane *phasesPane() const { return m_phases; }
    ComparePane *comparePane() const { return m_compare; }
    OverviewController *overview() const { return m_overview; }
    BreakdownPane *breakdownPane() const { return m_breakdown; }
    CollectivesPane *collectivesPane() const { return m_collectives; }
    std::shared_ptr<const TimelineScene> scene() const { return m_scene; }
    void cancelLoad();

    // Alignment: "utc", "start" or "range:NAME[#K]". Returns false on bad syntax.
    bool setAlignment(const QString &spec);
    QString alignment() const { return m_align; }
    QStringList alignmentWarnings() const { return m_alignWarnings; }
    // Extra offset of one report (index into reports()) on top of the alignment, ns.
    void setNudge(int report, int64_t ns);
    int64_t nudge(int report) const;

    // Step overlay of one rank (index into rankChoices(reports())); an empty range name stacks
    // the rank's reports at their first event. clearStepOverlay() returns to all reports.
    void setStepOverlay(int rank, const QString &rangeName);
    void clearStepOverlay();

    void setSearch(const QString &text, bool regex = false);
    std::shared_ptr<const SearchResult> searchResult() const { return m_searchResult; }
    int currentMatch() const { return m_currentMatch; }
    void nextMatch();
    void previousMatch();

    TimelineSession session() const;
    void restoreSession(const TimelineSession &s);
    bool saveSession(const QString &file, QString *error = nullptr);
    // File > Open Session… / Save Session… (and the Session menu).
    void showOpenSessionDialog();
    void showSaveSessionDialog();

    TimelineView *view() const { return m_view; }
    TimelineCanvas *canvas() const;
    DetailsPane *details() const { return m_details; }
    StatsPane *stats() const { return m_stats; }
    QLineEdit *searchEdit() const;
    QLabel *matchLabel() const;
    QProgressBar *progressBar() const { return m_progress; }
    QPushButton *cancelButton() const { return m_cancel; }
    EmptyState *emptyState() const { return m_empty; }

signals:
    // The empty page's "Open the Demo Run": the main window writes the demo and opens it.
    void demoRequested();

private:
    void buildUi();
    void buildEmptyState();
    QWidget *buildProgressRow();
    QWidget *buildPanes();
    void connectPanes();
    void connectToolbar();
    void onReportsReady(const std::vector<PreparedReportPtr> &reports);
    void onLoadFinished(bool cancelled);
    void showLoadSummary(bool cancelled);
    void recordOpened();
    std::vector<int> entriesOfOneRun(const std::vector<int> &entries);
    void chooseDefaultAlignment(const std::vector<core::trace::ReportPtr> &reports);
    void realign();
    void rebuildScene();
    void swapReport(const PreparedReportPtr &from, const PreparedReportPtr &to);
    void applyScene(std::shared_ptr<const TimelineScene> scene);
    void runSearch();
    void gotoMatch(int i);
    void updateDetails();
    void selectInPanes();
    void updateStatsInput();
    void updateMatchLabel();
    void createJobs();
    std::array<LatestJobBase *, 3> jobs() const;
    bool jobsRunning() const;
    void applyAlignment(const core::trace::AlignResult &res);
    void setBusyState(bool wasBusy);
    void openSessionFile(const QString &file);
    void rebuildRecentSessions();
    void showOpenDialog(bool folder, bool replace = false);

    TimelineLoader *m_loader = nullptr;
    std::vector<PreparedReportPtr> m_reports;
    size_t m_loadBase = 0; // reports before this index came from earlier loads
    std::vector<int64_t> m_alignOffsets;
    QMap<QString, qint64> m_nudges; // by report path
    QString m_align = QStringLiteral("utc");
    bool m_alignChosen = false; // by the user or a session; else UTC, or start (chooseDefaultAlignment)
    QString m_defaultAlignNote; // why the default alignment is not UTC
    QStringList m_alignWarnings;
    std::optional<int64_t> m_utcOrigin; // UTC ns of axis 0 when aligned by UTC
    std::optional<std::pair<int, QString>> m_overlay;
    std::shared_ptr<const TimelineScene> m_scene;
    std::shared_ptr<const SearchResult> m_searchResult;
    int m_currentMatch = -1;
    LatestJob<core::trace::AlignResult> *m_alignJob = nullptr;
    LatestJob<TimelineScene> *m_overlayJob = nullptr; // step overlays (plain scenes are built inline)
    LatestJob<SearchResult> *m_searchJob = nullptr;
    bool m_fitOnNextScene = true;
    std::optional<TimelineSession> m_pendingSession; // applied when its reports have loaded
    QStringList m_queuedPaths;                       // opened while a load ran
    QStringList m_requested;                         // paths of the running load: Open Recent gets those that loaded
    int m_failedCount = 0;                           // files of the last load that failed
    int m_cancelledCount = 0;                        // and that a cancel left unloaded
    bool m_nothingFound = false;                     // the last load's folders held no reports

    ProblemsBanner *m_problems = nullptr;
    QStackedWidget *m_stack = nullptr;
    EmptyState *m_empty = nullptr;
    QWidget *m_main = nullptr;
    TimelineView *m_view = nullptr;
    DetailsPane *m_details = nullptr;
    StatsPane *m_stats = nullptr;
    PhasesPane *m_phases = nullptr;
    ComparePane *m_compare = nullptr;
    CollectivesPane *m_collectives = nullptr; // collectivewiring.h
    MemoryBlocksPane *m_memory = nullptr;     // memorywiring.h
    QTabWidget *m_bottomTabs = nullptr;
    TimelineToolbar *m_toolbar = nullptr;
    TimelineSearchBar *m_search = nullptr;
    QWidget *m_progressRow = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_progressText = nullptr;
    QPushButton *m_cancel = nullptr;
    QTimer *m_statsDebounce = nullptr;
    QAction *m_findAction = nullptr;
    QTimer *m_realignThrottle = nullptr;
    std::unique_ptr<RecentFiles> m_recentSessions;
    BreakdownPane *m_breakdown = nullptr;     // the Breakdown tab
    OverviewController *m_overview = nullptr; // the cluster overview, Go to Rank (overviewcontroller.h)
};

} // namespace ps::views
