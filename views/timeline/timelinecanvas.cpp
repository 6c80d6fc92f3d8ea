#include "views/timeline/timelinecanvas.h"

#include "core/trace/reportsource.h"
#include "views/scene/timeformat.h"
#include "views/timeline/eventinfo.h"
#include "views/timeline/reportpager.h"
#include "views/timeline/trackmenu.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QSignalBlocker>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace ps::views {

using namespace ps::core::trace;

namespace {
constexpr int kDragThreshold = 4;
constexpr double kKeyZoom = 1.25;
constexpr double kKeyPanFraction = 0.15;
} // namespace

TimelineCanvas::TimelineCanvas(QWidget *parent)
    : QWidget(parent), m_state(new TimelineViewState(this)), m_pager(new ReportPager(this))
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(kDefaultLabelWidth + 100, 60);
    QFont f = font();
    f.setPointSizeF(8.5);
    setFont(f);
    m_state->setWidth(width() - m_labelWidth);
    // Every change of the view state repaints; the canvas re-emits it for its observers.
    connect(m_state, &TimelineViewState::selectionChanged, this, qOverload<>(&QWidget::update));
    connect(m_state, &TimelineViewState::rulerChanged, this, qOverload<>(&QWidget::update));
    connect(m_state, &TimelineViewState::windowChanged, this, qOverload<>(&QWidget::update));
    connect(m_state, &TimelineViewState::scrollChanged, this, qOverload<>(&QWidget::update));
    connect(m_state, &TimelineViewState::windowChanged, this, &TimelineCanvas::windowChanged);
    connect(m_state, &TimelineViewState::scrollChanged, this, &TimelineCanvas::scrollChanged);
    connect(m_state, &TimelineViewState::selectionChanged, this, &TimelineCanvas::selectionChanged);
    connect(m_state, &TimelineViewState::rulerChanged, this, &TimelineCanvas::rulerChanged);
    connect(this, &TimelineCanvas::selectionChanged, this, &TimelineCanvas::focusSelectedCollective);
}

TimelineCanvas::~TimelineCanvas() = default;

void TimelineCanvas::setScene(std::shared_ptr<const TimelineScene> scene, bool keepWindow)
{
    m_scene = std::move(scene);
    if (!m_scene || !m_scene->overlay) // closed reports' and runs' choices go with them
        m_view = m_view.keptFor(m_scene.get());
    {
        // The selection of the old scene means nothing in the new one; selectionChanged is
        // emitted once below, whether or not there was one.
        const QSignalBlocker quiet(m_state);
        m_state->select(std::nullopt);
    }
    collapseNewReportsWhenDense();
    relayout();
    const TimeWindow ext = m_scene ? m_scene->extent() : TimeWindow{0, 1000};
    const TimeWindow cur = m_state->window();
    if (!keepWindow || cur.end <= ext.start || cur.start >= ext.end)
        fitAll();
    else
        setWindow(cur);
    emit selectionChanged();
    update();
}

void TimelineCanvas::collapseNewReportsWhenDense()
{
    if (!m_scene)
        return;
    const bool dense = m_scene->entries.size() > kDenseReports;
    const QSet<QString> fold = reportsToFoldForNewRun(*m_scene, m_view, height(), m_seenReports);
    bool changed = !fold.isEmpty() && !m_view.collapsed.contains(fold);
    m_view.collapsed.unite(fold);
    for (const TimelineEntry &e : m_scene->entries) {
        const QString key = RowLayout::reportKey(e);
        if (m_seenReports.contains(key))
            continue;
        m_seenReports.insert(key);
        if (dense && !m_view.collapsed.contains(key)) {
            m_view.collapsed.insert(key);
            changed = true;
        }
    }
    if (changed)
        emit collapsedChanged();
}

void TimelineCanvas::relayout()
{
    m_layout = m_scene ? RowLayout(*m_scene, m_view) : RowLayout();
    m_painter.invalidate();
    emit contentHeightChanged(m_layout.totalHeight());
    setScrollY(m_state->scrollY());
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
    m_state->setMapping(m, limits());
}

void TimelineCanvas::setWindow(TimeWindow w)
{
    setMapping(m_state->mapping().withWindow(w));
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
    m_state->setScrollY(y, maxScrollY());
}

void TimelineCanvas::setLabelWidth(int width)
{
    m_wantedLabelWidth = width;
    applyLabelWidth();
}

