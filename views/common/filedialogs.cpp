#include "views/common/filedialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace ps::views {

namespace {
QString settingsKey(const QString &purpose)
{
    return QStringLiteral("dialogs/") + purpose;
}
} // namespace

QString dialogStartPath(const QString &purpose, const QString &suggestedName)
{
    QString dir = QSettings().value(settingsKey(purpose)).toString();
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        dir = QDir::homePath();
    return suggestedName.isEmpty() ? dir : QDir(dir).filePath(suggestedName);
}

void rememberDialogPath(const QString &purpose, const QString &chosen)
{
    if (chosen.isEmpty())
        return;
    const QFileInfo fi(chosen);
    QSettings().setValue(settingsKey(purpose), fi.isDir() ? fi.absoluteFilePath() : fi.absolutePath());
}

QString saveFileName(QWidget *parent, const QString &purpose, const QString &title, const QString &suggestedName,
                     const QString &filter)
{
    QString f = QFileDialog::getSaveFileName(parent, title, dialogStartPath(purpose, suggestedName), filter);
    rememberDialogPath(purpose, f);
    return f;
}

QString openFileName(QWidget *parent, const QString &purpose, const QString &title, const QString &filter)
{
    QString f = QFileDialog::getOpenFileName(parent, title, dialogStartPath(purpose), filter);
    rememberDialogPath(purpose, f);
    return f;
}

QStringList openFileNames(QWidget *parent, const QString &purpose, const QString &title, const QString &filter)
{
    QStringList files = QFileDialog::getOpenFileNames(parent, title, dialogStartPath(purpose), filter);
    if (!files.isEmpty())
        rememberDialogPath(purpose, files.first());
    return files;
}

QString existingDirectory(QWidget *parent, const QString &purpose, const QString &title)
{
    QString d = QFileDialog::getExistingDirectory(parent, title, dialogStartPath(purpose));
    rememberDialogPath(purpose, d);
    return d;
}

} // namespace ps::views
