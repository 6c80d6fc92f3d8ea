#include "views/timeline/timelinecanvas.h"

#include "views/common/namecolors.h"
#include "views/timeline/eventinfo.h"
#include "views/timeline/timeformat.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace ps::views {

using namespace ps::core::trace;

namespace {
const QColor kBackground(0xff, 0xff, 0xff);
const QColor kLaneAlt(0xf7, 0xf8, 0xfa);
const QColor kGroupBg(0xdf, 0xe4, 0xec);
const QColor kReportBg(0xec, 0xef, 0xf4);
const QColor kLabelBg(0xf4, 0xf5, 0xf7);
const QColor kGrid(0xe6, 0xe8, 0xec);
const QColor kSeparator(0xc4, 0xc9, 0xd2);
const QColor kMatch(0xff, 0x8f, 0x00);
const QColor kRulerFill(0x1e, 0x88, 0xe5, 0x30);
const QColor kRulerEdge(0x1e, 0x88, 0xe5);
constexpr int kDragThreshold = 4;
constexpr double kKeyZoom = 1.25;
constexpr double kKeyPanFraction = 0.15;
} // namespace

TimelineCanvas::TimelineCanvas(QWidget *parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(kLabelWidth + 100, 60);
    QFont f = font();
    f.setPointSizeF(8.5);
    setFont(f);
    m_mapping = TimeMapping({0, 1000}, std::max(1, width() - kLabelWidth));
}

TimelineCanvas::~TimelineCanvas() = default;

void TimelineCanvas::setScene(std::shared_ptr<const TimelineScene> scene, bool keepWindow)
{
    m_scene = std::move(scene);
    m_selection.reset();
    m_marks.clear();
    relayout();
    const TimeWindow ext = m_scene ? m_scene->extent() : TimeWindow{0, 1000};
    const TimeWindow cur = m_mapping.window();
    if (!keepWindow || cur.end <= ext.start || cur.start >= ext.end)
        fitAll();
    else
        setWindow(cur);
    emit selectionChanged();
    update();
}

void TimelineCanvas::relayout()
{
    m_layout = m_scene ? RowLayout(*m_scene, m_collapsed) : RowLayout();
    m_marks.clear();
    emit contentHeightChanged(m_layout.totalHeight());
    setScrollY(m_scrollY);
    update();
}

TimeWindow TimelineCanvas::limits() const
{
    const TimeWindow ext = m_scene ? m_scene->extent() : TimeWindow{0, 1000};
    const int64_t margin = std::max<int64_t>(ext.duration() / 2, TimeMapping::kMinDuration);
    return {ext.start - margin, ext.end + margin};
}

void TimelineCanvas::setMapping(const TimeMapping &m)
{
    TimeMapping clamped = m.withWindow(clampWindow(m.window(), limits()));
    if (clamped == m_mapping)
        return;
    m_mapping = clamped;
    m_marks.clear();
    update();
    emit windowChanged(m_mapping.window());
}

void TimelineCanvas::setWindow(TimeWindow w)
{
    setMapping(m_mapping.withWindow(w));
}

void TimelineCanvas::fitAll()
{
    const TimeWindow ext = m_scene ? m_scene->extent() : TimeWindow{0, 1000};
    // A little air on both sides so the first and last events are not glued to the edges.
    const int64_t pad = std::max<int64_t>(ext.duration() / 50, 1);
    setWindow({ext.start - pad, ext.end + pad});
}

int TimelineCanvas::maxScrollY() const
{
    return std::max(0, m_layout.totalHeight() - height());
}

void TimelineCanvas::setScrollY(int y)
{
    y = std::clamp(y, 0, maxScrollY());
    if (y == m_scrollY)
        return;
    m_scrollY = y;
    update();
    emit scrollChanged(y);
}

void TimelineCanvas::setCollapsed(const QSet<QString> &keys)
{
    m_collapsed = keys;
    relayout();
    emit collapsedChanged();
}

