#include "views/timeline/launchflow.h"

#include "views/scene/timelinescene.h"
#include "views/timeline/overlaygeometry.h"
#include "views/timeline/rowlayout.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ps::views {

using namespace ps::core::trace;

namespace {
const QColor kFlow(0x15, 0x65, 0xc0);

// An event's rectangle on screen, or nullopt when it is not laid out.
std::optional<QRectF> eventRect(const LaunchFlow::Frame &f, int entry, EventRef ref)
{
    const TimelineEntry &e = f.scene->entries[size_t(entry)];
    const Track &t = e.report->store().track(ref.track);
    const auto lane = laneOnScreen(*f.layout, *f.viewport, entry, *e.report, ref);
    if (!lane)
        return std::nullopt;
    const double x0 = f.labelWidth + f.mapping->x(t.start(ref.index), e.offset);
    const double x1 = f.labelWidth + f.mapping->x(t.end(ref.index), e.offset);
    return QRectF(x0, lane->y, std::max(2.0, x1 - x0), lane->height - 1);
}

// Where an arrow meets an event, kept on the lanes' visible area; `away` points from there to
// the event when it lies past the area's edge (left, right, above or below).
struct FlowEnd
{
    QPointF at;
    bool offScreen = false;
    QPointF away;
};

FlowEnd onLanes(const LaunchFlow::Frame &f, double x, double y)
{
    const double left = f.labelWidth + 1.0, right = std::max(left, f.right - 2.0);
    const double top = 2.0, bottom = std::max(top, f.viewport->height - 3.0);
    const QPointF away(x < left ? -1 : x > right ? 1 : 0, y < top ? -1 : y > bottom ? 1 : 0);
    return {QPointF(std::clamp(x, left, right), std::clamp(y, top, bottom)), !away.isNull(), away};
}

// Rows closer than this touch: the arrow goes through the work's middle, not along their border.
constexpr double kTouching = 6.0;
constexpr double kWideCall = 8.0; // px

// From the middle of the call's visible part to the work's start, leaving and entering each on
// the facing edge.
std::pair<FlowEnd, FlowEnd> flowEnds(const LaunchFlow::Frame &f, const QRectF &call, const QRectF &work)
{
    const double visibleLeft = std::max(call.left(), double(f.labelWidth));
    const double visibleRight = std::min(call.right(), double(f.right));
    // A call a few pixels wide is left from its start: its neighbours are as near as its middle.
    const double callX = visibleRight - visibleLeft >= kWideCall ? (visibleLeft + visibleRight) / 2 : call.left();
    const double workX = work.left() + 1.0;
    if (work.top() >= call.bottom())
        return {onLanes(f, callX, call.bottom()),
                onLanes(f, workX, work.top() - call.bottom() < kTouching ? work.center().y() : work.top())};
    if (work.bottom() <= call.top())
        return {onLanes(f, callX, call.top()),
                onLanes(f, workX, call.top() - work.bottom() < kTouching ? work.center().y() : work.bottom())};
    return {onLanes(f, call.left(), call.center().y()), onLanes(f, workX, work.center().y())};
}

// A small head at the lanes' edge pointing to where an off-screen event is.
void markOffScreen(QPainter &p, const FlowEnd &end)
{
    const double length = std::hypot(end.away.x(), end.away.y());
    const QPointF d = end.away / length, across(-d.y(), d.x());
    const QPointF head[] = {end.at + 4 * d, end.at - 2 * d - 4 * across, end.at - 2 * d + 4 * across};
    p.drawPolygon(head, 3);
}
} // namespace

const std::vector<LaunchFlow::Pair> &LaunchFlow::pairsOf(const PreparedReportPtr &report, EventRef selected)
{
    if (m_pairsReport.lock() == report && m_pairsEvent == selected)
        return m_pairs;
    m_pairsReport = report;
    m_pairsEvent = selected;
    m_pairs.clear();
    const EventStore &s = report->store();
    const TrackKind kind = s.track(selected.track).kind();
    if (isGpuKind(kind)) {
        if (auto call = s.apiCallFor(selected))
            m_pairs.emplace_back(*call, selected);
    } else if (kind == TrackKind::CudaApi) {
        std::vector<EventRef> work = s.gpuWorkFor(selected);
        std::stable_sort(work.begin(), work.end(), [&s](EventRef a, EventRef b) {
            return s.track(a.track).start(a.index) < s.track(b.track).start(b.index);
        });
        for (EventRef w : work)
            m_pairs.emplace_back(selected, w);
    }
    return m_pairs;
}

void LaunchFlow::paint(QPainter &p, const Frame &f, const std::optional<TimelineSelection> &selection)
{
    m_drawn.clear();
    m_leftOut = 0;
    if (!selection || !f.scene || size_t(selection->entry) >= f.scene->entries.size())
        return;
    const TimelineEntry &e = f.scene->entries[size_t(selection->entry)];
    const EventStore &s = e.report->store();
    if (e.report->isOutline() || selection->ref.track >= s.tracks().size() ||
        selection->ref.index >= s.track(selection->ref.track).size())
        return; // an outline's events are not loaded: no correlation to follow
    const std::vector<Pair> &pairs = pairsOf(e.report, selection->ref);
    m_leftOut = pairs.size() > kMaxFlows ? pairs.size() - kMaxFlows : 0;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    for (size_t i = 0; i < pairs.size() && i < kMaxFlows; ++i) {
        const auto call = eventRect(f, selection->entry, pairs[i].first);
        const auto work = eventRect(f, selection->entry, pairs[i].second);
        if (!call || !work)
            continue;
        p.setPen(QPen(kFlow, 1));
        p.drawRect(pairs[i].first == selection->ref ? *work : *call); // the other end, outlined
        const auto [from, to] = flowEnds(f, *call, *work);
        const QLineF line(from.at, to.at);
        p.setPen(QPen(kFlow, 1.5));
        drawArrow(p, line, 6.0);
        p.setBrush(kFlow);
        for (const FlowEnd &end : {from, to})
            if (end.offScreen)
                markOffScreen(p, end);
        p.setBrush(Qt::NoBrush);
        m_drawn.push_back({pairs[i].first, pairs[i].second, line, from.offScreen, to.offScreen});
    }
    p.restore();
}

} // namespace ps::views
