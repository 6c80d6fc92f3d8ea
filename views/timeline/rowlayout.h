#pragma once
// The vertical layout of the timeline: group headers (run, worker group, rank), then per entry a
// report header and its tracks — per thread the NVTX lanes, CUDA API and OS runtime calls, per
// GPU stream the kernels, memcpy and memset — each track with one lane per level (nesting depth
// or overlap lane) — and above the tracks the report's counter lanes: GPU utilization per device
// and device memory per recorded series. Empty tracks are hidden. What the user chose (TrackView)
// shapes it: collapsed headers hide what is under them (a collapsed report keeps one summary
// row, its header, drawn as a density strip), hidden tracks and kinds are left out, tracks the
// user dragged keep the order they were dropped in, and pinned tracks move to a "Pinned" section
// at the top, which stays on screen while the rest scrolls (RowViewport). Pure geometry: rows
// are y-sorted, so finding the rows in a viewport is a binary search.

#include "views/scene/timelinescene.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <optional>
#include <vector>

namespace ps::views {

enum class RowKind { Group, Report, Track, Utilization, Memory };

struct Row
{
    RowKind kind = RowKind::Group;
    int depth = 0; // indentation level of the label
    int y = 0;     // top, in layout pixels
    int height = 0;
    QString label;
    QString detail; // a second label line (a memory lane's peak)
    QString key;    // collapse key (headers); track key (tracks and counter lanes)
    bool collapsed = false;
    int entry = -1;       // Report / Track rows
    uint32_t track = 0;   // Track rows: index into the entry's store
    int levels = 0;       // Track rows: lanes shown
    int hiddenLevels = 0; // Track rows: deeper lanes left out (RowLayout::kMaxLanes)
    int counter = -1;     // Utilization: index into deviceBusy(); Memory: into meta.memory

    int bottom() const { return y + height; }
    // Group and report headers: collapsible, drawn as bands.
    bool isHeader() const { return kind == RowKind::Group || kind == RowKind::Report; }
};

// The user's choices of what to show. Sessions store them, so keys must stay stable.
struct TrackView
{
    QSet<QString> collapsed; // header keys (RowLayout::groupKey, reportKey)
    // Kinds hidden in one run (RowLayout::kindKey: "run:<run>|Memset"); a bare kind word ("Memset",
    // "GPU util", "CUDA API": sessions before kinds were per run) hides it in every run.
    QSet<QString> hiddenKinds;
    QSet<QString> hiddenTracks; // RowLayout::trackKey
    QStringList pinned;         // RowLayout::trackKey, in the order they were pinned (or dragged)
    QSet<QString> fullDepth;    // RowLayout::trackKey of deep tracks shown with every level
    // The lanes of a report in the order the user dragged them to: report key -> its track keys
    // (counter lanes included). Lanes not listed (new ones) follow in their own order.
    QHash<QString, QStringList> order;
    // Folded reports drawn this many pixels high instead of a header's (0: a header's): a
    // collective's members squeezed to fit one screen (membersInView). Not stored in sessions.
    int foldedReportHeight = 0;

    bool operator==(const TrackView &) const = default;
    int hiddenCount() const { return int(hiddenKinds.size() + hiddenTracks.size()); }
    bool hidesKind(const TimelineEntry &entry, const QString &kind) const;
    // What is left for `scene` when the others are closed: hidden, pinned, reordered and deep lanes
    // of reports it does not show and kinds hidden in runs it does not show are forgotten (Close
    // Run, Close All), so they never apply to unrelated files opened later. Folded headers stay.
    TrackView keptFor(const TimelineScene *scene) const;
};

class RowLayout
{
public:
    static constexpr int kHeaderHeight = 20;
    static constexpr int kLaneHeight = 16;
    static constexpr int kUtilizationHeight = 20;
    static constexpr int kMemoryHeight = 28;
    // A track shows at most this many levels until its label is clicked: a 30-deep Python stack
    // (Ascend, Kineto) would fill the screen.
    static constexpr int kMaxLanes = 8;

    RowLayout() = default;
    RowLayout(const TimelineScene &scene, const QSet<QString> &collapsed);
    RowLayout(const TimelineScene &scene, const TrackView &view);

    const std::vector<Row> &rows() const { return m_rows; }
    int totalHeight() const { return m_height; }
    bool isEmpty() const { return m_rows.empty(); }

    // Index of the row containing layout y, or -1.
    int rowAt(int y) const;
    // Lane (level) of a track row at layout y.
    static int laneAt(const Row &row, int y) { return (y - row.y) / kLaneHeight; }
    // [first, last) rows that intersect [y0, y1).
    std::pair<int, int> rowsIn(int y0, int y1) const;
    // The Pinned section (header and pinned lanes) at the top: rows [0, pinnedRows()), 0 without.
    int pinnedRows() const { return m_pinnedRows; }
    int pinnedHeight() const { return m_pinnedHeight; }
    // Row showing `track` of `entry`, or -1 (hidden or collapsed).
    int rowOf(int entry, uint32_t track) const;
    // The report header row of an entry, or -1.
    int reportRowOf(int entry) const;

