#pragma once
// Draws the timeline (lanes, grid, ruler, selection, the sticky label column) from the scene,
// its row layout and the view state; no input handling and no state of its own beyond a cache.
//
// Geometry is built, then drawn in batches, as Qt Creator's track painter and Tracy do: the marks
// of the visible rows are collected per colour and each colour is drawn with one drawRects call,
// instead of a QColor and a fillRect per mark. Marks come from the LOD folder and are cached per
// row for the mapping they were folded under; hover, selection and vertical scrolling repaint
// from that cache without touching events.

#include "views/scene/preparedreport.h"
#include "views/timeline/collectiveoverlay.h"
#include "views/timeline/lodfolder.h"

#include <QRect>
#include <QSize>

#include <functional>

#include <memory>
#include <unordered_map>
#include <vector>

class QFont;
class QPainter;
class QPalette;

namespace ps::views {

class LaunchFlow;
class RowLayout;
struct RowViewport;
class TimelineViewState;
struct Row;
struct SearchResult;
struct TimelineScene;

// The marks of one row: one vector per lane (level). Marks of an outline's pyramids
// (fromPyramid) name no event: their `index` is 0 and only `name` and `count` hold.
struct RowMarks
{
    std::vector<std::vector<LodMark>> lanes;
    bool fromPyramid = false;
};

class TimelinePainter
{
public:
    static constexpr int kDefaultLabelWidth = 260;

    struct Input
    {
        const TimelineScene *scene = nullptr;
        const RowLayout *layout = nullptr;
        const TimelineViewState *state = nullptr;
        const SearchResult *search = nullptr;
        CollectiveOverlay *collectives = nullptr; // waits hatched, the focused instance's arrows
        LaunchFlow *launch = nullptr;             // the selected event's call-to-kernel arrows
        QSize size;
        int labelWidth = kDefaultLabelWidth; // the label column; lanes start at its right edge
        // Called with an outline whose pyramids are too coarse for the zoom (page its events in).
        std::function<void(const PreparedReportPtr &)> wantEvents;
        // Called when an outline's pyramids do not decode (the digest changed or is damaged).
        std::function<void(const QString &)> problem;
    };

    TimelinePainter();
    ~TimelinePainter();

    void paint(QPainter &p, const Input &in, const QFont &font, const QPalette &palette);

    // The marks last drawn for a row, or nullptr (not painted under the current mapping).
    const RowMarks *cachedMarks(int row) const;
    // Drops the cache (the rows changed, or the benchmark wants a cold frame).
    void invalidate() { m_marks.clear(); }
    // Marks drawn in the last paint, and folded marks among them (for tests and the benchmark).
    size_t lastMarkCount() const { return m_lastMarks; }
    size_t lastFoldedCount() const { return m_lastFolded; }

private:
    struct Batch;
    // A band of the canvas and the rows drawn in it, shifted down by `shift` pixels (the Pinned
    // section, which does not scroll).
    struct RowPass
    {
        std::pair<int, int> rows;
        QRect band;
        int shift = 0;
    };
    void paintRows(QPainter &p, const Input &in, const RowPass &pass, const RowViewport &vp);
    CollectiveOverlay::Frame collectiveFrame(const Input &in, const RowViewport &vp, const RowPass &pass) const;
    const RowMarks &marksFor(int row, const Input &in);
    void paintGrid(QPainter &p, const Input &in) const;
    void collectRow(const Input &in, int row, Batch &batch);
    void collectUtilization(const Input &in, const Row &r, Batch &batch);
    void collectPyramidUtilization(const Input &in, const Row &r, Batch &batch);
    void collectMemory(const Input &in, const Row &r, Batch &batch) const;
    void collectDensity(const Input &in, const Row &r, Batch &batch);
    void paintSelection(QPainter &p, const Input &in, const Row &r) const;
    void paintRuler(QPainter &p, const Input &in) const;
    void paintLabels(QPainter &p, const Input &in, const QFont &font, const QPalette &palette,
                     const RowPass &pass) const;

    // An outline's pyramids, kept while recently drawn (at most kKeptDrawings reports).
    const OutlineDrawing &drawingOf(const PreparedReportPtr &report, OutlinePart part, const Input &in);
    RowMarks pyramidMarks(const Input &in, const Row &r);
    static constexpr size_t kKeptDrawings = 96;

    std::unordered_map<int, RowMarks> m_marks; // by row index, folded under m_marksMapping
    struct KeptDrawing
    {
        std::weak_ptr<const PreparedReport> report; // expired: the report is gone, the entry stale
        OutlinePart part = OutlinePart::Tracks;
        std::shared_ptr<const OutlineDrawing> drawing;
    };
    std::vector<KeptDrawing> m_drawings; // least recently drawn first
    TimeMapping m_marksMapping;
    size_t m_lastMarks = 0;
    size_t m_lastFolded = 0;
    int m_passShift = 0;            // of the pass being drawn
    std::unique_ptr<Batch> m_batch; // reused between frames to keep its allocations
};

} // namespace ps::views
