#pragma once
// Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y act on a workspace's own undo stack wherever focus is inside
// it. A line edit (also a spin box's or an editable combo's) takes them while it has an undo or
// redo of its own, as editors do; without, it lets them through to the workspace's Undo and Redo
// actions, where Qt would otherwise have it swallow them and undo nothing.

#include <QKeySequence>
#include <QList>

class QWidget;

namespace ps::views {

// The platform's undo keys; its redo keys with Ctrl+Shift+Z and Ctrl+Y, which editors on every
// desktop answer (QKeySequence(QKeySequence::Redo) alone is only the first of them, Ctrl+Y here).
QList<QKeySequence> undoKeys();
QList<QKeySequence> redoKeys();

void routeUndoKeysToWorkspace(QWidget *workspace);

} // namespace ps::views
