#include "views/scene/preparedreport.h"

#include "core/common/canceltoken.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/store/report.h"
#include "views/common/namecolors.h"

#include <algorithm>
#include <set>

namespace ps::views {

using namespace ps::core::trace;
using ps::core::CancelToken;

namespace {
std::vector<QRgb> colorsOf(const NameTable &names)
{
    std::vector<QRgb> colors(names.size());
    for (size_t i = 0; i < names.size(); ++i)
        colors[i] = colorForName(names[NameId(i)]).rgb();
    return colors;
}
} // namespace

std::shared_ptr<const PreparedReport> PreparedReport::prepare(ReportPtr report, const CancelToken *cancel)
{
    auto p = std::make_shared<PreparedReport>();
    p->m_report = std::move(report);
    const EventStore &store = p->m_report->layout();
    p->m_colors = colorsOf(store.names());
    if (p->isOutline()) { // a lane per device with GPU work, as deviceBusy() makes them
        std::set<uint32_t> devices;
        for (uint32_t ti = 0; ti < store.tracks().size(); ++ti)
            if (isGpuKind(store.track(ti).kind()) && p->trackEvents(ti) > 0)
                devices.insert(store.track(ti).deviceId());
        p->m_busyDevices.assign(devices.begin(), devices.end());
        return p;
    }
    p->m_levels.resize(store.tracks().size());
    for (uint32_t ti = 0; ti < store.tracks().size(); ++ti) {
        if (cancel && cancel->cancelled())
            return nullptr;
        const Track &t = store.track(ti);
        if (t.levelCount() <= 1)
            continue;
        auto &levels = p->m_levels[ti];
        levels.resize(t.levelCount());
        std::vector<size_t> counts(t.levelCount());
        const auto lv = t.columns().level;
        for (uint16_t l : lv)
            ++counts[std::min<size_t>(l, counts.size() - 1)];
        for (size_t l = 0; l < levels.size(); ++l)
            levels[l].reserve(counts[l]);
        for (size_t i = 0; i < lv.size(); ++i)
            levels[std::min<size_t>(lv[i], levels.size() - 1)].push_back(uint32_t(i));
    }
    p->m_deviceBusy = core::analysis::deviceBusy(store, cancel);
    if (cancel && cancel->cancelled())
        return nullptr;
    for (const core::analysis::DeviceBusy &d : p->m_deviceBusy)
        p->m_busyDevices.push_back(d.device());
    return p;
}

size_t PreparedReport::trackEvents(uint32_t track) const
{
    return core::trace::trackExtentOf(*m_report, track).events;
}

size_t PreparedReport::eventCount() const
{
    return core::trace::extentOf(*m_report).events;
}

int64_t PreparedReport::firstStart() const
{
    return core::trace::extentOf(*m_report).firstStart;
}

int64_t PreparedReport::lastEnd() const
{
    return core::trace::extentOf(*m_report).lastEnd;
}

std::shared_ptr<const OutlineDrawing> PreparedReport::pyramidDrawing(OutlinePart part) const
{
    if (!isOutline())
        return nullptr;
    std::lock_guard lock(m_drawingMutex);
    std::weak_ptr<const OutlineDrawing> &slot = m_drawing[size_t(part)];
    if (auto kept = slot.lock())
        return kept;
    auto d = std::make_shared<OutlineDrawing>();
    if (part == OutlinePart::Tracks)
        d->tracks = core::trace::trackPyramidsOf(*m_report, d->error).value_or(core::trace::TrackPyramids{});
    d->tracks.resize(store().tracks().size()); // a part that did not decode draws empty
    d->busy.resize(m_busyDevices.size());
    if (part == OutlinePart::Busy)
        for (core::analysis::DeviceBusyPyramid &b : core::analysis::deviceBusyPyramids(*m_report, d->error)) {
            const auto lane = std::find(m_busyDevices.begin(), m_busyDevices.end(), b.device);
            if (lane != m_busyDevices.end())
                d->busy[size_t(lane - m_busyDevices.begin())] = std::move(b.pyramid);
        }
    slot = d;
    return d;
}

std::span<const uint32_t> PreparedReport::levelIndices(uint32_t track, uint16_t level) const
{
    if (track >= m_levels.size() || level >= m_levels[track].size())
        return {};
    return m_levels[track][level];
}

} // namespace ps::views
