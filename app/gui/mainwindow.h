#pragma once
// The main window: the Configure and Timeline workspaces as tabs, the menu bar, the status bar,
// recent files, drag and drop, and window geometry kept across sessions.

#include <QMainWindow>

class QMenu;
class QTabWidget;

namespace ps::views {
class RecentFiles;
class TimelineView;
class Workspace;
} // namespace ps::views

namespace ps::app {

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Routes each path to the workspace that accepts it (configs → Configure, reports and
    // folders → Timeline) and brings that workspace to the front.
    void openPaths(const QStringList &paths);
    // Shows the workspace whose title is `title` ("Configure" or "Timeline"); false if none.
    bool showWorkspace(const QString &title);
    ps::views::Workspace *workspace(const QString &title) const;
    // Shows the first tab titled `name` ("RL Phases"; mnemonics and a trailing count ignored) in
    // the current workspace, as `--tab` asks; false if it has none.
    bool showTab(const QString &name);
    // File > Clear Report Cache: removes every cached report (and nsys export) after asking,
    // unless `ask` is false; says in the status bar what was freed. Returns the files removed.
    int clearReportCache(bool ask = true);
    // File > Open the Demo Run (and the start page's button): writes the built-in demo run to
    // demoRunDir() in the background and opens it; demoOpened follows.
    void openDemoRun();
    static QString demoRunDir();
    // Help > Keyboard Shortcuts: a non-modal sheet of every shortcut and canvas control.
    void showShortcuts();
    QString shortcutsHtml() const;

signals:
    void demoOpened(const QString &reportDir);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void moveEvent(QMoveEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void createMenus();
    void fitFrameToScreen();
    void exportTimelineImage(ps::views::TimelineView *view);
    void addWorkspace(ps::views::Workspace *w, const QString &shortcut);
    void rebuildRecentMenu();
    void openReportsDialog();
    void openFolderDialog();
    void openConfigDialog();
    void showAbout();

    QTabWidget *m_tabs = nullptr;
    QList<ps::views::Workspace *> m_workspaces;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_recentMenu = nullptr;
    std::unique_ptr<ps::views::RecentFiles> m_recentReports;
    std::unique_ptr<ps::views::RecentFiles> m_recentConfigs;
    bool m_writingDemo = false;
    // The window has our default size (not restored or set) and the window manager has not yet
    // framed it: fitFrameToScreen fits it on show and as the frame arrives.
    bool m_fitFrame = false;
};

} // namespace ps::app