void TimelineCanvas::toggleCollapsed(const QString &key)
{
    if (!m_collapsed.remove(key))
        m_collapsed.insert(key);
    relayout();
    emit collapsedChanged();
}

void TimelineCanvas::select(std::optional<TimelineSelection> s)
{
    if (s == m_selection)
        return;
    m_selection = s;
    update();
    emit selectionChanged();
}

namespace {
std::pair<int64_t, int64_t> sharedExtent(const TimelineScene &scene, const TimelineSelection &s)
{
    const TimelineEntry &e = scene.entries[size_t(s.entry)];
    const Track &t = e.report->store().track(s.ref.track);
    return {t.start(s.ref.index) + e.offset, t.end(s.ref.index) + e.offset};
}

bool validSelection(const TimelineScene *scene, const TimelineSelection &s)
{
    if (!scene || s.entry < 0 || size_t(s.entry) >= scene->entries.size())
        return false;
    const EventStore &st = scene->entries[size_t(s.entry)].report->store();
    return s.ref.track < st.tracks().size() && s.ref.index < st.track(s.ref.track).size();
}
} // namespace

void TimelineCanvas::reveal(const TimelineSelection &s)
{
    if (!validSelection(m_scene.get(), s))
        return;
    select(s);
    // Expand what hides the row, then scroll it into the middle of the view.
    int row = m_layout.rowOf(s.entry, s.ref.track);
    if (row < 0) {
        const TimelineEntry &e = m_scene->entries[size_t(s.entry)];
        QSet<QString> keys = m_collapsed;
        keys.remove(QStringLiteral("report:") + e.key);
        for (int d = 1; d <= e.groupPath.size(); ++d)
            keys.remove(QStringLiteral("group:") + QStringList(e.groupPath.mid(0, d)).join(QLatin1Char('/')));
        setCollapsed(keys);
        row = m_layout.rowOf(s.entry, s.ref.track);
    }
    if (row >= 0) {
        const Row &r = m_layout.rows()[size_t(row)];
        const Track &t = m_scene->entries[size_t(s.entry)].report->store().track(s.ref.track);
        const int laneY = r.y + t.level(s.ref.index) * RowLayout::kLaneHeight;
        if (laneY < m_scrollY || laneY + RowLayout::kLaneHeight > m_scrollY + height())
            setScrollY(laneY - height() / 2);
    }
    const auto [b, e] = sharedExtent(*m_scene, s);
    const int64_t d = m_mapping.window().duration();
    if (e - b > d * 9 / 10) {
        zoomToEvent(s);
        return;
    }
    const int64_t mid = b + (e - b) / 2;
    setWindow({mid - d / 2, mid - d / 2 + d});
}

void TimelineCanvas::zoomToEvent(const TimelineSelection &s)
{
    if (!validSelection(m_scene.get(), s))
        return;
    const auto [b, e] = sharedExtent(*m_scene, s);
    const int64_t pad = std::max<int64_t>((e - b) / 20, 1);
    setWindow({b - pad, e + pad});
}

void TimelineCanvas::setRuler(std::optional<TimeWindow> r)
{
    if (r == m_ruler)
        return;
    m_ruler = r;
    update();
    emit rulerChanged();
}

void TimelineCanvas::setSearch(std::shared_ptr<const SearchResult> result)
{
    m_search = std::move(result);
    update();
}

const TimelineCanvas::RowMarks &TimelineCanvas::marksFor(int row)
{
    auto it = m_marks.find(row);
    if (it != m_marks.end())
        return it->second;
    RowMarks rm;
    const Row &r = m_layout.rows()[size_t(row)];
    if (r.kind == RowKind::Track && m_scene) {
        const TimelineEntry &e = m_scene->entries[size_t(r.entry)];
        const Track &t = e.report->store().track(r.track);
        rm.lanes.resize(size_t(r.levels));
        for (int l = 0; l < r.levels; ++l) {
            LaneView lane{&t, e.report->levelIndices(r.track, uint16_t(l))};
            if (r.levels > 1 && lane.indices.empty())
                continue;
            foldLane(lane, m_mapping, e.offset, rm.lanes[size_t(l)]);
        }
    }
    return m_marks.emplace(row, std::move(rm)).first->second;
}

void TimelineCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    paintTo(p);
}

void TimelineCanvas::paintTo(QPainter &p)
{
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.setFont(font());
    const int w = width(), h = height();
    const int L = kLabelWidth;
    p.fillRect(QRect(0, 0, w, h), kBackground);
    m_lastMarks = m_lastFolded = 0;

    const QFontMetrics fm(font());
    const int charW = std::max(1, fm.averageCharWidth());

    // Grid lines at the axis ticks, so the eye can follow a tick down the rows.
    const AxisTicks ticks = computeTicks(m_mapping.window().start, m_mapping.window().end, m_mapping.width());
    p.setPen(kGrid);
    for (int64_t t : ticks.ticks) {
        const int x = L + int(std::floor(m_mapping.x(t)));
        p.drawLine(x, 0, x, h);
    }

    if (!m_scene || m_layout.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(L, 0, w - L, h), Qt::AlignCenter, QStringLiteral("No events to show"));
    }

    const auto [firstRow, lastRow] = m_layout.rowsIn(m_scrollY, m_scrollY + h);
    std::unordered_map<uint64_t, QString> nameCache;
    p.setClipRect(QRect(L, 0, w - L, h));
    for (int ri = firstRow; ri < lastRow; ++ri) {
        const Row &r = m_layout.rows()[size_t(ri)];
        const int y = r.y - m_scrollY;
        if (r.kind != RowKind::Track) {
            p.fillRect(QRect(L, y, w - L, r.height - 1), r.kind == RowKind::Group ? kGroupBg : kReportBg);
            continue;
        }
        if (ri % 2)
            p.fillRect(QRect(L, y, w - L, r.height), kLaneAlt);
        const TimelineEntry &e = m_scene->entries[size_t(r.entry)];
        const PreparedReport &rep = *e.report;
        const EventStore &store = rep.store();
        const Track &t = store.track(r.track);
        const bool marks = t.kind() == TrackKind::NvtxMark;
        const RowMarks &rm = marksFor(ri);
        for (size_t l = 0; l < rm.lanes.size(); ++l) {
            const int ly = y + int(l) * RowLayout::kLaneHeight;
            if (ly + RowLayout::kLaneHeight < 0 || ly > h)
                continue;
            for (const LodMark &mk : rm.lanes[l]) {
                const int x0 = L + int(std::floor(mk.x0));
                const int x1 = L + int(std::floor(mk.x1));
                const int bw = std::max(1, x1 - x0);
                const NameId name = t.name(mk.index);
                QColor c = QColor::fromRgb(rep.color(name));
                ++m_lastMarks;
                if (mk.count > 1) {
                    ++m_lastFolded;
                    c = c.darker(140);
                }
                if (marks)
                    p.fillRect(QRect(x0 - 1, ly + 2, 3, RowLayout::kLaneHeight - 4), c.darker(160));
                else
                    p.fillRect(QRect(x0, ly + 1, bw, RowLayout::kLaneHeight - 2), c);
                if (m_search && m_search->nameMatches(r.entry, name)) {
                    p.setPen(QPen(kMatch, 2));
                    p.drawRect(QRect(x0, ly + 1, std::max(2, bw), RowLayout::kLaneHeight - 3));
                }
                // Names inside boxes wide enough to hold a few characters.
                if (mk.count == 1 && bw >= 4 * charW && !marks) {
                    const uint64_t key = (uint64_t(r.entry) << 32) | name;
                    auto it = nameCache.find(key);
                    if (it == nameCache.end())
                        it = nameCache.emplace(key, eventName(store, t, mk.index)).first;
                    const QString &full = it->second;
                    const int visX0 = std::max(x0, L), visX1 = std::min(x0 + bw, w);
                    const int room = visX1 - visX0 - 6;
                    const int chars = room / charW;
                    if (chars >= 2) {
                        const QString text = full.size() <= chars ? full : full.left(chars - 1) + QChar(0x2026);
                        p.setPen(textColorOn(c));
                        p.drawText(QRect(visX0 + 3, ly, room + 3, RowLayout::kLaneHeight),
                                   Qt::AlignVCenter | Qt::AlignLeft | Qt::TextSingleLine, text);
                    }
                }
            }
        }
        if (m_selection && m_selection->entry == r.entry && m_selection->ref.track == r.track) {
            const uint32_t i = m_selection->ref.index;
            const int ly = y + t.level(i) * RowLayout::kLaneHeight;
            const int x0 = L + int(std::floor(std::clamp(m_mapping.x(t.start(i), e.offset), -4.0, double(w))));
            const int x1 = L + int(std::floor(std::clamp(m_mapping.x(t.end(i), e.offset), -4.0, double(w))));
            p.setPen(QPen(Qt::black, 2));
            p.drawRect(QRect(x0 - 1, ly, std::max(3, x1 - x0 + 2), RowLayout::kLaneHeight - 1));
        }
    }

    if (m_ruler) {
        const int x0 = L + int(std::floor(std::clamp(m_mapping.x(m_ruler->start), -4.0, double(w))));
        const int x1 = L + int(std::floor(std::clamp(m_mapping.x(m_ruler->end), -4.0, double(w))));
        p.fillRect(QRect(x0, 0, std::max(1, x1 - x0), h), kRulerFill);
        p.setPen(kRulerEdge);
        p.drawLine(x0, 0, x0, h);
        p.drawLine(x1, 0, x1, h);
        const QString text = formatDuration(m_ruler->duration());
        const int tw = fm.horizontalAdvance(text) + 10;
        const QRect box((x0 + x1) / 2 - tw / 2, 4, tw, fm.height() + 4);
        p.fillRect(box, kRulerEdge);
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, text);
    }
    p.setClipping(false);

    // The sticky label column.
    p.fillRect(QRect(0, 0, L, h), kLabelBg);
    for (int ri = firstRow; ri < lastRow; ++ri) {
        const Row &r = m_layout.rows()[size_t(ri)];
        const int y = r.y - m_scrollY;
        const int indent = 6 + r.depth * 12;
        QRect box(0, y, L - 1, r.height - 1);
        if (r.kind == RowKind::Group || r.kind == RowKind::Report) {
            p.fillRect(box, r.kind == RowKind::Group ? kGroupBg : kReportBg);
            QFont bold = font();
            bold.setBold(true);
            p.setFont(bold);
            p.setPen(palette().color(QPalette::WindowText));
            const QString arrow = r.collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ");
            const QFontMetrics bfm(bold);
            p.drawText(QRect(indent, y, L - indent - 4, r.height), Qt::AlignVCenter | Qt::AlignLeft,
                       bfm.elidedText(arrow + r.label, Qt::ElideMiddle, L - indent - 4));
            p.setFont(font());
        } else {
            p.setPen(palette().color(QPalette::WindowText).lighter(140));
            p.drawText(QRect(indent, y, L - indent - 4, RowLayout::kLaneHeight), Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(r.label, Qt::ElideRight, L - indent - 4));
        }
    }
    p.setPen(kSeparator);
    p.drawLine(L - 1, 0, L - 1, h);
}

