#include "views/timeline/eventinfo.h"

#include "views/scene/timeformat.h"
#include "views/scene/vendorwords.h"

#include <QLocale>

namespace ps::views {

using namespace ps::core::trace;

namespace {
QString str(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString whereOf(const EventStore &store, const Track &t)
{
    if (isGpuKind(t.kind()))
        return QStringLiteral("GPU %1 · %2").arg(t.deviceId()).arg(str(store.name(t.label()))); // "stream 7"...
    const NameId n = t.label() != kNoName ? t.label() : store.threadName(t.pid(), t.tid());
    return QStringLiteral("thread %1 [%2] · pid %3")
        .arg(n != kNoName ? str(store.name(n)) : QStringLiteral("?"))
        .arg(t.tid())
        .arg(t.pid());
}
} // namespace

QString eventName(const EventStore &store, const Track &track, uint32_t index)
{
    const NameId n = track.name(index);
    if (track.kind() == TrackKind::Kernel)
        return str(store.name(store.shortNameOf(n)));
    return str(store.name(n));
}

EventInfo describeEvent(const TimelineEntry &entry, EventRef ref, std::optional<int64_t> wallClockOrigin)
{
    EventInfo info;
    info.wallClockOrigin = wallClockOrigin;
    const EventStore &store = entry.report->store();
    if (ref.track >= store.tracks().size() || ref.index >= store.track(ref.track).size())
        return info;
    const Track &t = store.track(ref.track);
    info.name = eventName(store, t, ref.index);
    info.fullName = str(store.name(t.name(ref.index)));
    info.kind = eventKindWord(entry.report->report().meta.format, store, t, ref.index);
    info.start = t.start(ref.index) + entry.offset;
    info.duration = t.duration(ref.index);
    info.report = entry.label;
    info.where = whereOf(store, t);
    if (t.kind() == TrackKind::Kernel) {
        if (auto lc = store.launchConfigOf(ref))
            info.extra << QStringLiteral("grid %1×%2×%3 · block %4×%5×%6")
                              .arg(lc->gridX)
                              .arg(lc->gridY)
                              .arg(lc->gridZ)
                              .arg(lc->blockX)
                              .arg(lc->blockY)
                              .arg(lc->blockZ);
    }
    if (t.kind() == TrackKind::Memcpy || t.kind() == TrackKind::Memset)
        info.extra << QLocale().formattedDataSize(qint64(t.bytes(ref.index)));
    if (isRangeKind(t.kind()) && t.levelCount() > 1)
        info.extra << QStringLiteral("level %1").arg(t.level(ref.index));
    if (isGpuKind(t.kind())) {
        if (auto api = store.apiCallFor(ref)) {
            info.correlated = api;
            const Track &a = store.track(api->track);
            info.correlatedText =
                QStringLiteral("launched by %1 on %2").arg(eventName(store, a, api->index), whereOf(store, a));
        }
    } else if (t.kind() == TrackKind::CudaApi) {
        const auto work = store.gpuWorkFor(ref);
        if (!work.empty()) {
            info.correlated = work.front();
            const Track &g = store.track(work.front().track);
            info.correlatedText =
                QStringLiteral("runs %1 %2 on %3")
                    .arg(eventKindWord(entry.report->report().meta.format, store, g, work.front().index).toLower(),
                         eventName(store, g, work.front().index), whereOf(store, g));
            if (work.size() > 1)
                info.correlatedText += QStringLiteral(" (+%1 more)").arg(work.size() - 1);
        }
    }
    return info;
}

QString EventInfo::timeText(int64_t shared) const
{
    return axisLabel(shared, 1, wallClockOrigin);
}

QString EventInfo::toolTip() const
{
    QStringList lines;
    lines << name;
    lines << QStringLiteral("%1 · %2").arg(kind, formatDuration(duration));
    lines << QStringLiteral("start %1").arg(timeText(start));
    lines << QStringLiteral("%1 · %2").arg(report, where);
    if (!correlatedText.isEmpty())
        lines << correlatedText;
    lines << extra;
    return lines.join(QLatin1Char('\n'));
}

} // namespace ps::views
