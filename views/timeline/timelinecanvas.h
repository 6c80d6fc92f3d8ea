#pragma once
// The timeline widget: a sticky label column on the left and the lanes to its right. It turns
// input into changes of the view state (TimelineViewState: window, scroll, selection, ruler) and
// of the collapsed rows, and leaves drawing to TimelinePainter. Input follows the conventions
// users know from Nsight Systems and Perfetto:
//   wheel / Ctrl+wheel       zoom about the cursor      Shift+wheel, wheel over labels  scroll rows
//   drag                     pan                        Shift+drag                      ruler
//   W / S                    zoom in / out              A / D                           pan
//   click                    select (or clear)          double-click                    zoom to event
//   F                        fit selection / ruler / all Esc                            clear selection + ruler
//   drag the label column's edge: resize it      right-click: hide, pin or collapse tracks (trackmenu.h)
//   drag a lane's label: move it within its report or the Pinned section (trackdrag.h)

#include "views/scene/timelinescene.h"
#include "views/scene/timemapping.h"
#include "views/timeline/collectiveoverlay.h"
#include "views/timeline/eventsearch.h"
#include "views/timeline/rowlayout.h"
#include "views/timeline/timelinepainter.h"
#include "views/timeline/timelineviewstate.h"
#include "views/timeline/trackdrag.h"

#include <QSet>
#include <QWidget>

class QMenu;

namespace ps::views {
class ReportPager;
}

#include <functional>
#include <memory>
#include <optional>

namespace ps::views {

class TimelineCanvas : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kDefaultLabelWidth = TimelinePainter::kDefaultLabelWidth;
    static constexpr int kMinLabelWidth = 120;

    explicit TimelineCanvas(QWidget *parent = nullptr);
    ~TimelineCanvas() override;

    // Shows a scene; keeps the window if `keepWindow` and it still overlaps the data, else fits.
    void setScene(std::shared_ptr<const TimelineScene> scene, bool keepWindow = false);
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

    // Past this many reports in a scene, reports new to the canvas start as one density row each
    // (a 1024-rank run fits on a screen; a report expands with a click).
    static constexpr size_t kDenseReports = 32;

    const QSet<QString> &collapsed() const { return m_view.collapsed; }
    void setCollapsed(const QSet<QString> &keys);
    void toggleCollapsed(const QString &key);
    // Hidden and pinned tracks with the collapsed headers (collapsedChanged on every change).
    const TrackView &trackView() const { return m_view; }
    void setTrackView(const TrackView &view);
    // Applies `edit` to a copy of the track view and shows the result.
    void changeTrackView(const std::function<void(TrackView &)> &edit);
    void hideTrack(const QString &trackKey);
    void hideKind(const QString &kind);
    void togglePinned(const QString &trackKey);
    void showAllTracks();
    // The right-click menu for a widget position (trackmenu.h); the caller owns it.
    QMenu *contextMenuAt(QPoint pos);

    std::optional<TimelineSelection> selection() const { return m_state->selection(); }
    void select(std::optional<TimelineSelection> s);
    // Selects the event, scrolls its row into view and centres the window on it (same zoom, unless
    // the event is wider than the window).
    void reveal(const TimelineSelection &s);
    void zoomToEvent(const TimelineSelection &s);

    std::optional<TimeWindow> ruler() const { return m_state->ruler(); }
    void setRuler(std::optional<TimeWindow> r);

    void setSearch(std::shared_ptr<const SearchResult> result);

    // Collectives matched across ranks: every wait hatched on its lane; the instance of the
    // selected kernel (or the one focused, when nothing is selected) outlined on every rank with
    // arrows to its last arrival. Selecting an event refocuses.
    void setCollectives(CollectiveViewPtr view);
    void focusCollective(std::optional<size_t> instance);
    const CollectiveOverlay &collectiveOverlay() const { return m_collectives; }

    // Tooltip text at a widget position ("" where nothing is).
    QString toolTipAt(QPoint pos) const;
    // The event under a widget position.
    std::optional<TimelineSelection> eventAt(QPoint pos) const;
    // Layout y of a widget position, and the reverse.
    int layoutY(int widgetY) const { return RowViewport(m_layout, scrollY(), height()).layoutY(widgetY); }

    // Paints everything into `p` over a widget of the current size (paintEvent and the benchmark).
    void paintTo(QPainter &p);
    // Drops the folded-mark cache (the benchmark measures cold frames with it).
    void invalidateMarks() { m_painter.invalidate(); }
    // Pages outlines' events in where the view zooms past their pyramids (reportpager.h).
    ReportPager *pager() const { return m_pager; }
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
    void collapseNewReportsWhenDense();
    void focusSelectedCollective();
    void relayout();
    void applyLabelWidth();
    // The folded mark under a widget position as last drawn, if any holds several events.
    std::optional<LodMark> foldedMarkAt(QPoint pos) const;
    void setMapping(const TimeMapping &m);
    double laneX(QPoint pos) const { return pos.x() - m_labelWidth; }
    bool onLabelEdge(QPoint pos) const { return std::abs(pos.x() - m_labelWidth) <= 3; }
    QString labelToolTip(const Row &row) const;

    std::shared_ptr<const TimelineScene> m_scene;
    RowLayout m_layout;
    TrackView m_view;
    // Reports this canvas has shown: past kDenseReports only those new to it start collapsed, so
    // a report the user expanded stays expanded when the scene is rebuilt.
    QSet<QString> m_seenReports;
    int m_labelWidth = kDefaultLabelWidth;       // in force
    int m_wantedLabelWidth = kDefaultLabelWidth; // as the user dragged it
    TimelineViewState *m_state;
    std::shared_ptr<const SearchResult> m_search;
    TimelinePainter m_painter;
    ReportPager *m_pager;
    CollectiveOverlay m_collectives;
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
