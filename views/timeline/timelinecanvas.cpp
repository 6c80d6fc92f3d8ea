#include "views/timeline/timelinecanvas.h"

#include "views/timeline/reportpager.h"
#include "views/timeline/trackmenu.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace ps::views {

using namespace ps::core::trace;

namespace {
constexpr int kDragThreshold = 4;
} // namespace

TimelineCanvas::TimelineCanvas(QWidget *parent) : TimelineCanvas(nullptr, parent)
{
}

TimelineCanvas::TimelineCanvas(TimelineDocument *document, QWidget *parent)
    : QWidget(parent), m_doc(document ? document : new TimelineDocument(this)), m_state(m_doc->state())
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
    connect(m_doc, &TimelineDocument::sceneChanged, this, &TimelineCanvas::showDocumentScene);
    connect(m_doc, &TimelineDocument::trackViewChanged, this, [this] {
        relayout();
        emit collapsedChanged();
    });
    connect(m_doc, &TimelineDocument::searchChanged, this, qOverload<>(&QWidget::update));
}

TimelineCanvas::~TimelineCanvas() = default;

void TimelineCanvas::setScene(std::shared_ptr<const TimelineScene> scene, bool keepWindow)
{
    m_doc->setViewHeight(height()); // a hidden widget gets its resize event only when shown
    m_doc->setScene(std::move(scene), keepWindow);
}

void TimelineCanvas::showDocumentScene(bool keepWindow)
{
    m_scene = m_doc->scene();
    relayout();
    const TimeWindow ext = m_scene ? m_scene->extent() : TimeWindow{0, 1000};
    const TimeWindow cur = m_state->window();
    if (!keepWindow || cur.end <= ext.start || cur.start >= ext.end)
        fitAll();
    else
        setWindow(cur);
    emit selectionChanged(); // the document cleared it quietly
    update();
}

void TimelineCanvas::relayout()
{
    m_layout = m_scene ? RowLayout(*m_scene, m_doc->trackView()) : RowLayout();
    m_painter.invalidate();
    emit contentHeightChanged(m_layout.totalHeight());
    setScrollY(m_state->scrollY());
    update();
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
    // A right-click on an event selects it first, as Nsight Systems and Perfetto do: the menu,
    // the details pane and the highlight then name the same event.
    if (const auto hit = eventAt(pos))
        select(hit);
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
    if (!v || !s || !isValidSelection(m_scene.get(), *s)) {
        focusCollective(std::nullopt);
        return;
    }
    focusCollective(v->instanceOf(s->entry, &m_scene->entries[size_t(s->entry)].report->report(), s->ref));
}

void TimelineCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    paintTo(p);
}

void TimelineCanvas::paintTo(QPainter &p)
{
    ReportPager *pager = m_doc->pager();
    pager->beginFrame();
    TimelinePainter::Input in;
    in.scene = m_scene.get();
    in.layout = &m_layout;
    in.state = m_state;
    in.search = m_doc->searchResult().get();
    in.collectives = &m_collectives;
    in.launch = &m_launch;
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
            pager->touch(m_scene->entries[size_t(e)].report.get());
    });
    for (const PreparedReportPtr &outline : wanted)
        pager->request(outline);
}

void TimelineCanvas::resizeEvent(QResizeEvent *)
{
    m_doc->setViewHeight(height());
    applyLabelWidth();
    setScrollY(scrollY());
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
    if (pos.x() < m_labelWidth)
        clickLabel(pos);
    else
        select(eventAt(pos));
}

// A click on a header collapses or expands it; on a deep track, shows or folds its deeper levels.
void TimelineCanvas::clickLabel(QPoint pos)
{
    const int ri = m_layout.rowAt(layoutY(pos.y()));
    if (ri < 0)
        return;
    const Row &r = m_layout.rows()[size_t(ri)];
    if (r.isHeader()) // counter lanes do not collapse
        toggleCollapsed(r.key);
    else if (r.kind == RowKind::Track && (r.hiddenLevels > 0 || trackView().fullDepth.contains(r.key)))
        changeTrackView([&](TrackView &v) {
            if (!v.fullDepth.remove(r.key))
                v.fullDepth.insert(r.key);
        });
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent *e)
{
    const QPoint pos = e->position().toPoint();
    if (pos.x() < m_labelWidth)
        return;
    if (const auto mk = hitTest().foldedMarkAt(pos)) {
        const TimeMapping &m = mapping();
        setWindow({m.time(mk->x0) - m.span(2), m.time(mk->x1) + m.span(2)});
        return;
    }
    if (auto s = eventAt(pos)) {
        select(s);
        zoomToEvent(*s);
    }
}

} // namespace ps::views