// The width the user asked for, within what the canvas can give now (a narrow window keeps half
// of itself for the lanes; widening it again restores the wanted width).
void TimelineCanvas::applyLabelWidth()
{
    const int width = std::clamp(m_wantedLabelWidth, kMinLabelWidth, std::max(kMinLabelWidth, this->width() / 2));
    m_state->setWidth(this->width() - width);
    if (width == m_labelWidth)
        return;
    m_labelWidth = width;
    m_painter.invalidate();
    emit labelWidthChanged(width);
    update();
}

QMenu *TimelineCanvas::contextMenuAt(QPoint pos)
{
    const int ri = m_layout.rowAt(layoutY(pos.y()));
    QMenu *menu = buildTrackMenu(this, ri >= 0 ? &m_layout.rows()[size_t(ri)] : nullptr);
    emit contextMenuBuilt(menu, pos, ri);
    return menu;
}

void TimelineCanvas::contextMenuEvent(QContextMenuEvent *e)
{
    QMenu *menu = contextMenuAt(e->pos());
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(e->globalPos());
}

void TimelineCanvas::select(std::optional<TimelineSelection> s)
{
    m_state->select(s);
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
        const QString label = RowLayout::trackLabels(e)[s.ref.track];
        TrackView v = m_view;
        for (const QString &k : RowLayout::keysHiding(e))
            v.collapsed.remove(k);
        v.hiddenTracks.remove(RowLayout::trackKey(e, label));
        v.hiddenKinds.remove(RowLayout::kindOf(label));
        v.hiddenKinds.remove(RowLayout::kindKey(e, RowLayout::kindOf(label)));
        setTrackView(v);
        row = m_layout.rowOf(s.entry, s.ref.track);
    }
    if (row >= 0 && m_scene->entries[size_t(s.entry)].report->store().track(s.ref.track).level(s.ref.index) >=
                        m_layout.rows()[size_t(row)].levels) {
        const QString key = m_layout.rows()[size_t(row)].key; // the event is on a folded level
        changeTrackView([&](TrackView &v) { v.fullDepth.insert(key); });
    }
    if (row >= 0) {
        const Row &r = m_layout.rows()[size_t(row)];
        const Track &t = m_scene->entries[size_t(s.entry)].report->store().track(s.ref.track);
        const int laneY = r.y + t.level(s.ref.index) * RowLayout::kLaneHeight;
        const RowViewport vp(m_layout, scrollY(), height());
        if (!vp.isSticky(r) && (laneY < scrollY() + vp.sticky || laneY + RowLayout::kLaneHeight > scrollY() + height()))
            setScrollY(laneY - height() / 2);
    }
    const auto [b, e] = sharedExtent(*m_scene, s);
    const int64_t d = window().duration();
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
    m_state->setRuler(r);
}

void TimelineCanvas::setCollectives(CollectiveViewPtr view)
{
    m_collectives.setView(std::move(view));
    focusSelectedCollective();
    update();
}

void TimelineCanvas::focusCollective(std::optional<size_t> instance)
{
    if (instance == m_collectives.focus())
        return;
    m_collectives.setFocus(instance);
    update();
    emit collectiveFocusChanged();
}

void TimelineCanvas::focusSelectedCollective()
{
    const CollectiveView *v = m_collectives.view().get();
    const auto s = selection();
    if (!v || !s || !validSelection(m_scene.get(), *s)) {
        focusCollective(std::nullopt);
        return;
    }
    focusCollective(v->instanceOf(s->entry, &m_scene->entries[size_t(s->entry)].report->report(), s->ref));
}

void TimelineCanvas::setSearch(std::shared_ptr<const SearchResult> result)
{
    m_search = std::move(result);
    update();
}

void TimelineCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    paintTo(p);
}

