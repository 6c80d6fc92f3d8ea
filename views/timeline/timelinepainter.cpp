#include "views/timeline/timelinepainter.h"

#include "core/trace/memory/torchmemory.h"
#include "views/common/namecolors.h"
#include "views/memory/memorylanegeometry.h"
#include "views/scene/timeformat.h"
#include "views/scene/timelinescene.h"
#include "views/timeline/collectiveoverlay.h"
#include "views/timeline/eventinfo.h"
#include "views/timeline/eventsearch.h"
#include "views/timeline/launchflow.h"
#include "views/timeline/rowlayout.h"
#include "views/timeline/rulerlabel.h"
#include "views/timeline/timelineviewstate.h"

#include <QPainter>
#include <QPalette>

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
constexpr QRgb kUtilization = 0xff43a047; // busy share of a GPU
constexpr QRgb kMemory = 0xff5c6bc0;      // device memory in use
constexpr QRgb kPeak = 0xffe53935;        // the memory peak of a series
constexpr QRgb kOom = 0xff4a148c;         // an OOM on a snapshot's allocated lane
constexpr int kFoldedDarker = 140;        // folded marks: darker than their first event's colour
constexpr int kMarkDarker = 160;          // NVTX marks (instants): darker again

QString nameText(const EventStore &store, NameId name)
{
    const std::string_view text = store.name(name);
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// Busy ns per pixel column [0, width) from a busy pyramid level (a run's busy time spread evenly
// over the run, which at the level chosen is at most a pixel wide unless it is one interval).
std::vector<double> busyPerColumn(const LodLevel &level, const TimeMapping &m, int64_t offset, int width)
{
    std::vector<double> busy(size_t(std::max(0, width)), 0.0);
    const int64_t t0 = m.time(0) - offset, t1 = m.time(width) - offset;
    auto it = std::partition_point(level.runs.begin(), level.runs.end(), [t0](const LodRun &r) { return r.end < t0; });
    for (; it != level.runs.end() && it->start < t1; ++it) {
        const double x0 = m.x(it->start, offset), x1 = std::max(m.x(it->end, offset), x0 + 1e-9);
        const double perPixel = double(it->busy) / (x1 - x0);
        for (int x = std::max(0, int(std::floor(x0))); x < width && x < x1; ++x)
            busy[size_t(x)] += perPixel * (std::min(x1, double(x + 1)) - std::max(x0, double(x)));
    }
    return busy;
}

struct TextItem
{
    QRect rect;
    QString text;
    QRgb background;
};
} // namespace

// One frame's geometry, grouped for drawing: mark rectangles by colour (in order of first use,
// so that frames are deterministic), search-match outlines and the names inside wide marks.
struct TimelinePainter::Batch
{
    std::vector<std::pair<QRgb, std::vector<QRect>>> fills;
    std::unordered_map<QRgb, size_t> fillIndex;
    std::vector<QRect> matches;
    std::vector<TextItem> texts;
    std::unordered_map<uint64_t, QString> names; // (entry, name id) -> display name, per frame
    std::unordered_map<uint64_t, QRgb> shades;   // (colour, factor) -> darker colour, kept
    int charWidth = 1;

    void clear()
    {
        for (auto &f : fills)
            f.second.clear();
        matches.clear();
        texts.clear();
        names.clear();
    }
    void fill(QRgb colour, const QRect &r)
    {
        auto [it, added] = fillIndex.try_emplace(colour, fills.size());
        if (added)
            fills.emplace_back(colour, std::vector<QRect>());
        fills[it->second].second.push_back(r);
    }
    // Counter lanes: a bar from `bottom` up in pixel column x (ascending within a lane); a run
    // of columns of one height becomes one rectangle. endBars() closes the last run.
    void bar(QRgb colour, int x, int height, int bottom)
    {
        BarRun &b = barRun;
        if (height == b.height && x == b.x1 && colour == b.colour && bottom == b.bottom) {
            ++b.x1;
            return;
        }
        endBars();
        b = {colour, x, x + 1, height, bottom};
    }
    void endBars()
    {
        const BarRun &b = barRun;
        if (b.height > 0)
            fill(b.colour, QRect(b.x0, b.bottom - b.height, b.x1 - b.x0, b.height));
        barRun = {};
    }
    struct BarRun
    {
        QRgb colour = 0;
        int x0 = 0, x1 = 0, height = 0, bottom = 0;
    } barRun;