void TimelineCanvas::resizeEvent(QResizeEvent *)
{
    m_marks.clear();
    m_mapping = m_mapping.withWidth(std::max(1, width() - kLabelWidth));
    setScrollY(m_scrollY);
    emit windowChanged(m_mapping.window());
}

std::optional<TimelineSelection> TimelineCanvas::eventAt(QPoint pos) const
{
    if (!m_scene || pos.x() < kLabelWidth)
        return std::nullopt;
    const int ri = m_layout.rowAt(layoutY(pos.y()));
    if (ri < 0)
        return std::nullopt;
    const Row &r = m_layout.rows()[size_t(ri)];
    if (r.kind != RowKind::Track)
        return std::nullopt;
    const TimelineEntry &e = m_scene->entries[size_t(r.entry)];
    const Track &t = e.report->store().track(r.track);
    const int level = RowLayout::laneAt(r, layoutY(pos.y()));
    LaneView lane{&t, e.report->levelIndices(r.track, uint16_t(level))};
    if (r.levels > 1 && lane.indices.empty())
        return std::nullopt;
    const int64_t hit = hitTestLane(lane, m_mapping, e.offset, laneX(pos));
    if (hit < 0)
        return std::nullopt;
    return TimelineSelection{r.entry, {r.track, uint32_t(hit)}};
}

