#include "views/timeline/sessionmenu.h"

#include "views/common/filedialogs.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineviewstate.h"
#include "views/timeline/timelineworkspace.h"

#include <QFileInfo>
#include <QMenu>

namespace ps::views {

namespace {
const char kSessionFilter[] = "ProfStudio sessions (*.psession);;All files (*)";
} // namespace

SessionMenu::SessionMenu(TimelineWorkspace *workspace, QMenu *menu)
    : QObject(workspace), m_workspace(workspace), m_menu(menu)
{
    connect(menu, &QMenu::aboutToShow, this, &SessionMenu::rebuild);
}

void SessionMenu::showOpenDialog(bool folder, bool replace)
{
    QStringList paths;
    if (folder) {
        const QString d = existingDirectory(m_workspace, QStringLiteral("reports"),
                                            replace ? QStringLiteral("Open Report Folder (Replace Open Reports)")
                                                    : QStringLiteral("Open Report Folder"));
        if (!d.isEmpty())
            paths << d;
    } else {
        paths = openFileNames(m_workspace, QStringLiteral("reports"),
                              replace ? QStringLiteral("Open Reports (Replace Open Reports)")
                                      : QStringLiteral("Open Reports"),
                              TimelineWorkspace::reportFileFilter());
    }
    if (paths.isEmpty())
        return;
    if (replace)
        m_workspace->closeAll();
    m_workspace->openPaths(paths);
}

void SessionMenu::showOpenSessionDialog()
{
    const QString f =
        openFileName(m_workspace, QStringLiteral("session"), QStringLiteral("Open Session"), kSessionFilter);
    if (!f.isEmpty())
        openSessionFile(f);
}

void SessionMenu::showSaveSessionDialog()
{
    QString f = saveFileName(m_workspace, QStringLiteral("session"), QStringLiteral("Save Session"),
                             QStringLiteral("timeline.psession"), kSessionFilter);
    if (f.isEmpty())
        return;
    if (!TimelineWorkspace::isSessionFileName(f))
        f += QStringLiteral(".psession");
    saveSession(f);
}

void SessionMenu::openSessionFile(const QString &file)
{
    QString error;
    auto s = TimelineSession::load(file, error);
    if (!s) {
        emit statusMessage(error, 10000);
        return;
    }
    m_recent.add(file);
    m_workspace->restoreSession(*s);
}

bool SessionMenu::saveSession(const QString &file, QString *error)
{
    QString err;
    const bool ok = m_workspace->session().save(file, err);
    if (ok)
        m_recent.add(file);
    else if (error)
        *error = err;
    emit statusMessage(ok ? QStringLiteral("Session saved to %1").arg(file) : err, 6000);
    return ok;
}

void SessionMenu::rebuild()
{
    QMenu *m = m_menu;
    m->clear();
    m->addAction(QStringLiteral("Open Reports…"), this, [this] { showOpenDialog(false); });
    m->addAction(QStringLiteral("Open Report Folder…"), this, [this] { showOpenDialog(true); });
    m->addAction(QStringLiteral("Open Report Folder, Replacing the Open Ones…"), this, [this] {
         showOpenDialog(true, true);
     })->setEnabled(!m_workspace->reports().empty());
    QMenu *closeRunMenu = m->addMenu(QStringLiteral("Close Run"));
    closeRunMenu->setObjectName(QStringLiteral("closeRunMenu"));
    closeRunMenu->setEnabled(!m_workspace->reports().empty());
    for (const QString &run : m_workspace->runNames())
        closeRunMenu->addAction(run.isEmpty() ? QStringLiteral("(reports without a run folder)") : run, this,
                                [this, run] { m_workspace->closeRun(run); });
    m->addAction(QStringLiteral("Close All Reports"), m_workspace, &TimelineWorkspace::closeAll)
        ->setEnabled(!m_workspace->reports().empty());
    // A report whose clocks lie far from the others' is left out of Fit until this is ticked.
    TimelineViewState *state = m_workspace->canvas()->state();
    QAction *far = m->addAction(QStringLiteral("Fit Far-Clock Reports Too"));
    far->setObjectName(QStringLiteral("fitIncludesFar"));
    far->setCheckable(true);
    far->setChecked(state->fitIncludesFar());
    connect(far, &QAction::toggled, state, &TimelineViewState::setFitIncludesFar);
    m->addSeparator();
    m->addAction(QStringLiteral("Open Session…"), this, &SessionMenu::showOpenSessionDialog);
    m->addAction(QStringLiteral("Save Session…"), this, &SessionMenu::showSaveSessionDialog);
    QMenu *recent = m->addMenu(QStringLiteral("Recent Sessions"));
    const QStringList entries = m_recent.entries();
    if (entries.isEmpty())
        recent->addAction(QStringLiteral("No recent sessions"))->setEnabled(false);
    for (const QString &f : entries)
        recent->addAction(QFileInfo(f).fileName(), this, [this, f] { openSessionFile(f); });
}

} // namespace ps::views
