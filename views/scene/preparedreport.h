#pragma once
// A loaded report plus what drawing it needs that the engine does not store: per track and
// level, the indices of that level's events (levels are interleaved in a track's columns, and
// the LOD folder walks one level at a time), a colour per name id, and when each GPU is busy.
// Built once per report on a worker thread; immutable and shared afterwards.
//
// A digest opened as an outline (core/trace/persist/reportoutline.h) has no events: it is drawn from its
// pyramids (OutlineDrawing, decoded when first drawn and dropped when no view holds it), and
// the timeline pages its events in (ReportPager) where the pyramids are too coarse.

#include "core/analysis/breakdown/devicebusy.h"
#include "core/analysis/digestsummary.h"
#include "core/common/canceltoken.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/store/report.h"

#include <QRgb>

#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace ps::views {

// The pyramids an outline is drawn from, each part decoded on its own (a collapsed report needs
// only its devices' busy time): per track its lanes' (PYRD), per utilization lane (busyDevices()
// order) the device's busy time (BUSY).
enum class OutlinePart { Tracks, Busy };
struct OutlineDrawing
{
    std::vector<std::vector<core::trace::LodPyramid>> tracks;
    std::vector<core::trace::LodPyramid> busy;
    std::string error; // why a section did not decode (then it is drawn empty)
};

class PreparedReport
{
public:
    // Heavy (one pass over every event): call on a worker thread. Returns nullptr if cancelled.
    static std::shared_ptr<const PreparedReport> prepare(core::trace::ReportPtr report,
                                                         const core::CancelToken *cancel = nullptr);

    const core::trace::Report &report() const { return *m_report; }
    const core::trace::ReportPtr &reportPtr() const { return m_report; }
    // The report's store: its events, or for an outline its layout (tracks without events; what
    // the views draw of it comes from its pyramids).
    const core::trace::EventStore &store() const { return m_report->layout(); }

    // Event indices of `level` in `track`, ascending; empty for tracks with one level, where
    // every event is on level 0 (callers then walk the track directly).
    std::span<const uint32_t> levelIndices(uint32_t track, uint16_t level) const;
    // When each GPU is busy, for the utilization lanes (one per device with GPU work); empty for
    // an outline, whose lanes come from pyramidDrawing().
    const std::vector<core::analysis::DeviceBusy> &deviceBusy() const { return m_deviceBusy; }
    // The device of each utilization lane.
    const std::vector<uint32_t> &busyDevices() const { return m_busyDevices; }

    bool isOutline() const { return !core::trace::hasEvents(*m_report); }
    // Events of a track, of the report, and their extent (the outline's for an outline).
    size_t trackEvents(uint32_t track) const;
    size_t eventCount() const;
    int64_t firstStart() const;
    int64_t lastEnd() const;
    // One part of an outline's pyramids (the other left empty), decoded on first use and shared
    // while someone holds it; null for a report with events.
    std::shared_ptr<const OutlineDrawing> pyramidDrawing(OutlinePart part) const;
    QRgb color(core::trace::NameId name) const { return name < m_colors.size() ? m_colors[name] : 0xff9e9e9e; }

private:
    core::trace::ReportPtr m_report;
    std::vector<std::vector<std::vector<uint32_t>>> m_levels; // [track][level] -> indices
    std::vector<QRgb> m_colors;                               // [name id]
    std::vector<core::analysis::DeviceBusy> m_deviceBusy;
    std::vector<uint32_t> m_busyDevices;
    mutable std::mutex m_drawingMutex;
    mutable std::weak_ptr<const OutlineDrawing> m_drawing[2]; // by OutlinePart
};

using PreparedReportPtr = std::shared_ptr<const PreparedReport>;

} // namespace ps::views
