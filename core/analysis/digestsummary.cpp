#include "core/analysis/digestsummary.h"

#include "core/analysis/memory/memorysummary.h"

#include "core/analysis/breakdown/devicebusy.h"
#include "core/analysis/collectives/collectivewait.h"
#include "core/analysis/phases/phasesummary.h"
#include "core/common/bytefields.h"
#include "core/trace/read/reportsource.h"

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
DeviceBusyPyramids busyPyramids(const trace::EventStore &store, std::vector<Interval> wholeBusy)
{
    const std::set<uint32_t> ids = gpuDevices(store);
    std::vector<DeviceBusy> devices;
    if (ids.size() == 1)
        devices.emplace_back(*ids.begin(), std::move(wholeBusy));
    else
        devices = deviceBusy(store);
    DeviceBusyPyramids out;
    for (const DeviceBusy &d : devices) {
        const auto &busy = d.intervals();
        trace::LodPyramidBuilder b(busy.empty() ? 0 : busy.front().start, busy.empty() ? 0 : busy.back().end,
                                   busy.size());
        for (const Interval &i : busy)
            b.add(i.start, i.end, trace::kNoName);
        out.push_back({d.device(), b.finish()});
    }
    return out;
}

std::optional<DeviceBusyPyramids> computeBusy(const trace::Report &, const trace::EventStore &events,
                                              const core::CancelToken *cancel, std::string &)
{
    std::vector<Interval> busy;
    computeBreakdownDirect(events, WorkClassTable(events), {}, cancel, &busy);
    return busyPyramids(events, std::move(busy));
}

std::string encodeBusy(const DeviceBusyPyramids &devices)
{
    std::string out;
    appendField(out, uint64_t(devices.size()));
    for (const DeviceBusyPyramid &d : devices) {
        appendField(out, uint64_t(d.device));
        trace::appendPyramid(out, d.pyramid);
    }
    return out;
}

bool decodeBusy(std::string_view bytes, DeviceBusyPyramids &out, std::string &why)
{
    size_t pos = 0;
    const auto take = [&](uint64_t &v) { return takeField(bytes, pos, v); };
    uint64_t count = 0;
    if (!take(count) || count > 4096) {
        why = "its device count is out of range";
        return false;
    }
    for (uint64_t i = 0; i < count; ++i) {
        uint64_t device = 0;
        DeviceBusyPyramid d;
        if (!take(device) || !trace::readPyramid(bytes, pos, d.pyramid, why)) {
            why = why.empty() ? "a device entry is cut short" : why;
            return false;
        }
        d.device = uint32_t(device);
        out.push_back(std::move(d));
    }
    return true;
}

std::optional<GpuBreakdown> computeWhole(const trace::Report &, const trace::EventStore &events,
                                         const core::CancelToken *cancel, std::string &)
{
    return computeBreakdown(events, {}, cancel);
}

} // namespace

void addDigestSummaries(const trace::Report &report, trace::DigestOptions &options)
{
    options.deferredSections.push_back([&report] { // made while the digest compresses the events
        std::vector<Interval> busy;
        const WorkClassTable classes(*report.store);
        const GpuBreakdown whole = computeBreakdownDirect(*report.store, classes, {}, nullptr, &busy);
        const CollectiveSummary collectives =
            collectiveSummaryOf(*report.store, classes, {}).value_or(CollectiveSummary{});
        std::string memoryError; // a snapshot that cannot be read again: its lanes' peaks only
        const MemorySummary memory =
            computeMemorySummary(report, *report.store, nullptr, memoryError).value_or(MemorySummary{});
        return std::vector<trace::DigestSection>{
            phaseSummarySection(report),
            {std::string(kWholeBreakdown.tag), kWholeBreakdown.encode(whole)},
            {std::string(kDeviceBusy.tag), kDeviceBusy.encode(busyPyramids(*report.store, std::move(busy))), true},
            {std::string(kCollectiveSummary.tag), kCollectiveSummary.encode(collectives), true},
            {std::string(kMemorySummary.tag), kMemorySummary.encode(memory), true}};
    });
}

std::string writeDigestWithSummaries(const trace::Report &report, const std::string &path, trace::DigestOptions options)
{
    addDigestSummaries(report, options);
    return trace::writeDigest(report, path, options);
}

const trace::SummaryKind<GpuBreakdown> kWholeBreakdown{kBreakdownTag,    "GPU breakdown",  &computeWhole,
                                                       &encodeBreakdown, &decodeBreakdown, &accumulate};
const trace::SummaryKind<DeviceBusyPyramids> kDeviceBusy{kDeviceBusyTag, "device busy pyramids", &computeBusy,
                                                         &encodeBusy, &decodeBusy};

std::optional<GpuBreakdown> wholeBreakdown(const trace::Report &report, std::string &error,
                                           const core::CancelToken *cancel)
{
    const auto b = trace::summaryOf(report, kWholeBreakdown, error, cancel);
    if (!b && cancel && cancel->cancelled()) { // as computeBreakdown() answers when cancelled
        GpuBreakdown c;
        c.cancelled = true;
        return c;
    }
    return b ? std::optional<GpuBreakdown>(*b) : std::nullopt;
}

std::vector<DeviceBusyPyramid> deviceBusyPyramids(const trace::Report &report, std::string &error)
{
    const trace::ReportOutline *o = trace::digestOutlineOf(report);
    if (o && !o->stored(kDeviceBusy.tag))
        return {}; // a digest made without them: utilization comes from the tracks' extents
    return trace::readSummary(report, kDeviceBusy, error).value_or(DeviceBusyPyramids{});
}

} // namespace ps::core::analysis
