#include "views/common/undokeys.h"

#include <QApplication>
#include <QKeyEvent>
#include <QLineEdit>

namespace ps::views {

QList<QKeySequence> undoKeys()
{
    return QKeySequence::keyBindings(QKeySequence::Undo);
}

QList<QKeySequence> redoKeys()
{
    QList<QKeySequence> keys = QKeySequence::keyBindings(QKeySequence::Redo);
    for (const char *extra : {"Ctrl+Shift+Z", "Ctrl+Y"})
        if (!keys.contains(QKeySequence(QString::fromLatin1(extra))))
            keys << QKeySequence(QString::fromLatin1(extra));
    return keys;
}

namespace {

class UndoKeyRouter : public QObject
{
public:
    explicit UndoKeyRouter(QWidget *workspace) : QObject(workspace), m_workspace(workspace) {}

    // The line edit accepts the shortcut override of every undo and redo key; filtering the event
    // away before it does lets the key reach the shortcut map, and so the workspace's actions.
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::ShortcutOverride)
            return false;
        auto *edit = qobject_cast<QLineEdit *>(watched);
        if (!edit || !m_workspace->isAncestorOf(edit))
            return false;
        const QKeySequence pressed(static_cast<QKeyEvent *>(event)->keyCombination());
        if (undoKeys().contains(pressed))
            return !edit->isUndoAvailable();
        if (redoKeys().contains(pressed))
            return !edit->isRedoAvailable();
        return false;
    }

private:
    QWidget *m_workspace;
};

} // namespace

void routeUndoKeysToWorkspace(QWidget *workspace)
{
    qApp->installEventFilter(new UndoKeyRouter(workspace));
}

} // namespace ps::views