    // QColor::darker goes through HSV; a frame asks for the same few shades thousands of times.
    QRgb darker(QRgb colour, int factor)
    {
        const uint64_t key = (uint64_t(factor) << 32) | colour;
        auto it = shades.find(key);
        if (it == shades.end())
            it = shades.emplace(key, QColor::fromRgb(colour).darker(factor).rgb()).first;
        return it->second;
    }
};

TimelinePainter::TimelinePainter() : m_batch(std::make_unique<Batch>())
{
}

TimelinePainter::~TimelinePainter() = default;

const RowMarks *TimelinePainter::cachedMarks(int row) const
{
    auto it = m_marks.find(row);
    return it == m_marks.end() ? nullptr : &it->second;
}

const RowMarks &TimelinePainter::marksFor(int row, const Input &in)
{
    auto it = m_marks.find(row);
    if (it != m_marks.end())
        return it->second;
    RowMarks rm;
    const Row &r = in.layout->rows()[size_t(row)];
    if (r.kind == RowKind::Track && in.scene && in.scene->entries[size_t(r.entry)].report->isOutline()) {
        rm = pyramidMarks(in, r);
    } else if (r.kind == RowKind::Track && in.scene) {
        const TimelineEntry &e = in.scene->entries[size_t(r.entry)];
        const Track &t = e.report->store().track(r.track);
        rm.lanes.resize(size_t(r.levels));
        for (int l = 0; l < r.levels; ++l) {
            LaneView lane{&t, e.report->levelIndices(r.track, uint16_t(l))};
            if (r.levels > 1 && lane.indices.empty())
                continue;
            foldLane(lane, in.state->mapping(), e.offset, rm.lanes[size_t(l)]);
        }
    }
    return m_marks.emplace(row, std::move(rm)).first->second;
}

const OutlineDrawing &TimelinePainter::drawingOf(const PreparedReportPtr &report, OutlinePart part, const Input &in)
{
    std::erase_if(m_drawings, [](const KeptDrawing &d) { return d.report.expired(); });
    auto it = std::find_if(m_drawings.begin(), m_drawings.end(),
                           [&](const KeptDrawing &d) { return d.report.lock() == report && d.part == part; });
    KeptDrawing used;
    if (it != m_drawings.end()) {
        used = std::move(*it);
        m_drawings.erase(it);
    } else {
        used = {report, part, report->pyramidDrawing(part)};
        if (!used.drawing->error.empty() && in.problem)
            in.problem(QString::fromStdString(used.drawing->error));
        if (m_drawings.size() >= kKeptDrawings)
            m_drawings.erase(m_drawings.begin());
    }
    m_drawings.push_back(std::move(used));
    return *m_drawings.back().drawing;
}

// An outline's track row from its pyramids: per lane the coarsest level that is still at most a
// pixel wide; where even the finest is coarser, that one, and the events are asked for.
RowMarks TimelinePainter::pyramidMarks(const Input &in, const Row &r)
{
    RowMarks rm;
    rm.fromPyramid = true;
    const TimelineEntry &e = in.scene->entries[size_t(r.entry)];
    const OutlineDrawing &d = drawingOf(e.report, OutlinePart::Tracks, in);
    const auto &lanes = d.tracks[r.track];
    const TimeMapping &m = in.state->mapping();
    const double nsPerPixel = double(m.span(1.0));
    rm.lanes.resize(size_t(r.levels));
    bool coarse = false;
    for (size_t l = 0; l < rm.lanes.size() && l < lanes.size(); ++l) {
        const core::trace::LodLevel *level = lanes[l].levelFor(nsPerPixel);
        coarse = coarse || (!level && !lanes[l].empty());
        if (!level)
            level = lanes[l].finest();
        if (level)
            foldPyramidLevel(*level, m, e.offset, rm.lanes[l]);
    }
    if (coarse && in.wantEvents)
        in.wantEvents(e.report);
    return rm;
}

