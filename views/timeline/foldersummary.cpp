#include "views/timeline/foldersummary.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QMap>
#include <QStringList>

#include <algorithm>
#include <vector>

namespace ps::views {

QString folderSummary(const QString &path, const core::CancelToken *cancel, int limit)
{
    QMap<QString, int> byKind;
    int seen = 0;
    QDirIterator it(path, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (it.hasNext() && seen < limit) {
        if (cancel && cancel->cancelled())
            return {};
        const QFileInfo fi(it.next());
        ++seen;
        const QString suffix = fi.suffix().toUpper();
        byKind[suffix == QLatin1String("YML") ? QStringLiteral("YAML") : suffix]++;
    }
    if (seen == 0)
        return QStringLiteral("an empty folder, no reports");
    std::vector<std::pair<int, QString>> kinds;
    for (auto i = byKind.cbegin(); i != byKind.cend(); ++i)
        kinds.emplace_back(i.value(), i.key());
    std::stable_sort(kinds.begin(), kinds.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    QStringList parts;
    for (const auto &[count, kind] : kinds) {
        const QString noun = count == 1 ? QStringLiteral("file") : QStringLiteral("files");
        parts << (kind.isEmpty() ? QStringLiteral("%1 %2 without an extension").arg(count).arg(noun)
                                 : QStringLiteral("%1 %2 %3").arg(count).arg(kind, noun));
    }
    if (seen >= limit)
        parts << QStringLiteral("more not counted");
    return parts.join(QStringLiteral(", ")) + QStringLiteral(", no reports");
}

} // namespace ps::views