QString TimelineCanvas::labelToolTip(const Row &r) const
{
    if (r.kind == RowKind::Report && m_scene) {
        const TimelineEntry &e = m_scene->entries[size_t(r.entry)];
        QString s = QString::fromStdString(e.report->report().path);
        if (e.offset != 0)
            s += QStringLiteral("\noffset %1").arg(formatDuration(e.offset));
        return s;
    }
    return r.label;
}

QString TimelineCanvas::toolTipAt(QPoint pos) const
{
    const int ri = m_layout.rowAt(layoutY(pos.y()));
    if (ri < 0 || !m_scene)
        return {};
    const Row &r = m_layout.rows()[size_t(ri)];
    if (pos.x() < kLabelWidth)
        return labelToolTip(r);
    if (r.kind != RowKind::Track)
        return {};
    // What is drawn under the cursor: a folded mark says how many events it holds.
    auto it = m_marks.find(ri);
    const int level = RowLayout::laneAt(r, layoutY(pos.y()));
    if (it != m_marks.end() && size_t(level) < it->second.lanes.size()) {
        const auto &marks = it->second.lanes[size_t(level)];
        const int mi = markAt(marks, laneX(pos));
        if (mi >= 0 && marks[size_t(mi)].count > 1) {
            const LodMark &mk = marks[size_t(mi)];
            return QStringLiteral("%1 events too small to show (%2)\nDouble-click to zoom in")
                .arg(mk.count)
                .arg(formatDuration(m_mapping.span(mk.x1 - mk.x0)));
        }
    }
    const auto sel = eventAt(pos);
    if (!sel)
        return {};
    return describeEvent(m_scene->entries[size_t(sel->entry)], sel->ref).toolTip();
}

