#pragma once
// The timeline widget: a sticky label column on the left and the lanes to its right. It shows a
// TimelineDocument (its scene, view state and track view), turns input into the document's
// changes (TimelineViewState: window, scroll, selection, ruler; TrackView: collapsed, hidden and
// pinned rows), leaves drawing to TimelinePainter and hit-testing to TimelineHitTest, and asks the
// document's ReportPager for the events of the digests it draws past their pyramids. Input follows
// the conventions users know from Nsight Systems and Perfetto:
//   wheel / Ctrl+wheel       zoom about the cursor      Shift+wheel, wheel over labels  scroll rows
//   drag                     pan                        Shift+drag                      ruler
//   W / S                    zoom in / out              A / D                           pan
//   click                    select (or clear)          double-click                    zoom to event
//   F                        fit selection / ruler / all Esc                            clear selection + ruler
//   drag the label column's edge: resize it      right-click: hide, pin or collapse tracks (trackmenu.h)
//   drag a lane's label: move it within its report or the Pinned section (trackdrag.h)
// The class is spread over timelinecanvas.cpp (painting, mouse), timelinecanvasnavigation.cpp
// (the window: fit, zoom, pan, wheel and keys) and timelinecanvastracks.cpp (track view, reveal).

#include "views/scene/timelinescene.h"
#include "views/scene/timemapping.h"
#include "views/timeline/collectiveoverlay.h"
#include "views/timeline/eventsearch.h"
#include "views/timeline/launchflow.h"
#include "views/timeline/rowlayout.h"
#include "views/timeline/timelinedocument.h"
#include "views/timeline/timelinehittest.h"
#include "views/timeline/timelinepainter.h"
#include "views/timeline/timelineviewstate.h"
#include "views/timeline/trackdrag.h"

#include <QSet>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QMenu;

namespace ps::views {

class TimelineCanvas : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kDefaultLabelWidth = TimelinePainter::kDefaultLabelWidth;
    static constexpr int kMinLabelWidth = 120;

    // A canvas of its own document (tests, benchmarks), or of the workspace's.
    explicit TimelineCanvas(QWidget *parent = nullptr);
    TimelineCanvas(TimelineDocument *document, QWidget *parent);
    ~TimelineCanvas() override;

    TimelineDocument *document() const { return m_doc; }
    // Shows a scene (TimelineDocument::setScene); keeps the window if `keepWindow` and it still
    // overlaps the data, else fits.
    void setScene(std::shared_ptr<const TimelineScene> scene, bool keepWindow = false);
    // The scene shown: the document's, as laid out last.
    const TimelineScene *scene() const { return m_scene.get(); }
    const RowLayout &layout() const { return m_layout; }

    TimelineViewState *state() const { return m_state; }
    TimeWindow window() const { return m_state->window(); }
    void setWindow(TimeWindow w);
    void fitAll();
    // Zooms about the centre of the lanes by `factor` (> 1 zooms in).
    void zoomBy(double factor);
    // Window of the data, with margins the view may pan into.
    TimeWindow limits() const;
    // The mapping of the lane area (x = 0 at the left edge of the lanes).
    const TimeMapping &mapping() const { return m_state->mapping(); }
    int lanesLeft() const { return m_labelWidth; }
    // The label column's width (dragging its edge sets it): at least kMinLabelWidth, and never
    // more than half the canvas.
    void setLabelWidth(int width);
    // The width asked for (dragged, or restored from a session), kept while the canvas is too
    // narrow to give it.
    int wantedLabelWidth() const { return m_wantedLabelWidth; }

    int scrollY() const { return m_state->scrollY(); }
    void setScrollY(int y);
    int maxScrollY() const;

    // Past this many reports, reports new to the document start collapsed (TimelineDocument).
    static constexpr size_t kDenseReports = TimelineDocument::kDenseReports;
    // The document's track view, edited from the canvas's input and menus (timelinecanvastracks.cpp).
    const QSet<QString> &collapsed() const { return trackView().collapsed; }
    void setCollapsed(const QSet<QString> &keys);
    void toggleCollapsed(const QString &key);
    const TrackView &trackView() const;
    void setTrackView(const TrackView &view);
    void changeTrackView(const std::function<void(TrackView &)> &edit);
    void hideTrack(const QString &trackKey);
    void hideKind(const QString &kind);
    void togglePinned(const QString &trackKey);
    void showAllTracks();
    // The right-click menu for a widget position (trackmenu.h); the caller owns it.
    QMenu *contextMenuAt(QPoint pos);

