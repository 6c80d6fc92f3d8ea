#include "views/overview/overviewdata.h"

#include "core/common/canceltoken.h"

#include <algorithm>
#include <cmath>

namespace ps::views {

using core::trace::LodLevel;
using core::trace::LodPyramid;

namespace {

// Bins of one row on the report's own clock: bin b is [start(b), start(b + 1)).
struct Bins
{
    int64_t first = 0; // own-clock start of bin 0
    int64_t span = 1;  // of all bins
    int count = 0;
    int64_t start(int b) const { return first + span * b / count; }
    // The bin holding own time t, clamped to [0, count).
    int at(int64_t t) const
    {
        const int64_t b = (t - first) * count / span;
        return int(std::clamp<int64_t>(b, 0, count - 1));
    }
};

// Adds a device's busy ns per bin from its pyramid: each run's busy time spread evenly over the
// run, at the coarsest level still finer than a bin.
void addPyramid(const LodPyramid &pyramid, const Bins &bins, std::vector<double> &busy)
{
    const LodLevel *level = pyramid.levelFor(double(bins.span) / bins.count);
    if (!level)
        level = pyramid.finest();
    if (!level)
        return;
    for (const core::trace::LodRun &run : level->runs) {
        if (run.end <= bins.first || run.start >= bins.first + bins.span || run.busy <= 0)
            continue;
        const double perNs = double(run.busy) / double(std::max<int64_t>(1, run.end - run.start));
        for (int b = bins.at(run.start); b < bins.count && bins.start(b) < run.end; ++b) {
            const int64_t lo = std::max(run.start, bins.start(b)), hi = std::min(run.end, bins.start(b + 1));
            if (hi > lo)
                busy[size_t(b)] += perNs * double(hi - lo);
        }
    }
}

void addDevice(const core::analysis::DeviceBusy &device, const Bins &bins, std::vector<double> &busy)
{
    core::analysis::DeviceBusy::Cursor cursor(device);
    int64_t before = cursor.busyBefore(bins.start(0));
    for (int b = 0; b < bins.count; ++b) {
        const int64_t after = cursor.busyBefore(bins.start(b + 1));
        busy[size_t(b)] += double(after - before);
        before = after;
    }
}

OverviewRow rowOf(const TimelineScene &scene, int entry, const OverviewData &data)
{
    const TimelineEntry &e = scene.entries[size_t(entry)];
    const PreparedReport &r = *e.report;
    OverviewRow row;
    row.entry = entry;
    row.label = e.label;
    row.busy.assign(size_t(data.bins), -1.f);
    const Bins bins{data.extent.start - e.offset, data.extent.duration(), data.bins};
    std::vector<double> busy(size_t(data.bins), 0.0);
    int devices = 0;
    if (r.isOutline()) {
        if (const auto drawing = r.pyramidDrawing(OutlinePart::Busy))
            for (const LodPyramid &p : drawing->busy) {
                addPyramid(p, bins, busy);
                ++devices;
            }
    } else {
        for (const core::analysis::DeviceBusy &d : r.deviceBusy()) {
            addDevice(d, bins, busy);
            ++devices;
        }
    }
    if (devices == 0)
        return row;
    const int64_t first = r.firstStart(), last = r.lastEnd();
    double total = 0;
    for (int b = 0; b < data.bins; ++b) {
        const int64_t lo = bins.start(b), hi = bins.start(b + 1);
        total += busy[size_t(b)];
        if (hi > first && lo < last && hi > lo)
            row.busy[size_t(b)] = float(std::min(1.0, busy[size_t(b)] / double(devices) / double(hi - lo)));
    }
    if (last > first)
        row.meanBusy = std::min(1.0, total / double(devices) / double(last - first));
    return row;
}

} // namespace

std::vector<int> robustOutliers(const std::vector<double> &values, double minGap)
{
    std::vector<double> known;
    for (double v : values)
        if (v >= 0)
            known.push_back(v);
    if (known.size() < 3)
        return {};
    auto median = [](std::vector<double> v) {
        std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    const double med = median(known);
    for (double &v : known)
        v = std::abs(v - med);
    const double limit = std::max(minGap, 3.5 * 1.4826 * median(known));
    std::vector<int> out;
    for (size_t i = 0; i < values.size(); ++i)
        if (values[i] >= 0 && std::abs(values[i] - med) > limit)
            out.push_back(int(i));
    std::sort(out.begin(), out.end(),
              [&](int a, int b) { return std::abs(values[size_t(a)] - med) > std::abs(values[size_t(b)] - med); });
    return out;
}

OverviewData computeOverview(const TimelineScene &scene, int bins, const core::CancelToken *cancel)
{
    OverviewData data;
    data.extent = scene.extent();
    data.bins = std::max(1, bins);
    std::vector<double> means;
    for (size_t i = 0; i < scene.entries.size(); ++i) {
        if (cancel && cancel->cancelled()) {
            data.cancelled = true;
            return data;
        }
        data.rows.push_back(rowOf(scene, int(i), data));
        means.push_back(data.rows.back().meanBusy);
    }
    data.outliers = robustOutliers(means, 0.05);
    return data;
}

} // namespace ps::views
