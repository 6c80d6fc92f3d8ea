#pragma once
// Open and save dialogs that remember, per purpose ("reports", "session", "yaml", ...), the folder
// last used and start there, and that suggest a file name when saving: each dialog used to start
// in the working directory with an empty name. The folders live in QSettings.

#include <QString>
#include <QStringList>

class QWidget;

namespace ps::views {

// Where a dialog for `purpose` starts: the folder last used for it (else the home folder), with
// `suggestedName` appended when given.
QString dialogStartPath(const QString &purpose, const QString &suggestedName = {});
// Records the folder of `chosen` (a file or a folder) for `purpose`; empty `chosen` is ignored.
void rememberDialogPath(const QString &purpose, const QString &chosen);

QString saveFileName(QWidget *parent, const QString &purpose, const QString &title, const QString &suggestedName,
                     const QString &filter);
QString openFileName(QWidget *parent, const QString &purpose, const QString &title, const QString &filter);
QStringList openFileNames(QWidget *parent, const QString &purpose, const QString &title, const QString &filter);
QString existingDirectory(QWidget *parent, const QString &purpose, const QString &title);

} // namespace ps::views
