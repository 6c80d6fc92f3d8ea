#include "views/timeline/memorywiring.h"

#include "core/trace/memory/torchmemory.h"
#include "views/memory/memorycategories.h"
#include "views/scene/timeformat.h"
#include "views/timeline/timelinecanvas.h"

#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QTabWidget>
#include <QToolTip>

#include <cmath>

namespace ps::views {

namespace tr = ps::core::trace;

namespace {

// A press and release closer than this is a click; the canvas pans past it (timelinecanvas.cpp).
constexpr int kClickSlop = 4;
// A click this close to a lane's peak marker (px) asks for the peak.
constexpr double kPeakMarkerSlop = 3.0;

MemoryPoint pointOf(const TimelineCanvas &canvas, const TimelineEntry &e, size_t series, int64_t sceneNs)
{
    MemoryPoint p;
    p.report = e.report->reportPtr();
    p.series = series;
    p.timeNs = sceneNs - e.offset;
    const tr::MemorySeries &s = p.report->meta.memory[series];
    p.lane = QStringLiteral("%1 · GPU %2 · %3").arg(e.label).arg(s.device).arg(QString::fromStdString(s.source));
    p.where = p.lane + QStringLiteral(" at ") + axisLabel(sceneNs, 1000, canvas.state()->wallClockOrigin());
    return p;
}

// Clicks and tooltips on the canvas's memory lanes; everything else passes on to the canvas.
class MemoryLaneInput : public QObject
{
public:
    MemoryLaneInput(TimelineCanvas *canvas, QTabWidget *tabs, MemoryBlocksPane *pane)
        : QObject(canvas), m_canvas(canvas), m_tabs(tabs), m_pane(pane)
    {
    }

