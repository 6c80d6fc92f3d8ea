#pragma once
// A loaded report plus what drawing it needs that the engine does not store: per track and
// level, the indices of that level's events (levels are interleaved in a track's columns, and
// the LOD folder walks one level at a time), a colour per name id, and when each GPU is busy. Built once per report on
// a worker thread; immutable and shared afterwards.

#include "core/analysis/devicebusy.h"
#include "core/trace/report.h"

#include <QRgb>

#include <memory>
#include <span>
#include <vector>

namespace ps::core::trace {
class CancelToken;
}

namespace ps::views {

class PreparedReport
{
public:
    // Heavy (one pass over every event): call on a worker thread. Returns nullptr if cancelled.
    static std::shared_ptr<const PreparedReport> prepare(core::trace::ReportPtr report,
                                                         const core::trace::CancelToken *cancel = nullptr);

    const core::trace::Report &report() const { return *m_report; }
    const core::trace::ReportPtr &reportPtr() const { return m_report; }
    const core::trace::EventStore &store() const { return *m_report->store; }

    // Event indices of `level` in `track`, ascending; empty for tracks with one level, where
    // every event is on level 0 (callers then walk the track directly).
    std::span<const uint32_t> levelIndices(uint32_t track, uint16_t level) const;
    // When each GPU is busy, for the utilization lanes (one per device with GPU work).
    const std::vector<core::analysis::DeviceBusy> &deviceBusy() const { return m_deviceBusy; }
    QRgb color(core::trace::NameId name) const { return name < m_colors.size() ? m_colors[name] : 0xff9e9e9e; }

private:
    core::trace::ReportPtr m_report;
    std::vector<std::vector<std::vector<uint32_t>>> m_levels; // [track][level] -> indices
    std::vector<QRgb> m_colors;                               // [name id]
    std::vector<core::analysis::DeviceBusy> m_deviceBusy;
};

using PreparedReportPtr = std::shared_ptr<const PreparedReport>;

} // namespace ps::views
