#include "views/timeline/timelinesession.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace ps::views {

TrackView TimelineSession::trackView() const
{
    const auto set = [](const QStringList &list) { return QSet<QString>(list.begin(), list.end()); };
    TrackView v;
    v.collapsed = set(collapsed);
    v.hiddenKinds = set(hiddenKinds);
    v.hiddenTracks = set(hiddenTracks);
    v.pinned = pinned;
    v.fullDepth = set(fullDepth);
    v.order = laneOrder;
    return v;
}

void TimelineSession::setTrackView(const TrackView &view)
{
    const auto sorted = [](const QSet<QString> &set) {
        QStringList list(set.begin(), set.end());
        list.sort();
        return list;
    };
    collapsed = sorted(view.collapsed);
    hiddenKinds = sorted(view.hiddenKinds);
    hiddenTracks = sorted(view.hiddenTracks);
    pinned = view.pinned;
    fullDepth = sorted(view.fullDepth);
    laneOrder = view.order;
}

QByteArray TimelineSession::toJson() const
{
    QJsonObject o;
    o[QStringLiteral("profstudio_session")] = kVersion;
    o[QStringLiteral("reports")] = QJsonArray::fromStringList(reports);
    o[QStringLiteral("align")] = align;
    QJsonObject n;
    for (auto it = nudges.begin(); it != nudges.end(); ++it)
        n[it.key()] = QString::number(it.value()); // strings: JSON numbers lose int64 precision
    o[QStringLiteral("nudges_ns")] = n;
    o[QStringLiteral("collapsed")] = QJsonArray::fromStringList(collapsed);
    o[QStringLiteral("hidden_kinds")] = QJsonArray::fromStringList(hiddenKinds);
    o[QStringLiteral("hidden_tracks")] = QJsonArray::fromStringList(hiddenTracks);
    o[QStringLiteral("pinned")] = QJsonArray::fromStringList(pinned);
    o[QStringLiteral("full_depth")] = QJsonArray::fromStringList(fullDepth);
    QJsonObject order;
    for (auto it = laneOrder.begin(); it != laneOrder.end(); ++it)
        order[it.key()] = QJsonArray::fromStringList(it.value());
    o[QStringLiteral("lane_order")] = order;
    if (labelWidth > 0)
        o[QStringLiteral("label_width")] = labelWidth;
    if (view) {
        QJsonObject v;
        v[QStringLiteral("start_ns")] = QString::number(view->start);
        v[QStringLiteral("end_ns")] = QString::number(view->end);
        o[QStringLiteral("view")] = v;
    }
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

std::optional<TimelineSession> TimelineSession::fromJson(const QByteArray &json, QString &error)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        error = QStringLiteral("not a ProfStudio session (%1)").arg(pe.errorString());
        return std::nullopt;
    }
    const QJsonObject o = doc.object();
    const int version = o.value(QStringLiteral("profstudio_session")).toInt(0);
    if (version < 1 || version > kVersion) {
        error = version == 0 ? QStringLiteral("not a ProfStudio session (no profstudio_session version)")
                             : QStringLiteral("session version %1 is newer than this ProfStudio reads (%2)")
                                   .arg(version)
                                   .arg(kVersion);
        return std::nullopt;
    }
    TimelineSession s;
    for (const auto &v : o.value(QStringLiteral("reports")).toArray())
        s.reports << v.toString();
    s.align = o.value(QStringLiteral("align")).toString(QStringLiteral("utc"));
    const QJsonObject n = o.value(QStringLiteral("nudges_ns")).toObject();
    for (auto it = n.begin(); it != n.end(); ++it)
        s.nudges[it.key()] = it.value().toString().toLongLong();
    const auto stringsOf = [](const QJsonValue &array) {
        QStringList out;
        for (const auto &v : array.toArray())
            out << v.toString();
        return out;
    };
    const auto strings = [&](const char *key) { return stringsOf(o.value(QLatin1String(key))); };
    s.collapsed = strings("collapsed");
    s.hiddenKinds = strings("hidden_kinds");
    s.hiddenTracks = strings("hidden_tracks");
    s.pinned = strings("pinned");
    s.fullDepth = strings("full_depth");
    const QJsonObject order = o.value(QStringLiteral("lane_order")).toObject(); // absent before 2026-11
    for (auto it = order.begin(); it != order.end(); ++it)
        s.laneOrder[it.key()] = stringsOf(it.value());
    s.labelWidth = o.value(QStringLiteral("label_width")).toInt(0);
    if (o.contains(QStringLiteral("view"))) {
        const QJsonObject v = o.value(QStringLiteral("view")).toObject();
        bool ok1 = false, ok2 = false;
        const qint64 a = v.value(QStringLiteral("start_ns")).toString().toLongLong(&ok1);
        const qint64 b = v.value(QStringLiteral("end_ns")).toString().toLongLong(&ok2);
        if (ok1 && ok2 && b > a)
            s.view = TimeWindow{a, b};
    }
    return s;
}

bool TimelineSession::save(const QString &file, QString &error) const
{
    QSaveFile f(file);
    if (!f.open(QIODevice::WriteOnly) || f.write(toJson()) < 0 || !f.commit()) {
        error = QStringLiteral("cannot write %1: %2").arg(file, f.errorString());
        return false;
    }
    return true;
}

std::optional<TimelineSession> TimelineSession::load(const QString &file, QString &error)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        error = QStringLiteral("cannot read %1: %2").arg(file, f.errorString());
        return std::nullopt;
    }
    auto s = fromJson(f.read(1 << 24), error);
    if (!s)
        error = file + QStringLiteral(": ") + error;
    return s;
}

} // namespace ps::views
