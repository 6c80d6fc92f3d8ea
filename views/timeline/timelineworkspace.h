#pragma once
// The Timeline workspace: many reports on one time axis. It wires widgets to its TimelineDocument
// (timelinedocument.h: the open reports, their alignment, the scene, selection, track view, paging
// and the analyses in flight): a toolbar (TimelineToolbar: sessions, alignment, step overlay,
// search), the progress row of a load (Cancel, Esc), the problems banner, the empty page, and the
// timeline view with its panes (TimelinePanes). isBusy() is true while the document or a pane
// works in the background.

#include "views/common/workspace.h"
#include "views/stats/comparesite.h"
#include "views/timeline/loadprogress.h"
#include "views/timeline/sessionmenu.h"
#include "views/timeline/timelinedocument.h"
#include "views/timeline/timelinepanes.h"

#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QStackedWidget;

namespace ps::views {

class EmptyState;
class ProblemsBanner;
class TimelineCanvas;
class TimelineSearchBar;
class TimelineToolbar;

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

    // What is open and how it is shown (reports, alignment, scene, selection, track view, paging).
    TimelineDocument *document() const { return m_doc; }
    // Adds reports loaded elsewhere (tests, the render command); prepared in the background.
    void addReports(std::vector<core::trace::ReportPtr> reports);
    const std::vector<PreparedReportPtr> &reports() const { return m_doc->reports(); }
    // Closes every report (Session > Close All Reports); the empty page shows again.
    void closeAll();
    // The runs open (identity.run, in report order), and Session > Close Run.
    QStringList runNames() const { return m_doc->runNames(); }
    void closeRun(const QString &run);
    // A report header's Close This Report.
    void closeReport(const QString &path);
    // The files the last load could not read, with the core's messages (empty when all loaded).
    const ProblemsBanner *problems() const { return m_problems; }
    PhasesPane *phasesPane() const { return m_panes->phases(); }
    ComparePane *comparePane() const { return m_panes->compare(); }
    OverviewController *overview() const { return m_panes->overview(); }
    BreakdownPane *breakdownPane() const { return m_panes->breakdown(); }
    CollectivesPane *collectivesPane() const { return m_panes->collectives(); }
    std::shared_ptr<const TimelineScene> scene() const { return m_doc->scene(); }
    void cancelLoad() { m_doc->cancelLoad(); }

    // Alignment: "utc", "start" or "range:NAME[#K]". Returns false on bad syntax.
    bool setAlignment(const QString &spec);
    QString alignment() const { return m_doc->alignment(); }
    QStringList alignmentWarnings() const { return m_doc->alignmentWarnings(); }
    // Extra offset of one report (index into reports()) on top of the alignment, ns.
    void setNudge(int report, int64_t ns) { m_doc->setNudge(report, ns); }
    int64_t nudge(int report) const { return m_doc->nudge(report); }

    // Step overlay of one rank (index into rankChoices(reports())); an empty range name stacks
    // the rank's reports at their first event. clearStepOverlay() returns to all reports.
    void setStepOverlay(int rank, const QString &rangeName);
    void clearStepOverlay() { m_doc->clearStepOverlay(); }

    void setSearch(const QString &text, bool regex = false);
    std::shared_ptr<const SearchResult> searchResult() const { return m_doc->searchResult(); }
    int currentMatch() const { return m_doc->currentMatch(); }
    void nextMatch();
    void previousMatch();

    TimelineSession session() const;
    void restoreSession(const TimelineSession &s);
    bool saveSession(const QString &file, QString *error = nullptr) { return m_sessionMenu->saveSession(file, error); }
    // File > Open Session… / Save Session… (and the Session menu).
    void showOpenSessionDialog() { m_sessionMenu->showOpenSessionDialog(); }
    void showSaveSessionDialog() { m_sessionMenu->showSaveSessionDialog(); }

    TimelineView *view() const { return m_panes->view(); }
    TimelineCanvas *canvas() const { return m_panes->canvas(); }
    DetailsPane *details() const { return m_panes->details(); }
    StatsPane *stats() const { return m_panes->stats(); }
    QLineEdit *searchEdit() const;
    QLabel *matchLabel() const;
    QProgressBar *progressBar() const { return m_progressRow->progressBar(); }
    QPushButton *cancelButton() const { return m_progressRow->cancelButton(); }
    EmptyState *emptyState() const { return m_empty; }

signals:
    // The empty page's "Open the Demo Run": the main window writes the demo and opens it.
    void demoRequested();

private:
    void buildUi();
    void buildEmptyState();
    void connectDocument();
    void connectCanvas();
    void connectToolbar();
    void onSceneChanged(bool keepWindow);
    void onLoadFinished();
    void gotoMatch(int i);
    void updateMatchLabel();
    // The first match, now, or when the search under way finishes.
    void gotoFirstMatch();
    void showComparedSites();
    void onSearchChanged();

    TimelineDocument *m_doc = nullptr;

    ProblemsBanner *m_problems = nullptr;
    QStackedWidget *m_stack = nullptr;
    EmptyState *m_empty = nullptr;
    QWidget *m_main = nullptr;
    TimelinePanes *m_panes = nullptr;
    TimelineToolbar *m_toolbar = nullptr;
    TimelineSearchBar *m_search = nullptr;
    LoadProgressRow *m_progressRow = nullptr;
    SessionMenu *m_sessionMenu = nullptr;
    QAction *m_findAction = nullptr;
    bool m_firstMatchPending = false;         // Enter came before the search's result
    bool m_fitNextMatch = false;              // the next match shown is fitted, not only revealed (Compare Runs)
    std::vector<CompareSite> m_comparedSites; // a Compare Runs row's own ranges, shown once found
};

} // namespace ps::views
