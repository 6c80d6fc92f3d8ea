#include "views/timeline/ranknavigator.h"

#include "core/trace/read/reportsource.h"
#include "views/timeline/reportpager.h"
#include "views/timeline/timelinecanvas.h"

namespace ps::views {

RankNavigator::RankNavigator(TimelineCanvas *canvas) : QObject(canvas), m_canvas(canvas)
{
    connect(canvas->document()->pager(), &ReportPager::failed, this, [this] { m_pending.reset(); });
}

void RankNavigator::goTo(int entry, std::optional<int64_t> sharedNs, std::optional<core::trace::EventRef> event)
{
    const TimelineScene *scene = m_canvas->scene();
    if (!scene || entry < 0 || size_t(entry) >= scene->entries.size())
        return;
    const PreparedReportPtr &report = scene->entries[size_t(entry)].report;
    m_pending.reset();
    if (report->isOutline() && core::trace::digestHasEvents(report->report())) {
        m_pending = Pending{report->report().path, sharedNs, event};
        m_canvas->document()->pager()->requestNow(report);
        show(entry, sharedNs, std::nullopt); // the outline at once; the event when it arrives
        return;
    }
    show(entry, sharedNs, report->isOutline() ? std::nullopt : event);
    emit arrived(entry);
}

void RankNavigator::sceneChanged()
{
    const TimelineScene *scene = m_canvas->scene();
    if (!m_pending || !scene)
        return;
    for (size_t i = 0; i < scene->entries.size(); ++i) {
        const PreparedReport &r = *scene->entries[i].report;
        if (r.report().path == m_pending->path && !r.isOutline()) {
            const Pending p = *m_pending;
            m_pending.reset();
            show(int(i), p.sharedNs, p.event);
            emit arrived(int(i));
            return;
        }
    }
}

void RankNavigator::show(int entry, const std::optional<int64_t> &sharedNs,
                         const std::optional<core::trace::EventRef> &event)
{
    const TimelineEntry &e = m_canvas->scene()->entries[size_t(entry)];
    if (sharedNs) {
        const TimeWindow w = m_canvas->window();
        m_canvas->setWindow({*sharedNs - w.duration() / 2, *sharedNs - w.duration() / 2 + w.duration()});
    }
    if (event && event->track < e.report->store().tracks().size()) {
        m_canvas->reveal({entry, *event}); // expands what hides it and scrolls to it
        return;
    }
    m_canvas->changeTrackView([&](TrackView &v) {
        for (const QString &k : RowLayout::keysHiding(e))
            v.collapsed.remove(k);
    });
    if (const int row = m_canvas->layout().reportRowOf(entry); row >= 0)
        m_canvas->setScrollY(m_canvas->layout().rows()[size_t(row)].y - RowLayout::kHeaderHeight);
}

} // namespace ps::views