    std::optional<TimelineSelection> selection() const { return m_state->selection(); }
    void select(std::optional<TimelineSelection> s);
    // Selects the event, expands what hides it, scrolls its row into view and centres the window
    // on it (same zoom, unless the event is wider than the window); timelinecanvastracks.cpp.
    void reveal(const TimelineSelection &s);
    void zoomToEvent(const TimelineSelection &s);

    std::optional<TimeWindow> ruler() const { return m_state->ruler(); }
    void setRuler(std::optional<TimeWindow> r);

    // Collectives matched across ranks: every wait hatched on its lane; the instance of the
    // selected kernel (or the one focused, when nothing is selected) outlined on every rank with
    // arrows to its last arrival. Selecting an event refocuses.
    void setCollectives(CollectiveViewPtr view);
    void focusCollective(std::optional<size_t> instance);
    const CollectiveOverlay &collectiveOverlay() const { return m_collectives; }
    const LaunchFlow &launchFlow() const { return m_launch; }

    // What lies under widget positions, as last drawn.
    TimelineHitTest hitTest() const { return {m_scene.get(), m_layout, m_painter, *m_state, m_labelWidth, height()}; }
    QString toolTipAt(QPoint pos) const { return hitTest().toolTipAt(pos); }
    std::optional<TimelineSelection> eventAt(QPoint pos) const { return hitTest().eventAt(pos); }
    // Layout y of a widget position, and the reverse.
    int layoutY(int widgetY) const { return RowViewport(m_layout, scrollY(), height()).layoutY(widgetY); }

    // Paints everything into `p` over a widget of the current size (paintEvent and the benchmark).
    void paintTo(QPainter &p);
    // Drops the folded-mark cache (the benchmark measures cold frames with it).
    void invalidateMarks() { m_painter.invalidate(); }
    // Marks drawn in the last paint, and folded marks among them (for tests and the benchmark).
    size_t lastMarkCount() const { return m_painter.lastMarkCount(); }
    size_t lastFoldedCount() const { return m_painter.lastFoldedCount(); }

signals:
    void windowChanged(ps::views::TimeWindow window);
    void scrollChanged(int y);
    void contentHeightChanged(int height);
    void labelWidthChanged(int width);
    void selectionChanged();
    void rulerChanged();
    // The track view changed (the document's trackViewChanged, after the rows were laid out).
    void collapsedChanged();
    // Esc was pressed (after clearing selection and ruler); the workspace cancels a running load.
    void escapePressed();
    // An outline's pyramids could not be read (its digest changed or is damaged): drawn empty.
    void drawingProblem(const QString &reason);
    // The focused collective instance changed (collectiveOverlay().focus()).
    void collectiveFocusChanged();
    // The right-click menu for a widget position and its row (-1: none) was built; the workspace
    // adds what needs more than the canvas (copy, search, close run) before it shows.
    void contextMenuBuilt(QMenu *menu, QPoint pos, int row);

protected:
    void paintEvent(QPaintEvent *) override;
    void resizeEvent(QResizeEvent *) override;
    void mousePressEvent(QMouseEvent *e) override;
    void mouseMoveEvent(QMouseEvent *e) override;
    void mouseReleaseEvent(QMouseEvent *e) override;
    void mouseDoubleClickEvent(QMouseEvent *e) override;
    void wheelEvent(QWheelEvent *e) override;
    void keyPressEvent(QKeyEvent *e) override;
    bool event(QEvent *e) override;
    void leaveEvent(QEvent *e) override;
    void contextMenuEvent(QContextMenuEvent *e) override;

private:
    void showDocumentScene(bool keepWindow);
    void focusSelectedCollective();
    void relayout();
    void applyLabelWidth();
    void setMapping(const TimeMapping &m);
    double laneX(QPoint pos) const { return pos.x() - m_labelWidth; }
    bool onLabelEdge(QPoint pos) const { return std::abs(pos.x() - m_labelWidth) <= 3; }
    void clickLabel(QPoint pos);

    TimelineDocument *m_doc;
    std::shared_ptr<const TimelineScene> m_scene; // the document's, as m_layout was built from it
    RowLayout m_layout;
    int m_labelWidth = kDefaultLabelWidth;       // in force
    int m_wantedLabelWidth = kDefaultLabelWidth; // as the user dragged it
    TimelineViewState *m_state;                  // the document's
    TimelinePainter m_painter;
    CollectiveOverlay m_collectives;
    LaunchFlow m_launch;
    TrackDrag m_trackDrag{this}; // lanes reordered by dragging their label (trackdrag.h)

    // Drag state.
    enum class Drag { None, Pending, Pan, Ruler, LabelEdge };
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    bool m_pressShift = false;
    TimeMapping m_pressMapping;
    int m_pressScroll = 0;
    std::optional<QPoint> m_hover; // last mouse position over the widget: the pivot of W / S
};

} // namespace ps::views
