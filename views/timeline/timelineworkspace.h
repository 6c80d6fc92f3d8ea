#pragma once
// The Timeline workspace: many reports on one time axis. A toolbar (open, sessions, alignment,
// step overlay, search), the timeline view, the details pane of the selected event and the
// stats pane. Loads run in the background (progress bar, Cancel, Esc) and reports appear as
// their batch finishes; alignment, search, the overlay's range search and stats run on worker
// threads too, and isBusy() is true while any of them runs.

#include "views/common/workspace.h"
#include "views/timeline/eventsearch.h"
#include "views/timeline/timelinescene.h"
#include "views/timeline/timelinesession.h"

#include <QMap>

#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QToolButton;
class QTimer;

namespace ps::views {

class DetailsPane;
class EmptyState;
class RecentFiles;
class StatsPane;
class TimelineCanvas;
class TimelineLoader;
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

    // True for the file names ProfStudio reads as reports (nsys SQLite/.nsys-rep, rocpd and
    // Ascend .db, Kineto .json/.json.gz).
    static bool isReportFileName(const QString &fileName);
    static bool isSessionFileName(const QString &fileName);

    // Adds reports loaded elsewhere (tests, the render command); prepared in the background.
    void addReports(std::vector<core::trace::ReportPtr> reports);
    const std::vector<PreparedReportPtr> &reports() const { return m_reports; }
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
    std::shared_ptr<const SearchResult> searchResult() const { return m_search; }
    int currentMatch() const { return m_currentMatch; }
    void nextMatch();
    void previousMatch();

    TimelineSession session() const;
    void restoreSession(const TimelineSession &s);
    bool saveSession(const QString &file, QString *error = nullptr);

    TimelineView *view() const { return m_view; }
    TimelineCanvas *canvas() const;
    DetailsPane *details() const { return m_details; }
    StatsPane *stats() const { return m_stats; }
    QLineEdit *searchEdit() const { return m_searchEdit; }
    QLabel *matchLabel() const { return m_matchLabel; }
    QProgressBar *progressBar() const { return m_progress; }
    QPushButton *cancelButton() const { return m_cancel; }

private:
    void buildUi();
    void onReportsReady(const std::vector<PreparedReportPtr> &reports);
    void onLoadFinished(bool cancelled);
    void realign();
    void rebuildScene();
    void applyScene(std::shared_ptr<const TimelineScene> scene);
    void runSearch();
    void gotoMatch(int i);
    void updateDetails();
    void updateStatsInput();
    void updateMatchLabel();
    void beginJob();
    void endJob();
    void setBusyState(bool wasBusy);
    void openSessionFile(const QString &file);
    void rebuildRecentSessions();
    void showOpenDialog(bool folder);

    TimelineLoader *m_loader = nullptr;
    std::vector<PreparedReportPtr> m_reports;
    size_t m_loadBase = 0; // reports before this index came from earlier loads
    std::vector<int64_t> m_alignOffsets;
    QMap<QString, qint64> m_nudges; // by report path
    QString m_align = QStringLiteral("utc");
    QStringList m_alignWarnings;
    std::optional<std::pair<int, QString>> m_overlay;
    std::shared_ptr<const TimelineScene> m_scene;
    std::shared_ptr<const SearchResult> m_search;
    int m_currentMatch = -1;
    int m_jobs = 0;
    int m_alignGeneration = 0;
    int m_sceneGeneration = 0;
    int m_searchGeneration = 0;
    bool m_fitOnNextScene = true;
    std::optional<TimelineSession> m_pendingSession; // applied when its reports have loaded
    QStringList m_queuedPaths;                       // opened while a load ran
    std::shared_ptr<std::atomic<bool>> m_searchCancel;

    QStackedWidget *m_stack = nullptr;
    EmptyState *m_empty = nullptr;
    QWidget *m_main = nullptr;
    TimelineView *m_view = nullptr;
    DetailsPane *m_details = nullptr;
    StatsPane *m_stats = nullptr;
    QComboBox *m_alignCombo = nullptr;
    QLineEdit *m_rangeEdit = nullptr;
    QComboBox *m_viewCombo = nullptr;
    QLineEdit *m_searchEdit = nullptr;
    QCheckBox *m_regex = nullptr;
    QLabel *m_matchLabel = nullptr;
    QWidget *m_progressRow = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_progressText = nullptr;
    QPushButton *m_cancel = nullptr;
    QToolButton *m_sessionButton = nullptr;
    QTimer *m_searchDebounce = nullptr;
    QTimer *m_statsDebounce = nullptr;
    QTimer *m_realignThrottle = nullptr;
    std::unique_ptr<RecentFiles> m_recentSessions;
};

} // namespace ps::views