// The rows scroll under the Pinned section, which stays at the top (RowViewport): each part is
// drawn in its own pass, clipped to its band; the pinned pass is shifted down by the scroll, so the
// row painters, which place rows at their layout y minus the scroll, draw it where it stays.
void TimelinePainter::paint(QPainter &p, const Input &in, const QFont &font, const QPalette &palette)
{
    if (!(in.state->mapping() == m_marksMapping)) {
        m_marks.clear();
        m_marksMapping = in.state->mapping();
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.setFont(font);
    const int w = in.size.width(), h = in.size.height();
    const int L = in.labelWidth;
    p.fillRect(QRect(0, 0, w, h), kBackground);
    m_lastMarks = m_lastFolded = 0;
    paintGrid(p, in);
    if (!in.scene || in.layout->isEmpty()) {
        p.setPen(palette.color(QPalette::PlaceholderText));
        p.drawText(QRect(L, 0, w - L, h), Qt::AlignCenter, QStringLiteral("No events to show"));
    }
    const RowViewport vp(*in.layout, in.state->scrollY(), h);
    m_batch->charWidth = std::max(1, QFontMetrics(font).averageCharWidth());
    if (in.collectives)
        in.collectives->beginFrame();
    const RowPass scrolled{vp.scrolled, QRect(0, vp.sticky, w, h - vp.sticky), 0};
    const RowPass pinned{{0, vp.stickyRows}, QRect(0, 0, w, vp.sticky), vp.scroll};
    paintRows(p, in, scrolled, vp);
    if (vp.sticky > 0) {
        p.fillRect(pinned.band, kBackground);
        p.setClipRect(pinned.band);
        paintGrid(p, in);
        p.setClipping(false);
        paintRows(p, in, pinned, vp);
    }
    p.setClipRect(QRect(L, 0, w - L, h));
    if (in.collectives)
        in.collectives->paintFocus(p, collectiveFrame(in, vp, scrolled));
    if (in.launch)
        in.launch->paint(p, {in.scene, in.layout, &in.state->mapping(), &vp, L, in.size.width()},
                         in.state->selection());
    paintRuler(p, in);
    p.setClipping(false);
    p.fillRect(QRect(0, 0, L, h), kLabelBg);
    paintLabels(p, in, font, palette, scrolled);
    if (vp.sticky > 0) {
        paintLabels(p, in, font, palette, pinned);
        p.setPen(kSeparator);
        p.drawLine(0, vp.sticky - 1, w, vp.sticky - 1);
    }
    p.setPen(kSeparator);
    p.drawLine(L - 1, 0, L - 1, h);
}

CollectiveOverlay::Frame TimelinePainter::collectiveFrame(const Input &in, const RowViewport &vp,
                                                          const RowPass &pass) const
{
    return {in.scene, in.layout,       &in.state->mapping(), vp.scroll,  in.labelWidth,
            in.size,  pass.rows.first, pass.rows.second,     pass.shift, &vp};
}

// The lanes of `pass.rows`: backgrounds, marks batched per colour, hatched waits, search matches,
// names and the selection.
void TimelinePainter::paintRows(QPainter &p, const Input &in, const RowPass &pass, const RowViewport &vp)
{
    const int w = in.size.width(), L = in.labelWidth;
    p.save();
    p.setClipRect(pass.band.intersected(QRect(L, 0, w - L, in.size.height())));
    p.translate(0, pass.shift);
    m_passShift = pass.shift;
    Batch &batch = *m_batch;
    batch.clear();
    for (int ri = pass.rows.first; ri < pass.rows.second; ++ri) {
        const Row &r = in.layout->rows()[size_t(ri)];
        const int y = r.y - vp.scroll;
        if (r.isHeader())
            p.fillRect(QRect(L, y, w - L, r.height - 1), r.kind == RowKind::Group ? kGroupBg : kReportBg);
        else if (ri % 2)
            p.fillRect(QRect(L, y, w - L, r.height), kLaneAlt);
        if (r.kind == RowKind::Track)
            collectRow(in, ri, batch);
        else if (r.kind == RowKind::Utilization)
            collectUtilization(in, r, batch);
        else if (r.kind == RowKind::Memory)
            collectMemory(in, r, batch);
        else if (r.kind == RowKind::Report && r.collapsed)
            collectDensity(in, r, batch);
    }
    // One call per colour; then outlines and names over them.
    p.setPen(Qt::NoPen);
    for (const auto &[colour, rects] : batch.fills) {
        if (rects.empty())
            continue;
        p.setBrush(QColor::fromRgb(colour));
        p.drawRects(rects.data(), int(rects.size()));
    }
    p.setBrush(Qt::NoBrush);
    if (in.collectives)
        in.collectives->paintWaits(p, collectiveFrame(in, vp, pass));
    if (!batch.matches.empty()) {
        p.setPen(QPen(kMatch, 2));
        p.drawRects(batch.matches.data(), int(batch.matches.size()));
    }
    for (const TextItem &t : batch.texts) {
        p.setPen(textColorOn(QColor::fromRgb(t.background)));
        p.drawText(t.rect, Qt::AlignVCenter | Qt::AlignLeft | Qt::TextSingleLine, t.text);
    }
    if (const auto &sel = in.state->selection()) {
        const int row = in.layout->rowOf(sel->entry, sel->ref.track);
        if (row >= pass.rows.first && row < pass.rows.second)
            paintSelection(p, in, in.layout->rows()[size_t(row)]);
    }
    m_passShift = 0;
    p.restore();
}

void TimelinePainter::paintGrid(QPainter &p, const Input &in) const
{
    // Grid lines at the axis ticks, so the eye can follow a tick down the rows.
    const TimeMapping &m = in.state->mapping();
    const AxisTicks ticks =
        computeReadableTicks(m.window().start, m.window().end, m.width(), QFontMetrics(p.font()).averageCharWidth(),
                             in.state->wallClockOrigin());
    p.setPen(kGrid);
    for (int64_t t : ticks.ticks) {
        const int x = in.labelWidth + int(std::floor(m.x(t)));
        p.drawLine(x, 0, x, in.size.height());
    }
}

void TimelinePainter::collectRow(const Input &in, int ri, Batch &batch)
{
    const Row &r = in.layout->rows()[size_t(ri)];
    const int y = r.y - in.state->scrollY();
    const int w = in.size.width(), h = in.size.height(), L = in.labelWidth;
    const int laneH = RowLayout::kLaneHeight;
    const TimelineEntry &e = in.scene->entries[size_t(r.entry)];
    const PreparedReport &rep = *e.report;
    const EventStore &store = rep.store();
    const Track &t = store.track(r.track);
    const bool marks = t.kind() == TrackKind::NvtxMark;
    const RowMarks &rm = marksFor(ri, in);
    for (size_t l = 0; l < rm.lanes.size() && l < size_t(r.levels); ++l) { // deeper levels may be folded
        const int ly = y + int(l) * laneH;
        if (ly + m_passShift + laneH < 0 || ly + m_passShift > h) // off screen (the pinned pass is shifted)
            continue;
        for (const LodMark &mk : rm.lanes[l]) {
            const int x0 = L + int(std::floor(mk.x0));
            const int x1 = L + int(std::floor(mk.x1));
            const int bw = std::max(1, x1 - x0);
            const NameId name = mk.name;
            QRgb c = rep.color(name);
            ++m_lastMarks;
            if (mk.count > 1) {
                ++m_lastFolded;
                c = batch.darker(c, kFoldedDarker);
            }
            if (marks)
                batch.fill(batch.darker(c, kMarkDarker), QRect(x0 - 1, ly + 2, 3, laneH - 4));
            else
                batch.fill(c, QRect(x0, ly + 1, bw, laneH - 2));
            if (in.search && in.search->nameMatches(r.entry, name))
                batch.matches.emplace_back(x0, ly + 1, std::max(2, bw), laneH - 3);
            // Names inside boxes wide enough to hold a few characters.
            if (mk.count != 1 || bw < 4 * batch.charWidth || marks)
                continue;
            const int visX0 = std::max(x0, L), visX1 = std::min(x0 + bw, w);
            const int room = visX1 - visX0 - 6;
            const int chars = room / batch.charWidth;
            if (chars < 2)
                continue;
            const uint64_t key = (uint64_t(r.entry) << 32) | name;
            auto it = batch.names.find(key);
            if (it == batch.names.end())
                it = batch.names.emplace(key, rm.fromPyramid ? nameText(store, name) : eventName(store, t, mk.index))
                         .first;
            const QString &full = it->second;
            const QString text = full.size() <= chars ? full : full.left(chars - 1) + QChar(0x2026);
            batch.texts.push_back({QRect(visX0 + 3, ly, room + 3, laneH), text, c});
        }
    }
}

// A bar per pixel column: the share of the column's time the device is busy (GPU utilization
// binned to pixels).
void TimelinePainter::collectUtilization(const Input &in, const Row &r, Batch &batch)
{
    const TimelineEntry &e = in.scene->entries[size_t(r.entry)];
    if (e.report->isOutline()) {
        collectPyramidUtilization(in, r, batch);
        return;
    }
    const auto &busy = e.report->deviceBusy()[size_t(r.counter)];
    if (busy.intervals().empty())
        return;
    const TimeMapping &m = in.state->mapping();
    const int bottom = r.y - in.state->scrollY() + r.height - 2, full = r.height - 3;
    const int first = std::max(0, int(std::floor(m.x(busy.intervals().front().start, e.offset))));
    const int last =
        std::min(in.size.width() - in.labelWidth, int(std::ceil(m.x(busy.intervals().back().end, e.offset))));
    core::analysis::DeviceBusy::Cursor cursor(busy);
    int64_t t0 = m.time(first) - e.offset, before0 = cursor.busyBefore(t0);
    for (int x = first; x < last; ++x) {
        const int64_t t1 = std::max(t0 + 1, m.time(x + 1) - e.offset), before1 = cursor.busyBefore(t1);
        const int64_t busyNs = before1 - before0;
        const int height =
            std::max(int(std::lround(double(full) * double(busyNs) / double(t1 - t0))), busyNs > 0 ? 1 : 0);
        batch.bar(kUtilization, in.labelWidth + x, height, bottom);
        t0 = t1;
        before0 = before1;
    }
    batch.endBars();
}

// A collapsed report keeps one summary row: its header, with the busy share of its devices per
// pixel column (the utilization lanes drawn over each other, so a column shows its busiest device).
void TimelinePainter::collectPyramidUtilization(const Input &in, const Row &r, Batch &batch)
{
    const TimelineEntry &e = in.scene->entries[size_t(r.entry)];
    const LodPyramid &pyramid = drawingOf(e.report, OutlinePart::Busy, in).busy[size_t(r.counter)];
    const TimeMapping &m = in.state->mapping();
    const double nsPerPixel = m.span(1.0);
    const LodLevel *level = pyramid.levelFor(nsPerPixel);
    if (!level)
        level = pyramid.finest();
    if (!level)
        return;
    const int width = in.size.width() - in.labelWidth;
    const std::vector<double> busy = busyPerColumn(*level, m, e.offset, width);
    const int bottom = r.y - in.state->scrollY() + r.height - 2, full = r.height - 3;
    for (int x = 0; x < width; ++x) {
        const double column = double(m.time(x + 1) - m.time(x));
        const double share = column > 0 ? std::min(1.0, busy[size_t(x)] / column) : 0.0;
        batch.bar(kUtilization, in.labelWidth + x,
                  std::max(int(std::lround(full * share)), busy[size_t(x)] > 0 ? 1 : 0), bottom);
    }
    batch.endBars();
}

void TimelinePainter::collectDensity(const Input &in, const Row &r, Batch &batch)
{
    const size_t devices = in.scene->entries[size_t(r.entry)].report->busyDevices().size();
    for (size_t i = 0; i < devices; ++i) {
        Row lane = r;
        lane.counter = int(i);
        collectUtilization(in, lane, batch);
    }
}

// A bar per pixel column: the highest value in force during the column, scaled to the series'
// peak, and the peak marked (its value is in the label column). A memory timeline's total is
// stacked by category; its category lanes are drawn in their bands' colours (the legend). A
// snapshot's allocated lane marks its OOMs.
void TimelinePainter::collectMemory(const Input &in, const Row &r, Batch &batch) const
{
    const TimelineEntry &e = in.scene->entries[size_t(r.entry)];
    const Report &report = e.report->report();
    const MemorySeries &s = report.meta.memory[size_t(r.counter)];
    const int64_t peak = s.peakBytes();
    if (s.empty() || peak <= 0)
        return;
    const TimeMapping &m = in.state->mapping();
    const int y = r.y - in.state->scrollY(), bottom = y + r.height - 2, full = r.height - 4;
    const int width = in.size.width() - in.labelWidth;
    const int first = std::max(0, int(std::floor(m.x(s.timeNs.front(), e.offset))));
    // The last value holds until the report ends, not forever.
    const int64_t end = std::max(e.report->lastEnd(), s.timeNs.back());
    const int last = std::min(width, int(std::ceil(m.x(end, e.offset))));
    const std::vector<MemoryColumn> columns = memoryColumns(s, m, e.offset, first, last);
    const std::vector<MemoryStackPart> parts = memoryStackOf(report.meta.memory, size_t(r.counter));
    const auto bands = stackedBars(report.meta.memory, parts, columns, peak, full);
    for (size_t k = 0; k < bands.size(); ++k) { // a band at a time, so that its runs merge
        for (const StackedBar &b : bands[k])
            batch.bar(memoryCategoryColor(parts[k].category), in.labelWidth + b.x, b.top - b.below, bottom - b.below);
        batch.endBars();
    }
    if (parts.empty()) {
        const std::optional<size_t> category = memoryCategoryOf(s);
        const QRgb colour = category ? memoryCategoryColor(*category) : kMemory;
        for (const MemoryColumn &c : columns)
            batch.bar(colour, in.labelWidth + c.x, memoryBarHeight(c.bytes, peak, full), bottom);
        batch.endBars();
    }
    const auto mark = [&](int64_t t, QRgb colour, int w) {
        if (const double px = m.x(t, e.offset); px >= 0 && px < width)
            batch.fill(colour, QRect(in.labelWidth + int(std::floor(px)) - w / 2, y + 1, w, r.height - 2));
    };
    mark(*s.peakTimeNs(), kPeak, 3);
    for (const MemoryDevicePeak &d : report.meta.memoryPeaks)
        if (d.device == int64_t(s.device) && s.source == kSnapshotAllocatedSource)
            for (const MemoryOom &o : d.ooms)
                if (o.timeNs)
                    mark(*o.timeNs, kOom, 2);
}

void TimelinePainter::paintSelection(QPainter &p, const Input &in, const Row &r) const
{
    const TimelineSelection &sel = *in.state->selection();
    const TimelineEntry &e = in.scene->entries[size_t(sel.entry)];
    const Track &t = e.report->store().track(sel.ref.track);
    const TimeMapping &m = in.state->mapping();
    const uint32_t i = sel.ref.index;
    if (t.level(i) >= r.levels)
        return; // on a folded level
    const double w = in.size.width();
    const int ly = r.y - in.state->scrollY() + t.level(i) * RowLayout::kLaneHeight;
    const int x0 = in.labelWidth + int(std::floor(std::clamp(m.x(t.start(i), e.offset), -4.0, w)));
    const int x1 = in.labelWidth + int(std::floor(std::clamp(m.x(t.end(i), e.offset), -4.0, w)));
    p.setPen(QPen(Qt::black, 2));
    p.drawRect(QRect(x0 - 1, ly, std::max(3, x1 - x0 + 2), RowLayout::kLaneHeight - 1));
}

void TimelinePainter::paintRuler(QPainter &p, const Input &in) const
{
    const auto &ruler = in.state->ruler();
    if (!ruler)
        return;
    const TimeMapping &m = in.state->mapping();
    const int h = in.size.height();
    const double w = in.size.width();
    const int x0 = in.labelWidth + int(std::floor(std::clamp(m.x(ruler->start), -4.0, w)));
    const int x1 = in.labelWidth + int(std::floor(std::clamp(m.x(ruler->end), -4.0, w)));
    p.fillRect(QRect(x0, 0, std::max(1, x1 - x0), h), kRulerFill);
    p.setPen(kRulerEdge);
    p.drawLine(x0, 0, x0, h);
    p.drawLine(x1, 0, x1, h);
    const QFontMetrics fm(p.font());
    const QString text = rulerLabel(ruler->start, ruler->end, in.state->wallClockOrigin());
    const int tw = fm.horizontalAdvance(text) + 10;
    const QRect box((x0 + x1) / 2 - tw / 2, 4, tw, fm.height() + 4);
    p.fillRect(box, kRulerEdge);
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, text);
}

