#include "core/analysis/breakdown/kerneltypes.h"

#include "core/analysis/breakdown/workunions.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ps::core::analysis {

using trace::EventStore;
using trace::Track;

namespace {

std::vector<KernelTypeRow> typeRows(const WorkUnions &u)
{
    // MEMORY is memcpy and memset together.
    const auto &copies = u.byClass[size_t(GpuWork::Memcpy)];
    const auto &sets = u.byClass[size_t(GpuWork::Memset)];
    std::vector<Interval> both(copies);
    both.insert(both.end(), sets.begin(), sets.end());
    const size_t bounds[] = {0, copies.size(), both.size()};
    std::vector<Interval> memory = copies.empty() || sets.empty() ? both : unionOfRuns(both, bounds);
    const std::span<const Interval> lists[] = {u.byClass[size_t(GpuWork::Compute)],
                                               u.byClass[size_t(GpuWork::Communication)], memory};
    std::array<KernelTypeRow, 8> rows{};
    std::array<bool, 8> seen{};
    sweepUnions(std::span<const std::span<const Interval>>(lists), [&](uint32_t mask, int64_t s, int64_t e) {
        rows[mask].ns += e - s;
        rows[mask].truncatedUs += (e - s) / 1000;
        seen[mask] = true;
    });
    std::vector<KernelTypeRow> out;
    for (uint32_t m = 1; m < 8; ++m)
        if (seen[m]) {
            rows[m].label = htaOverlapLabel(m);
            out.push_back(rows[m]);
        }
    std::stable_sort(out.begin(), out.end(),
                     [](const KernelTypeRow &a, const KernelTypeRow &b) { return a.ns > b.ns; });
    return out;
}

struct NameAccumulator
{
    uint64_t count = 0;
    int64_t sum = 0, min = INT64_MAX, max = INT64_MIN;
    double sumSquares = 0;
};

bool accumulateNames(const EventStore &store, const WorkClassTable &classes, const BreakdownFilter &filter,
                     std::map<std::pair<HtaKernelType, std::string>, NameAccumulator> &acc,
                     const core::CancelToken *cancel)
{
    for (const Track &t : store.tracks()) {
        if (!trace::isGpuKind(t.kind()) || (filter.device && t.deviceId() != *filter.device) ||
            (filter.stream && t.streamId() != *filter.stream))
            continue;
        if (cancel && cancel->cancelled())
            return false;
        for (size_t i = 0; i < t.size(); ++i) {
            if (filter.window && (t.start(i) < filter.window->start || t.start(i) >= filter.window->end))
                continue;
            const HtaKernelType type = htaKernelType(classes.of(t, i));
            if (type == HtaKernelType::Other)
                continue;
            NameAccumulator &a = acc[{type, std::string(store.name(t.name(i)))}];
            const int64_t d = t.duration(i);
            ++a.count;
            a.sum += d;
            a.min = std::min(a.min, d);
            a.max = std::max(a.max, d);
            a.sumSquares += double(d) * double(d);
        }
    }
    return true;
}

} // namespace

std::string htaOverlapLabel(uint32_t typeMask)
{
    std::string label;
    for (HtaKernelType t : {HtaKernelType::Computation, HtaKernelType::Communication, HtaKernelType::Memory}) {
        if (!(typeMask & (1u << size_t(t))))
            continue;
        if (!label.empty())
            label += " overlapping ";
        label += htaKernelTypeName(t);
    }
    return label;
}

KernelBreakdown kernelBreakdown(const EventStore &store, const BreakdownFilter &filter, const core::CancelToken *cancel)
{
    KernelBreakdown out;
    const WorkClassTable classes(store);
    std::optional<WorkUnions> u = gpuWorkUnions(store, classes, filter, cancel);
    std::map<std::pair<HtaKernelType, std::string>, NameAccumulator> acc;
    if (!u || !accumulateNames(store, classes, filter, acc, cancel)) {
        out.cancelled = true;
        return out;
    }
    out.types = typeRows(*u);
    for (const auto &[key, a] : acc) {
        KernelNameRow r{key.first, key.second, a.count, a.sum, a.min, a.max, double(a.sum) / double(a.count), 0};
        if (a.count > 1) {
            const double var = (a.sumSquares - double(a.sum) * r.meanNs) / double(a.count - 1);
            r.stddevNs = std::sqrt(std::max(0.0, var));
        }
        out.kernels.push_back(std::move(r));
    }
    return out;
}

} // namespace ps::core::analysis
