#pragma once
// The Timeline's Session menu (on its toolbar, rebuilt each time it opens) and the dialogs behind
// it and the empty page: open reports or a report folder beside the open ones or in their place,
// close a run or all, open and save a session file (*.psession), recent sessions. What a session
// holds is the workspace's (TimelineWorkspace::session, restoreSession); this asks for the files
// and remembers them.

#include "views/common/recentfiles.h"

#include <QObject>
#include <QString>

class QMenu;

namespace ps::views {

class TimelineWorkspace;

class SessionMenu : public QObject
{
    Q_OBJECT
public:
    SessionMenu(TimelineWorkspace *workspace, QMenu *menu);

    // Opening adds a run beside the open ones; with `replace` the open reports close first.
    void showOpenDialog(bool folder, bool replace = false);
    void showOpenSessionDialog();
    void showSaveSessionDialog();
    void openSessionFile(const QString &file);
    bool saveSession(const QString &file, QString *error = nullptr);

signals:
    void statusMessage(const QString &text, int timeoutMs);

private:
    void rebuild();

    TimelineWorkspace *m_workspace;
    QMenu *m_menu;
    RecentFiles m_recent{QStringLiteral("recent/sessions")};
};

} // namespace ps::views
