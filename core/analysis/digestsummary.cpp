#include "core/analysis/digestsummary.h"

#include "core/analysis/devicebusy.h"
#include "core/analysis/phasesummary.h"
#include "core/trace/bytefields.h"
#include "core/trace/reportoutline.h"

#include <set>

namespace ps::core::analysis {

namespace {

// The devices with GPU work, ascending (what deviceBusy() gives one entry each).
std::set<uint32_t> gpuDevices(const trace::EventStore &store)
{
    std::set<uint32_t> devices;
    for (const trace::Track &t : store.tracks())
        if (trace::isGpuKind(t.kind()) && !t.empty())
            devices.insert(t.deviceId());
    return devices;
}

// `wholeBusy`: the union of all GPU work, which is the one device's busy time when there is one
// (most reports: a rank drives one GPU); with several devices each one's is computed.
std::string encodeDeviceBusy(const trace::EventStore &store, std::vector<Interval> wholeBusy)
{
    std::string out;
    const auto put = [&out](uint64_t v) { trace::appendField(out, v); };
    const std::set<uint32_t> ids = gpuDevices(store);
    std::vector<DeviceBusy> devices;
    if (ids.size() == 1)
        devices.emplace_back(*ids.begin(), std::move(wholeBusy));
    else
        devices = deviceBusy(store);
    put(devices.size());
    for (const DeviceBusy &d : devices) {
        put(d.device());
        const auto &busy = d.intervals();
        trace::LodPyramidBuilder b(busy.empty() ? 0 : busy.front().start, busy.empty() ? 0 : busy.back().end,
                                   busy.size());
        for (const Interval &i : busy)
            b.add(i.start, i.end, trace::kNoName);
        trace::appendPyramid(out, b.finish());
    }
    return out;
}

} // namespace

void addDigestSummaries(const trace::Report &report, trace::DigestOptions &options)
{
    options.deferredSections.push_back([&report] { // made while the digest compresses the events
        std::vector<Interval> busy;
        const GpuBreakdown whole =
            computeBreakdownDirect(*report.store, WorkClassTable(*report.store), {}, nullptr, &busy);
        return std::vector<trace::DigestSection>{
            phaseSummarySection(report),
            {std::string(kBreakdownTag), encodeBreakdown(whole)},
            {std::string(kDeviceBusyTag), encodeDeviceBusy(*report.store, std::move(busy)), true}};
    });
}

std::string writeDigestWithSummaries(const trace::Report &report, const std::string &path, trace::DigestOptions options)
{
    addDigestSummaries(report, options);
    return trace::writeDigest(report, path, options);
}

std::optional<GpuBreakdown> wholeBreakdown(const trace::Report &report, std::string &error,
                                           const trace::CancelToken *cancel)
{
    if (!report.outline)
        return computeBreakdown(*report.store, {}, cancel);
    const std::optional<std::string> json = report.outline->section(kBreakdownTag, error);
    GpuBreakdown b;
    if (!json) {
        error = error.empty() ? report.path + ": the digest has no GPU breakdown" : error;
        return std::nullopt;
    }
    if (!decodeBreakdown(*json, b, error)) {
        error = report.path + ": damaged digest: " + error;
        return std::nullopt;
    }
    return b;
}

std::vector<DeviceBusyPyramid> deviceBusyPyramids(const trace::Report &report, std::string &error)
{
    std::vector<DeviceBusyPyramid> out;
    const std::optional<std::string> bytes =
        report.outline ? report.outline->section(kDeviceBusyTag, error) : std::nullopt;
    if (!bytes)
        return out;
    size_t pos = 0;
    const auto take = [&](uint64_t &v) { return trace::takeField(*bytes, pos, v); };
    uint64_t count = 0;
    std::string why = take(count) && count <= 4096 ? "" : "its device count is out of range";
    for (uint64_t i = 0; i < count && why.empty(); ++i) {
        uint64_t device = 0;
        DeviceBusyPyramid d;
        if (!take(device) || !trace::readPyramid(*bytes, pos, d.pyramid, why)) {
            why = why.empty() ? "a device entry is cut short" : why;
            break;
        }
        d.device = uint32_t(device);
        out.push_back(std::move(d));
    }
    if (!why.empty()) {
        error = report.path + ": damaged digest: section BUSY: " + why;
        out.clear();
    }
    return out;
}

} // namespace ps::core::analysis