    // Collapse keys: "group:run/ActorGroup" for a group header (its path), "report:<entry key>"
    // for a report header. Sessions store them, so they must stay stable.
    static QString groupKey(const QStringList &groupPath);
    static QString reportKey(const TimelineEntry &entry);
    // The keys whose collapsing hides the entry's tracks: its report and every enclosing group.
    static QStringList keysHiding(const TimelineEntry &entry);
    // A kind hidden in the entry's run only (TrackView::hiddenKinds).
    static QString kindKey(const TimelineEntry &entry, const QString &kind);
    // The run of an entry: its report's identity.run ("" without a run folder).
    static QString runOf(const TimelineEntry &entry);
    // The kind word and run of a hidden-kind key (no run: a bare kind word, hidden in every run).
    static std::pair<QString, std::optional<QString>> splitKindKey(const QString &key);
    // A track or counter lane of a report: "<report key>|<label>" ("report:/x.sqlite|Memset · GPU 0 ·
    // stream 7"). The label names the thread or stream, so it is unique within a report.
    static QString trackKey(const TimelineEntry &entry, const QString &label);
    // The labels of an entry's tracks, by track index ("" for an empty track): those the rows
    // show, made unique within the report (trackLabel, then the range style or pid).
    static std::vector<QString> trackLabels(const TimelineEntry &entry);
    // The kind word of a track label: "Kernels" of "Kernels · GPU 0 · stream 7".
    static QString kindOf(const QString &label);

    // "NVTX · python [1234]", "Kernels · GPU 0 · stream 7": the label of a track, in the words
    // of the report's format ("HIP API", "CANN (ACL) API", "Tasks · NPU 0", "roctx", ...).
    static QString trackLabel(const core::trace::EventStore &store, const core::trace::Track &track,
                              core::trace::TraceFormat format);

private:
    void addCounterRows(const TimelineEntry &e, int entry, int depth, int &y);
    void addTrackRows(const TimelineEntry &e, int entry, int depth, int &y);
    bool hasPinsIn(const TimelineEntry &e) const;
    void place(Row r, int &y);
    void prependPinnedRows();
    void applyOrder(size_t firstRow, const TimelineEntry &e);
    static QString uniqueLabel(const QString &label, const core::trace::Track &track, QSet<QString> &used);

    // Only while building:
    const TrackView *m_view = nullptr;
    const TimelineScene *m_scene = nullptr;
    bool m_placing = true;     // the current report is shown (else only its pinned rows are taken)
    std::vector<Row> m_pinned; // by pin order; height 0 = not found

    std::vector<Row> m_rows;
    int m_height = 0;
    int m_pinnedRows = 0;
    int m_pinnedHeight = 0;
};

// Two runs opened together both start on the first screen: when a run new to the canvas (none of
// its reports in `seen`, the report keys it has shown) joins a scene of several runs and some
// run's first report would start below `height` pixels, every report of the scene starts folded
// (one density row each). Empty otherwise: the report keys to fold.
QSet<QString> reportsToFoldForNewRun(const TimelineScene &scene, const TrackView &view, int height,
                                     const QSet<QString> &seen);
// Reports that arrive after their run was shown (a progressive load) follow the run: the keys of
// the reports new to the canvas (not in `seen`) whose run has shown reports, all of them folded.
QSet<QString> newReportsOfFoldedRuns(const TimelineScene &scene, const TrackView &view, const QSet<QString> &seen);

// The rows on a canvas of `height` pixels scrolled by `scroll`: the Pinned section stays at the
// top while the rest scrolls under it, unless it would take more than half the canvas (then it
// scrolls with the rest, so the other lanes keep room). Widget y <-> layout y, and the rows drawn.
struct RowViewport
{
    RowViewport(const RowLayout &layout, int scroll, int height);

    int scroll = 0;
    int height = 0;
    int sticky = 0;               // widget pixels at the top that do not scroll (the Pinned section)
    int stickyRows = 0;           // rows [0, stickyRows) are drawn there
    std::pair<int, int> scrolled; // [first, last) of the other rows on screen

    bool isSticky(const Row &r) const { return r.y < sticky; }
    int screenY(const Row &r) const { return isSticky(r) ? r.y : r.y - scroll; }
    int layoutY(int widgetY) const { return widgetY < sticky ? widgetY : widgetY + scroll; }
    // Every row on screen: the sticky ones, then the scrolled ones.
    template <typename F> void forEachRow(F &&f) const
    {
        for (int r = 0; r < stickyRows; ++r)
            f(r);
        for (int r = std::max(scrolled.first, stickyRows); r < scrolled.second; ++r)
            f(r);
    }
};

} // namespace ps::views
