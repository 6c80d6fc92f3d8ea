#pragma once
// A workspace is one of the main window's modes (Configure, Timeline). The main window routes
// opened and dropped paths to the workspace that accepts them and shows its messages in the
// status bar; workspaces never reach into the main window.

#include <QList>
#include <QStringList>
#include <QWidget>

class QAction;

namespace ps::views {

class Workspace : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;

    virtual QString title() const = 0;
    // Whether `path` (a file or folder) is something this workspace opens.
    virtual bool accepts(const QString &path) const = 0;
    // Opens the paths; long work runs in the background and reports through the signals.
    virtual void openPaths(const QStringList &paths) = 0;
    // True while background work (loading, composing) is running; headless screenshots wait for
    // it to end.
    virtual bool isBusy() const { return false; }
    // Starts now any work that waits out a debounce or throttle delay (those delays keep typing
    // and dragging smooth). Headless screenshots and renders call it, as they want the settled
    // view at once, and so do tests.
    virtual void flushDeferred() {}
    // What the main window's Edit menu offers while this workspace is shown (Undo, Redo, Find);
    // the actions belong to the workspace, which also handles their shortcuts.
    virtual QList<QAction *> editActions() const { return {}; }
    // Asked before the window closes; a workspace with unsaved edits asks the user and returns
    // false to keep the window open.
    virtual bool confirmClose() { return true; }

signals:
    void statusMessage(const QString &text, int timeoutMs = 0);
    // A path was opened successfully and belongs in File > Recent.
    void openedPath(const QString &path);
    void busyChanged(bool busy);
    // Asks the main window to show another workspace ("Configure"), e.g. from a start page.
    void workspaceRequested(const QString &title);
};

} // namespace ps::views