void TimelineCanvas::paintTo(QPainter &p)
{
    m_pager->beginFrame();
    TimelinePainter::Input in;
    in.scene = m_scene.get();
    in.layout = &m_layout;
    in.state = m_state;
    in.search = m_search.get();
    in.collectives = &m_collectives;
    in.size = size();
    in.labelWidth = m_labelWidth;
    // Asked for during the paint, requested after it: a request may drop another paged report,
    // and the scene must not change under the painter.
    std::vector<PreparedReportPtr> wanted;
    in.wantEvents = [&wanted](const PreparedReportPtr &outline) { wanted.push_back(outline); };
    in.problem = [this](const QString &why) { // after the paint: the banner changes the layout
        QMetaObject::invokeMethod(
            this, [this, why] { emit drawingProblem(why); }, Qt::QueuedConnection);
    };
    m_painter.paint(p, in, font(), palette());
    if (!m_scene)
        return;
    m_trackDrag.paint(p);
    RowViewport(m_layout, scrollY(), height()).forEachRow([&](int ri) {
        if (const int e = m_layout.rows()[size_t(ri)].entry; e >= 0)
            m_pager->touch(m_scene->entries[size_t(e)].report.get());
    });
    for (const PreparedReportPtr &outline : wanted)
        m_pager->request(outline);
}

void TimelineCanvas::resizeEvent(QResizeEvent *)
{
    applyLabelWidth();
    setScrollY(scrollY());
}

std::optional<LodMark> TimelineCanvas::foldedMarkAt(QPoint pos) const
{
    const int ri = m_layout.rowAt(layoutY(pos.y()));
    const RowMarks *rm = ri < 0 ? nullptr : m_painter.cachedMarks(ri);
    if (!rm)
        return std::nullopt;
    const int level = RowLayout::laneAt(m_layout.rows()[size_t(ri)], layoutY(pos.y()));
    if (size_t(level) >= rm->lanes.size())
        return std::nullopt;
    const auto &marks = rm->lanes[size_t(level)];
    const int mi = markAt(marks, laneX(pos));
    if (mi < 0 || (marks[size_t(mi)].count <= 1 && !rm->fromPyramid)) // a pyramid's marks name no event
        return std::nullopt;
    return marks[size_t(mi)];
}

std::optional<TimelineSelection> TimelineCanvas::eventAt(QPoint pos) const
{
    if (!m_scene || pos.x() < m_labelWidth)
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
    const int64_t hit = hitTestLane(lane, mapping(), e.offset, laneX(pos));
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
    if (pos.x() < m_labelWidth)
        return labelToolTip(r);
    if (r.kind != RowKind::Track)
        return {};
    // What is drawn under the cursor: a folded mark says how many events it holds.
    const PreparedReport &report = *m_scene->entries[size_t(r.entry)].report;
    if (const auto mk = foldedMarkAt(pos); mk && report.isOutline()) {
        const std::string_view name = report.store().name(mk->name);
        const QString more = core::trace::digestHasEvents(report.report())
                                 ? QStringLiteral("Zoom in (double-click) to load the events")
                                 : QStringLiteral("A summary-only digest: its events are not in it");
        return QStringLiteral("%1\n%2 event(s) over %3, drawn from the digest's pyramid\n%4")
            .arg(QString::fromUtf8(name.data(), qsizetype(name.size())))
            .arg(mk->count)
            .arg(formatDuration(mapping().span(mk->x1 - mk->x0)), more);
    }
    if (const auto mk = foldedMarkAt(pos))
        return QStringLiteral("%1 events too small to show (%2)\nDouble-click to zoom in")
            .arg(mk->count)
            .arg(formatDuration(mapping().span(mk->x1 - mk->x0)));
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
    m_pressMapping = mapping();
    m_pressScroll = scrollY();
    m_drag = onLabelEdge(m_pressPos) ? Drag::LabelEdge : Drag::Pending;
    m_trackDrag.press(m_pressPos);
}