bool TimelineCanvas::event(QEvent *e)
{
    if (e->type() == QEvent::ToolTip) {
        auto *he = static_cast<QHelpEvent *>(e);
        const QString text = toolTipAt(he->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(he->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

void TimelineCanvas::mousePressEvent(QMouseEvent *e)
{
    setFocus(Qt::MouseFocusReason);
    if (e->button() != Qt::LeftButton)
        return;
    m_pressPos = e->position().toPoint();
    m_pressShift = e->modifiers() & Qt::ShiftModifier;
    m_pressMapping = m_mapping;
    m_pressScroll = m_scrollY;
    m_drag = Drag::Pending;
}

void TimelineCanvas::leaveEvent(QEvent *e)
{
    m_hover.reset();
    QWidget::leaveEvent(e);
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent *e)
{
    m_hover = e->position().toPoint();
    if (m_drag == Drag::None || !(e->buttons() & Qt::LeftButton))
        return;
    const QPoint pos = e->position().toPoint();
    if (m_drag == Drag::Pending) {
        if ((pos - m_pressPos).manhattanLength() < kDragThreshold)
            return;
        m_drag = m_pressShift && m_pressPos.x() >= kLabelWidth ? Drag::Ruler : Drag::Pan;
    }
    if (m_drag == Drag::Ruler) {
        const int64_t a = m_mapping.time(laneX(m_pressPos)), b = m_mapping.time(laneX(pos));
        setRuler(TimeWindow{std::min(a, b), std::max(std::max(a, b), std::min(a, b) + 1)});
    } else {
        setMapping(m_pressMapping.panned(m_pressPos.x() - pos.x()));
        setScrollY(m_pressScroll + (m_pressPos.y() - pos.y()));
    }
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton)
        return;
    const Drag d = m_drag;
    m_drag = Drag::None;
    if (d != Drag::Pending)
        return;
    const QPoint pos = e->position().toPoint();
    if (pos.x() < kLabelWidth) {
        const int ri = m_layout.rowAt(layoutY(pos.y()));
        if (ri >= 0 && m_layout.rows()[size_t(ri)].kind != RowKind::Track)
            toggleCollapsed(m_layout.rows()[size_t(ri)].key);
        return;
    }
    select(eventAt(pos));
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent *e)
{
    const QPoint pos = e->position().toPoint();
    if (pos.x() < kLabelWidth)
        return;
    const int ri = m_layout.rowAt(layoutY(pos.y()));
    if (ri >= 0) {
        const Row &r = m_layout.rows()[size_t(ri)];
        auto it = m_marks.find(ri);
        const int level = RowLayout::laneAt(r, layoutY(pos.y()));
        if (it != m_marks.end() && size_t(level) < it->second.lanes.size()) {
            const auto &marks = it->second.lanes[size_t(level)];
            const int mi = markAt(marks, laneX(pos));
            if (mi >= 0 && marks[size_t(mi)].count > 1) {
                const LodMark mk = marks[size_t(mi)];
                setWindow({m_mapping.time(mk.x0) - m_mapping.span(2), m_mapping.time(mk.x1) + m_mapping.span(2)});
                return;
            }
        }
    }
    if (auto s = eventAt(pos)) {
        select(s);
        zoomToEvent(*s);
    }
}

void TimelineCanvas::wheelEvent(QWheelEvent *e)
{
    const QPoint pos = e->position().toPoint();
    const QPoint delta = e->angleDelta();
    if (pos.x() < kLabelWidth || (e->modifiers() & Qt::ShiftModifier)) {
        const int dy = delta.y() != 0 ? delta.y() : delta.x();
        setScrollY(m_scrollY - dy / 2);
    } else if (delta.y() != 0) {
        // Wheel and Ctrl+wheel both zoom about the cursor: one notch (120) = x1.19.
        setMapping(m_mapping.zoomed(std::pow(2.0, delta.y() / 480.0), laneX(pos)));
    } else if (delta.x() != 0) {
        setMapping(m_mapping.panned(-delta.x() / 2.0));
    }
    e->accept();
}

void TimelineCanvas::keyPressEvent(QKeyEvent *e)
{
    const double pivot = m_hover && m_hover->x() >= kLabelWidth ? laneX(*m_hover) : m_mapping.width() / 2;
    switch (e->key()) {
    case Qt::Key_W:
        setMapping(m_mapping.zoomed(kKeyZoom, pivot));
        break;
    case Qt::Key_S:
        setMapping(m_mapping.zoomed(1.0 / kKeyZoom, pivot));
        break;
    case Qt::Key_A:
        setMapping(m_mapping.panned(-m_mapping.width() * kKeyPanFraction));
        break;
    case Qt::Key_D:
        setMapping(m_mapping.panned(m_mapping.width() * kKeyPanFraction));
        break;
    case Qt::Key_Up:
        setScrollY(m_scrollY - RowLayout::kLaneHeight * 3);
        break;
    case Qt::Key_Down:
        setScrollY(m_scrollY + RowLayout::kLaneHeight * 3);
        break;
    case Qt::Key_F:
        if (m_selection)
            zoomToEvent(*m_selection);
        else if (m_ruler)
            setWindow(*m_ruler);
        else
            fitAll();
        break;
    case Qt::Key_Escape:
        select(std::nullopt);
        setRuler(std::nullopt);
        emit escapePressed();
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

} // namespace ps::views
