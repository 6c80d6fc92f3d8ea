#pragma once
// The most-recently-used list behind File > Recent, kept in QSettings under one key per kind
// ("recent/reports", "recent/configs") so reports and configs do not push each other out.

#include <QString>
#include <QStringList>

namespace ps::views {

class RecentFiles
{
public:
    explicit RecentFiles(QString settingsKey, int maxEntries = 10);

    // Most recent first; entries that no longer exist on disk are dropped.
    QStringList entries() const;
    // Moves `path` (made absolute) to the front, trimming the list to maxEntries.
    void add(const QString &path);
    void remove(const QString &path);
    void clear();

private:
    QString m_key;
    int m_max;
};

} // namespace ps::views
