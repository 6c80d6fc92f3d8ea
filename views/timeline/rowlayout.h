#pragma once
// The vertical layout of the timeline: group headers (run, worker group, rank), then per entry a
// report header and its tracks — per thread the NVTX lanes, CUDA API and OS runtime calls, per
// GPU stream the kernels, memcpy and memset — each track with one lane per level (nesting depth
// or overlap lane) — and above the tracks the report's counter lanes: GPU utilization per device
// and device memory per recorded series. Empty tracks are hidden. What the user chose (TrackView)
// shapes it: collapsed headers hide what is under them (a collapsed report keeps one summary
// row, its header, drawn as a density strip), hidden tracks and kinds are left out, and pinned
// tracks move to a "Pinned" section at the top. Pure geometry: rows are y-sorted, so finding
// the rows in a viewport is a binary search.

#include "views/scene/timelinescene.h"

#include <QSet>
#include <QString>
#include <QStringList>

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
    QSet<QString> collapsed;    // header keys (RowLayout::groupKey, reportKey)
    QSet<QString> hiddenKinds;  // kind words, the label's first part: "Memset", "GPU util", "CUDA API"
    QSet<QString> hiddenTracks; // RowLayout::trackKey
    QStringList pinned;         // RowLayout::trackKey, in the order they were pinned
    QSet<QString> fullDepth;    // RowLayout::trackKey of deep tracks shown with every level

    bool operator==(const TrackView &) const = default;
    int hiddenCount() const { return int(hiddenKinds.size() + hiddenTracks.size()); }
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
    static QString uniqueLabel(const QString &label, const core::trace::Track &track, QSet<QString> &used);

    // Only while building:
    const TrackView *m_view = nullptr;
    const TimelineScene *m_scene = nullptr;
    bool m_placing = true;     // the current report is shown (else only its pinned rows are taken)
    std::vector<Row> m_pinned; // by pin order; height 0 = not found

    std::vector<Row> m_rows;
    int m_height = 0;
};

} // namespace ps::views