    bool eventFilter(QObject *, QEvent *e) override
    {
        if (e->type() == QEvent::ToolTip) {
            const auto *he = static_cast<QHelpEvent *>(e);
            const QString text = memoryToolTipAt(*m_canvas, he->pos());
            if (text.isEmpty())
                return false;
            QToolTip::showText(he->globalPos(), text, m_canvas);
            return true;
        }
        if (e->type() != QEvent::MouseButtonPress && e->type() != QEvent::MouseButtonRelease)
            return false;
        const auto *me = static_cast<QMouseEvent *>(e);
        const QPoint pos = me->position().toPoint();
        if (me->button() != Qt::LeftButton)
            return false;
        if (e->type() == QEvent::MouseButtonPress)
            m_press = pos;
        else if (m_press && (pos - *m_press).manhattanLength() < kClickSlop)
            if (std::optional<MemoryPoint> point = memoryPointAt(*m_canvas, pos)) {
                m_pane->showPoint(std::move(*point));
                m_tabs->setCurrentWidget(m_pane);
            }
        return false; // the canvas still selects (and clears) as it does on any click
    }

private:
    TimelineCanvas *m_canvas;
    QTabWidget *m_tabs;
    MemoryBlocksPane *m_pane;
    std::optional<QPoint> m_press;
};

QString categoryLine(size_t category, int64_t bytes)
{
    return QStringLiteral("<tr><td><span style=\"color:%1\">■</span> %2</td><td align=\"right\">%3</td></tr>")
        .arg(QColor::fromRgb(memoryCategoryColor(category)).name(),
             QString::fromLatin1(tr::kMemoryCategories[category].data(),
                                 qsizetype(tr::kMemoryCategories[category].size())),
             memoryBytesText(bytes));
}

} // namespace

std::optional<MemoryPoint> memoryPointAt(const TimelineCanvas &canvas, QPoint pos)
{
    const TimelineScene *scene = canvas.scene();
    const int ri = canvas.layout().rowAt(canvas.layoutY(pos.y()));
    if (!scene || ri < 0 || pos.x() < canvas.lanesLeft())
        return std::nullopt;
    const Row &r = canvas.layout().rows()[size_t(ri)];
    if (r.kind != RowKind::Memory || size_t(r.entry) >= scene->entries.size())
        return std::nullopt;
    const TimelineEntry &e = scene->entries[size_t(r.entry)];
    if (size_t(r.counter) >= e.report->report().meta.memory.size())
        return std::nullopt;
    MemoryPoint point = pointOf(canvas, e, size_t(r.counter), canvas.mapping().time(pos.x() - canvas.lanesLeft()));
    // On the peak's marker: the peak itself, not the time under the pixel (several allocator
    // entries can share the peak's microsecond, and a pixel spans many).
    const tr::MemorySeries &series = e.report->report().meta.memory[size_t(r.counter)];
    if (const auto peak = series.peakTimeNs(); peak && isSnapshotLane(e.report->report(), size_t(r.counter))) {
        const double peakX = canvas.lanesLeft() + canvas.mapping().x(*peak + e.offset);
        point.atPeak = std::abs(peakX - pos.x()) <= kPeakMarkerSlop;
    }
    return point;
}

QString memoryToolTipAt(const TimelineCanvas &canvas, QPoint pos)
{
    const std::optional<MemoryPoint> point = memoryPointAt(canvas, pos);
    if (!point)
        return {};
    const std::vector<tr::MemorySeries> &memory = point->report->meta.memory;
    const std::vector<MemoryStackPart> parts = memoryStackOf(memory, point->series);
    QString text =
        QStringLiteral("<b>%1</b><br>%2")
            .arg(point->where.toHtmlEscaped(), memoryBytesText(memoryBytesAt(memory[point->series], point->timeNs)));
    if (!parts.empty()) {
        text += QStringLiteral("<table>");
        for (auto it = parts.rbegin(); it != parts.rend(); ++it) // top band first, as drawn
            text += categoryLine(it->category, memoryBytesAt(memory[it->series], point->timeNs));
        text += QStringLiteral("</table>");
    }
    const bool snapshot = isSnapshotLane(*point->report, point->series);
    return text + (snapshot ? QStringLiteral("<br><i>Click to list the blocks live here</i>")
                            : QStringLiteral("<br><i>Click for this point in the Memory tab</i>"));
}

std::optional<MemoryPoint> highestPeakPoint(const TimelineCanvas &canvas)
{
    const TimelineScene *scene = canvas.scene();
    std::optional<MemoryPoint> best;
    int64_t bestBytes = -1;
    for (size_t i = 0; scene && i < scene->entries.size(); ++i) {
        const TimelineEntry &e = scene->entries[i];
        const std::vector<tr::MemorySeries> &memory = e.report->report().meta.memory;
        for (size_t s = 0; s < memory.size(); ++s)
            if (isSnapshotLane(e.report->report(), s) && !memory[s].empty() &&
                memory[s].source == tr::kSnapshotAllocatedSource && memory[s].peakBytes() > bestBytes) {
                bestBytes = memory[s].peakBytes();
                best = pointOf(canvas, e, s, *memory[s].peakTimeNs() + e.offset);
                best->atPeak = true;
            }
    }
    return best;
}

MemoryBlocksPane *addMemoryTab(QTabWidget *tabs, TimelineCanvas *canvas)
{
    auto *pane = new MemoryBlocksPane(tabs);
    tabs->addTab(pane, QStringLiteral("Memory"));
    canvas->installEventFilter(new MemoryLaneInput(canvas, tabs, pane));
    QObject::connect(canvas, &TimelineCanvas::escapePressed, pane, &MemoryBlocksPane::cancel);
    const auto showPeak = [tabs, pane](MemoryPoint point) {
        point.atPeak = true;
        pane->showPoint(std::move(point));
        tabs->setCurrentWidget(pane);
    };
    QObject::connect(pane, &MemoryBlocksPane::peakRequested, pane, [canvas, pane, showPeak] {
        if (pane->point())
            showPeak(*pane->point());
        else if (std::optional<MemoryPoint> point = highestPeakPoint(*canvas))
            showPeak(std::move(*point));
    });
    // A snapshot lane's menu: its blocks at its peak.
    QObject::connect(canvas, &TimelineCanvas::contextMenuBuilt, pane, [canvas, showPeak](QMenu *menu, QPoint pos, int) {
        std::optional<MemoryPoint> point = memoryPointAt(*canvas, pos);
        if (!point || !isSnapshotLane(*point->report, point->series))
            return;
        menu->addSeparator();
        menu->addAction(QStringLiteral("Show Blocks at the Peak"), menu,
                        [showPeak, point = std::move(*point)] { showPeak(point); });
    });
    QObject::connect(tabs, &QTabWidget::currentChanged, pane, [tabs, canvas, pane] {
        if (tabs->currentWidget() == pane && !pane->point())
            if (std::optional<MemoryPoint> point = highestPeakPoint(*canvas))
                pane->showPoint(std::move(*point));
    });
    return pane;
}

} // namespace ps::views
