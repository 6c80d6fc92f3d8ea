#include "views/timeline/eventcopy.h"

#include "views/scene/timeformat.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineviewstate.h"

#include <QApplication>
#include <QClipboard>

namespace ps::views {

QString withoutInvisible(QString text)
{
    text.removeIf([](QChar c) {
        const char16_t u = c.unicode();
        return u == 0x00AD || (u >= 0x200B && u <= 0x200F) || (u >= 0x2060 && u <= 0x2064) || u == 0xFEFF;
    });
    return text;
}

QList<std::pair<QString, QString>> detailRows(const EventInfo &info)
{
    QList<std::pair<QString, QString>> rows;
    rows.append({QStringLiteral("name"), info.name});
    if (info.fullName != info.name)
        rows.append({QStringLiteral("full name"), info.fullName});
    rows.append({QStringLiteral("kind"), info.kind});
    rows.append({QStringLiteral("duration"), formatDuration(info.duration)});
    rows.append({QStringLiteral("start"), info.timeText(info.start)});
    rows.append({QStringLiteral("end"), info.timeText(info.start + info.duration)});
    rows.append({QStringLiteral("report"), info.report});
    rows.append({QStringLiteral("where"), info.where});
    for (const QString &x : info.extra)
        rows.append({QStringLiteral("detail"), x});
    if (!info.correlatedText.isEmpty())
        rows.append({QStringLiteral("correlated"), info.correlatedText});
    return rows;
}

QString eventDetailsText(const EventInfo &info)
{
    QStringList lines;
    for (const auto &[key, value] : detailRows(info))
        lines << key + QLatin1Char('\t') + QString(value).replace(QLatin1Char('\t'), QLatin1Char(' '));
    return withoutInvisible(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
}

void copyToClipboard(const QString &text)
{
    QApplication::clipboard()->setText(withoutInvisible(text));
}

namespace {
std::optional<EventInfo> selectedEventInfo(const TimelineScene *scene, const TimelineCanvas &canvas)
{
    const auto s = canvas.selection();
    if (!s || !scene || s->entry < 0 || size_t(s->entry) >= scene->entries.size())
        return std::nullopt;
    return describeEvent(scene->entries[size_t(s->entry)], s->ref, canvas.state()->wallClockOrigin());
}
} // namespace

QString copySelectedEventName(const TimelineScene *scene, const TimelineCanvas &canvas)
{
    const auto info = selectedEventInfo(scene, canvas);
    if (!info)
        return {};
    copyToClipboard(info->name);
    return QStringLiteral("Copied “%1”").arg(withoutInvisible(info->name));
}

} // namespace ps::views
