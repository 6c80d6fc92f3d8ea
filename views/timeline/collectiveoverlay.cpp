#include "views/timeline/collectiveoverlay.h"

#include "views/scene/timeformat.h"
#include "views/timeline/overlaygeometry.h"
#include "views/timeline/rowlayout.h"

#include <QPainter>

#include <cmath>

namespace ps::views {

using namespace ps::core::trace;
namespace an = ps::core::analysis;

namespace {
const QColor kHatch(0x26, 0x32, 0x38);
const QColor kWaitWash(0xff, 0xff, 0xff, 0x70); // lightens the kernel's colour under the hatching
const QColor kArrow(0xc6, 0x28, 0x28);
const QColor kMember(0xc6, 0x28, 0x28);
const QColor kNoteBg(0xc6, 0x28, 0x28, 0xe0);
} // namespace

const an::CollectiveInstance *CollectiveOverlay::focusedInstance() const
{
    if (!m_view || !m_focus || *m_focus >= m_view->analysis.instances.size())
        return nullptr;
    return &m_view->analysis.instances[*m_focus];
}

void CollectiveOverlay::beginFrame()
{
    m_waits.clear();
    m_arrows.clear();
}

void CollectiveOverlay::paintWaits(QPainter &p, const Frame &f)
{
    if (!m_view || !f.scene)
        return;
    const size_t first = m_waits.size();
    for (int ri = f.firstRow; ri < f.lastRow; ++ri) {
        const Row &r = f.layout->rows()[size_t(ri)];
        if (r.kind == RowKind::Track)
            collectWaits(f, r);
    }
    if (m_waits.size() > first) {
        std::vector<QRect> rects;
        rects.reserve(m_waits.size() - first);
        for (size_t i = first; i < m_waits.size(); ++i) {
            rects.push_back(m_waits[i].rect);
            m_waits[i].rect.translate(0, f.shift); // kept in widget pixels
        }
        p.setPen(Qt::NoPen);
        p.setBrush(kWaitWash);
        p.drawRects(rects.data(), int(rects.size()));
        p.setBrush(QBrush(kHatch, Qt::BDiagPattern));
        p.drawRects(rects.data(), int(rects.size()));
        p.setBrush(Qt::NoBrush);
    }
}

// The hatched part of every collective kernel on a track row: [own arrival, last arrival).
void CollectiveOverlay::collectWaits(const Frame &f, const Row &r)
{
    const TimelineEntry &e = f.scene->entries[size_t(r.entry)];
    const int report = m_view->reportOf(r.entry, &e.report->report());
    if (report < 0)
        return;
    const TimeMapping &m = *f.mapping;
    const int width = f.size.width() - f.labelWidth;
    const int64_t from = m.time(0) - e.offset, to = m.time(width) - e.offset;
    for (const WaitSpan &w : m_view->waitsIn(report, r.track, from, to)) {
        const int level = eventLevel(*e.report, {r.track, w.index});
        if (level >= r.levels)
            continue; // on a folded level
        const int x0 = f.labelWidth + int(std::floor(std::max(-4.0, m.x(w.ownStart, e.offset))));
        const int x1 =
            f.labelWidth + int(std::floor(std::min(double(width + 4), m.x(w.ownStart + w.waitNs, e.offset))));
        if (x1 - x0 < 2)
            continue; // too narrow to show a pattern
        const int y = r.y - f.scrollY + level * RowLayout::kLaneHeight;
        m_waits.push_back({r.entry, w.instance, QRect(x0, y + 1, x1 - x0, RowLayout::kLaneHeight - 2)});
    }
}

// Where a member arrived on screen (the left edge of its kernel, mid-lane; its report header
// when its track is collapsed), and its kernel's rectangle.
std::optional<QPointF> CollectiveOverlay::arrivalPoint(const Frame &f, const an::CollectiveMember &m,
                                                       QRectF *kernel) const
{
    if (m.report >= m_view->entries.size())
        return std::nullopt;
    const int entry = m_view->entries[m.report];
    if (size_t(entry) >= f.scene->entries.size())
        return std::nullopt;
    const TimelineEntry &e = f.scene->entries[size_t(entry)];
    if (m_view->reportOf(entry, &e.report->report()) != int(m.report))
        return std::nullopt; // the scene changed since the match
    const int64_t ownStart = m.startNs - m_view->offsets[m.report], ownEnd = m.endNs - m_view->offsets[m.report];
    const double x0 = f.labelWidth + f.mapping->x(ownStart, e.offset);
    const double x1 = f.labelWidth + f.mapping->x(ownEnd, e.offset);
    const auto lane = laneOnScreen(*f.layout, *f.viewport, entry, *e.report, m.event);
    if (!lane)
        return std::nullopt; // under a collapsed group
    *kernel = QRectF(x0, lane->y, std::max(2.0, x1 - x0), lane->height - 1);
    return QPointF(x0, lane->middle());
}

// The focused instance: its members' kernels outlined on every rank, and an arrow from each
// member's arrival to the last arrival. Past kMaxArrows members (a 64-rank allreduce) a fan of
// arrows is a solid wedge: only the kShownArrows longest waits get one, and a note at the last
// arrival counts the others.
void CollectiveOverlay::paintFocus(QPainter &p, const Frame &f)
{
    m_leftOut = 0;
    m_note.clear();
    const an::CollectiveInstance *inst = focusedInstance();
    if (!inst || !f.scene)
        return;
    std::optional<QPointF> last;
    std::vector<std::pair<const an::CollectiveMember *, QPointF>> arrivals;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(kMember, 2));
    for (const an::CollectiveMember &m : inst->members) {
        QRectF kernel;
        const auto at = arrivalPoint(f, m, &kernel);
        if (!at)
            continue;
        p.drawRect(kernel);
        if (inst->complete && m.rank == inst->lastRank)
            last = at;
        else
            arrivals.emplace_back(&m, *at);
    }
    if (last) {
        if (arrivals.size() > kMaxArrows) {
            std::stable_sort(arrivals.begin(), arrivals.end(),
                             [](const auto &a, const auto &b) { return a.first->waitNs > b.first->waitNs; });
            m_leftOut = arrivals.size() - kShownArrows;
            arrivals.resize(kShownArrows);
        }
        p.setPen(QPen(kArrow, 1.5));
        for (const auto &[member, from] : arrivals) {
            const QLineF line(from, *last);
            drawArrow(p, line);
            m_arrows.push_back({member->rank, inst->lastRank, line});
        }
        if (m_leftOut > 0)
            paintNote(p, *last, *inst, f.size.width());
    }
    p.restore();
}

// "arrows from the 8 longest waits; 1015 more ranks waited (median 25.0 ms)", in a box beside
// the last arrival.
void CollectiveOverlay::paintNote(QPainter &p, QPointF last, const an::CollectiveInstance &inst, int width)
{
    const size_t instance = size_t(&inst - m_view->analysis.instances.data());
    m_note =
        QStringLiteral("arrows from the %1 longest waits; %2 more rank(s) waited").arg(kShownArrows).arg(m_leftOut);
    if (instance < m_view->medianWait.size())
        m_note += QStringLiteral(" (median wait %1)").arg(formatDuration(m_view->medianWait[instance]));
    const QFontMetrics fm(p.font());
    QRectF box(last + QPointF(8, -fm.height() - 6), QSizeF(fm.horizontalAdvance(m_note) + 10, fm.height() + 4));
    if (box.right() > width) // keep it on screen: to the left of the arrival
        box.moveRight(last.x() - 8);
    if (box.top() < 0)
        box.moveTop(last.y() + 6);
    p.fillRect(box, kNoteBg);
    p.setPen(kArrow);
    p.drawRect(box);
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, m_note);
}

} // namespace ps::views
