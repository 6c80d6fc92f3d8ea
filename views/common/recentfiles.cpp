#include "views/common/recentfiles.h"

#include <QFileInfo>
#include <QSettings>

namespace ps::views {

RecentFiles::RecentFiles(QString settingsKey, int maxEntries) : m_key(std::move(settingsKey)), m_max(maxEntries)
{
}

QStringList RecentFiles::entries() const
{
    QStringList out;
    for (const QString &p : QSettings().value(m_key).toStringList())
        if (QFileInfo::exists(p))
            out << p;
    return out;
}

void RecentFiles::add(const QString &path)
{
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = QSettings().value(m_key).toStringList();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > m_max)
        list.removeLast();
    QSettings().setValue(m_key, list);
}

void RecentFiles::remove(const QString &path)
{
    QStringList list = QSettings().value(m_key).toStringList();
    list.removeAll(QFileInfo(path).absoluteFilePath());
    QSettings().setValue(m_key, list);
}

void RecentFiles::clear()
{
    QSettings().remove(m_key);
}

} // namespace ps::views