void TimelineCanvas::leaveEvent(QEvent *e)
{
    m_hover.reset();
    QWidget::leaveEvent(e);
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent *e)
{
    m_hover = e->position().toPoint();
    if (m_drag == Drag::None || !(e->buttons() & Qt::LeftButton)) {
        setCursor(onLabelEdge(*m_hover) ? Qt::SplitHCursor : Qt::ArrowCursor);
        return;
    }
    const QPoint pos = e->position().toPoint();
    if (m_drag == Drag::LabelEdge) {
        setLabelWidth(pos.x());
        return;
    }
    if (m_trackDrag.move(pos))
        return;
    if (m_drag == Drag::Pending) {
        if ((pos - m_pressPos).manhattanLength() < kDragThreshold)
            return;
        m_drag = m_pressShift && m_pressPos.x() >= m_labelWidth ? Drag::Ruler : Drag::Pan;
    }
    if (m_drag == Drag::Ruler) {
        const int64_t a = mapping().time(laneX(m_pressPos)), b = mapping().time(laneX(pos));
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
    if (m_trackDrag.release(e->position().toPoint()) || d != Drag::Pending)
        return;
    const QPoint pos = e->position().toPoint();
    if (pos.x() < m_labelWidth) {
        const int ri = m_layout.rowAt(layoutY(pos.y()));
        if (ri < 0)
            return;
        const Row &r = m_layout.rows()[size_t(ri)];
        if (r.isHeader()) // counter lanes do not collapse
            toggleCollapsed(r.key);
        else if (r.kind == RowKind::Track && (r.hiddenLevels > 0 || m_view.fullDepth.contains(r.key)))
            changeTrackView([&](TrackView &v) { // a deep track shows or folds its deeper levels
                if (!v.fullDepth.remove(r.key))
                    v.fullDepth.insert(r.key);
            });
        return;
    }
    select(eventAt(pos));
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent *e)
{
    const QPoint pos = e->position().toPoint();
    if (pos.x() < m_labelWidth)
        return;
    if (const auto mk = foldedMarkAt(pos)) {
        const TimeMapping &m = mapping();
        setWindow({m.time(mk->x0) - m.span(2), m.time(mk->x1) + m.span(2)});
        return;
    }
    if (auto s = eventAt(pos)) {
        select(s);
        zoomToEvent(*s);
    }
}

void TimelineCanvas::zoomBy(double factor)
{
    setMapping(mapping().zoomed(factor, mapping().width() / 2));
}

// As Nsight Systems and Perfetto: the wheel scrolls the rows, Shift+wheel and a horizontal
// wheel (touchpads) pan, Ctrl+wheel zooms about the cursor (one notch, 120, = x1.19).
void TimelineCanvas::wheelEvent(QWheelEvent *e)
{
    const QPoint pos = e->position().toPoint();
    const QPoint delta = e->angleDelta();
    if ((e->modifiers() & Qt::ControlModifier) && delta.y() != 0 && pos.x() >= m_labelWidth) {
        setMapping(mapping().zoomed(std::pow(2.0, delta.y() / 480.0), laneX(pos)));
    } else if ((e->modifiers() & Qt::ShiftModifier) || delta.x() != 0) {
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        setMapping(mapping().panned(-d / 2.0));
    } else {
        setScrollY(scrollY() - delta.y() / 2);
    }
    e->accept();
}

void TimelineCanvas::keyPressEvent(QKeyEvent *e)
{
    const TimeMapping &m = mapping();
    const double pivot = m_hover && m_hover->x() >= m_labelWidth ? laneX(*m_hover) : m.width() / 2;
    switch (e->key()) {
    case Qt::Key_W:
        setMapping(m.zoomed(kKeyZoom, pivot));
        break;
    case Qt::Key_S:
        setMapping(m.zoomed(1.0 / kKeyZoom, pivot));
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        setMapping(m.zoomed(kKeyZoom, pivot));
        break;
    case Qt::Key_Minus:
        setMapping(m.zoomed(1.0 / kKeyZoom, pivot));
        break;
    case Qt::Key_A:
    case Qt::Key_Left:
        setMapping(m.panned(-m.width() * kKeyPanFraction));
        break;
    case Qt::Key_D:
    case Qt::Key_Right:
        setMapping(m.panned(m.width() * kKeyPanFraction));
        break;
    case Qt::Key_Home: // the start of the run, zoom kept
        if (m_scene)
            setWindow({m_scene->extent().start, m_scene->extent().start + m.window().duration()});
        break;
    case Qt::Key_End:
        if (m_scene)
            setWindow({m_scene->extent().end - m.window().duration(), m_scene->extent().end});
        break;
    case Qt::Key_PageUp:
        setScrollY(scrollY() - height() * 9 / 10);
        break;
    case Qt::Key_PageDown:
        setScrollY(scrollY() + height() * 9 / 10);
        break;
    case Qt::Key_Up:
        setScrollY(scrollY() - RowLayout::kLaneHeight * 3);
        break;
    case Qt::Key_Down:
        setScrollY(scrollY() + RowLayout::kLaneHeight * 3);
        break;
    case Qt::Key_F:
        if (const auto sel = selection())
            zoomToEvent(*sel);
        else if (const auto r = ruler())
            setWindow(*r);
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