void TimelinePainter::paintLabels(QPainter &p, const Input &in, const QFont &font, const QPalette &palette,
                                  const RowPass &pass) const
{
    const int L = in.labelWidth;
    const QFontMetrics fm(font);
    QFont bold = font;
    bold.setBold(true);
    const QFontMetrics bfm(bold);
    p.save();
    p.setClipRect(pass.band.intersected(QRect(0, 0, L, in.size.height())));
    p.fillRect(pass.band, kLabelBg);
    p.translate(0, pass.shift);
    std::vector<std::pair<QRect, QString>> tightLabels; // drawn after the backgrounds below them
    for (int ri = pass.rows.first; ri < pass.rows.second; ++ri) {
        const Row &r = in.layout->rows()[size_t(ri)];
        const int y = r.y - in.state->scrollY();
        const int indent = 6 + r.depth * 12;
        if (r.isHeader() && r.height < bfm.height()) {
            // Folded reports thinner than a line (membersinview.h): every few named, over the next.
            p.fillRect(QRect(0, y, L - 1, std::max(1, r.height - 1)), kReportBg);
            if (tightLabels.empty() || y > tightLabels.back().first.bottom())
                tightLabels.push_back({QRect(indent, y, L - indent - 4, bfm.height()), r.label});
        } else if (r.isHeader()) {
            p.fillRect(QRect(0, y, L - 1, r.height - 1), r.kind == RowKind::Group ? kGroupBg : kReportBg);
            p.setFont(bold);
            p.setPen(palette.color(QPalette::WindowText));
            const QString arrow = r.collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ");
            p.drawText(QRect(indent, y, L - indent - 4, r.height), Qt::AlignVCenter | Qt::AlignLeft,
                       bfm.elidedText(arrow + r.label, Qt::ElideMiddle, L - indent - 4));
            p.setFont(font);
        } else {
            p.setPen(palette.color(QPalette::WindowText).lighter(140));
            p.drawText(QRect(indent, y, L - indent - 4, RowLayout::kLaneHeight), Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(r.label, Qt::ElideRight, L - indent - 4));
            if (!r.detail.isEmpty())
                p.drawText(QRect(indent + 12, y + RowLayout::kLaneHeight - 4, L - indent - 16, RowLayout::kLaneHeight),
                           Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(r.detail, Qt::ElideRight, L - indent - 16));
        }
    }
    p.setPen(palette.color(QPalette::WindowText));
    for (const auto &[rect, label] : tightLabels)
        p.drawText(rect, Qt::AlignTop | Qt::AlignLeft, fm.elidedText(label, Qt::ElideMiddle, rect.width()));
    p.restore();
}

} // namespace ps::views
