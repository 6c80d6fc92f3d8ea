#pragma once
// The cluster overview's heat strip: one row per timeline entry (a rank's report) in the
// timeline's order, x the shared time axis over the whole run, each cell coloured by the GPU busy
// share of its time bin or by the RL phase running then. With more ranks than pixel rows a pixel
// row folds several ranks and shows the least busy of them, so an idle rank is never averaged
// away. The x axis spans the run and the timeline's window, so at Fit it is the timeline's. The straggler and the
// outliers are marked beside their rows and named in the label column; the timeline's window is outlined. A click picks
// the rank (in a folded row, the marked one) and the time under the cursor.

#include "views/overview/overviewdata.h"
#include "views/overview/overviewphases.h"

#include <QImage>
#include <QWidget>

#include <optional>

namespace ps::views {

class OverviewStrip : public QWidget
{
    Q_OBJECT
public:
    enum class Mode { Utilization, Phase };
    static constexpr int kMinRowHeight = 1;

    explicit OverviewStrip(QWidget *parent = nullptr);

    void setData(OverviewData data);
    const OverviewData &data() const { return m_data; }
    void setPhases(OverviewPhases phases);
    const OverviewPhases &phases() const { return m_phases; }
    QRgb stragglerColour() const; // red, or grey while it is provisional
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    // The timeline's window (outlined) and label column width (so both axes start at one x).
    void setWindow(TimeWindow window);
    void setLabelWidth(int width);
    // Pixels right of the heat area (the timeline's vertical scroll bar), so both axes end at one x.
    void setRightMargin(int pixels);

    // The rank (scene entry) and shared time at a widget position.
    std::optional<std::pair<int, int64_t>> targetAt(QPoint pos) const;
    // The centre of the cell of `entry` at `sharedNs` (tests click it).
    QPoint pointOf(int entry, int64_t sharedNs) const;
    bool isMarked(int entry) const;

signals:
    void activated(int entry, qint64 sharedNs);

protected:
    void paintEvent(QPaintEvent *) override;
    void resizeEvent(QResizeEvent *) override;
    void mousePressEvent(QMouseEvent *e) override;
    bool event(QEvent *e) override;

private:
    QRect heatRect() const;
    // The time range the heat area's width spans: the run's extent and the timeline's window.
    TimeWindow axisWindow() const;
    double xOf(int64_t sharedNs) const;
    // Rows [first, last) that pixel row `y` of the heat area shows.
    std::pair<int, int> rowsAtPixel(int y) const;
    int pixelOfRow(int row) const;
    int preferredRow(int first, int last) const;
    void rebuildImage();
    QRgb cellColor(int first, int last, int bin) const;
    void paintLabels(QPainter &p);
    QString toolTipAt(QPoint pos) const;

    OverviewData m_data;
    OverviewPhases m_phases;
    std::vector<std::vector<const OverviewPhase *>> m_phasesByRow; // row -> its spans, by start
    Mode m_mode = Mode::Utilization;
    std::optional<TimeWindow> m_window;
    int m_labelWidth = 220;
    int m_rightMargin = 0;
    int m_stragglerRow = -1;
    QImage m_image; // the heat area, one pixel per pixel
};

// The colour of a busy share: dark blue when idle through green to yellow when busy (viridis).
QRgb busyColor(float share);

} // namespace ps::views
