#include "core/analysis/breakdown/devicebusy.h"

#include "core/common/canceltoken.h"
#include "core/trace/store/report.h"

#include <map>

namespace ps::core::analysis {

DeviceBusy::DeviceBusy(uint32_t device, std::vector<Interval> busy) : m_device(device), m_busy(std::move(busy))
{
    m_before.reserve(m_busy.size());
    int64_t sum = 0;
    for (const Interval &iv : m_busy) {
        m_before.push_back(sum);
        sum += iv.end - iv.start;
    }
}

int64_t DeviceBusy::busyBefore(int64_t t) const
{
    // The last interval starting before t; its part before t counts.
    auto it =
        std::upper_bound(m_busy.begin(), m_busy.end(), t, [](int64_t v, const Interval &iv) { return v < iv.start; });
    if (it == m_busy.begin())
        return 0;
    const size_t i = size_t(it - m_busy.begin()) - 1;
    return m_before[i] + (std::min(t, m_busy[i].end) - m_busy[i].start);
}

int64_t DeviceBusy::Cursor::busyBefore(int64_t t)
{
    const std::vector<Interval> &v = m_busy.m_busy;
    const auto startsAfter = [t](const Interval &iv) { return iv.start > t; };
    // Gallop forward from m_next to bracket the first interval starting after t, then bisect.
    size_t lo = m_next, step = 1;
    while (lo + step < v.size() && !startsAfter(v[lo + step])) {
        lo += step;
        step *= 2;
    }
    const size_t hi = std::min(v.size(), lo + step + 1);
    if (lo < v.size() && startsAfter(v[lo]))
        m_next = lo;
    else
        m_next = size_t(std::partition_point(v.begin() + std::ptrdiff_t(lo), v.begin() + std::ptrdiff_t(hi),
                                             [&](const Interval &iv) { return !startsAfter(iv); }) -
                        v.begin());
    if (m_next == 0)
        return 0;
    const size_t i = m_next - 1;
    return m_busy.m_before[i] + (std::min(t, v[i].end) - v[i].start);
}

std::vector<DeviceBusy> deviceBusy(const trace::EventStore &store, const core::CancelToken *cancel)
{
    struct Runs
    {
        std::vector<Interval> all;
        std::vector<size_t> bounds{0};
    };
    std::map<uint32_t, Runs> byDevice;
    std::map<uint32_t, size_t> events; // one allocation per device, not a doubling series
    for (const trace::Track &t : store.tracks())
        if (trace::isGpuKind(t.kind()))
            events[t.deviceId()] += t.size();
    for (const auto &[device, n] : events)
        byDevice[device].all.reserve(n);
    for (const trace::Track &t : store.tracks()) {
        if (!trace::isGpuKind(t.kind()) || t.empty())
            continue;
        if (cancel && cancel->cancelled())
            return {};
        Runs &r = byDevice[t.deviceId()];
        const size_t begin = r.all.size();
        for (size_t i = 0; i < t.size(); ++i) // a track is in start order: one union per track
            appendToUnion(r.all, begin, t.start(i), t.end(i));
        r.bounds.push_back(r.all.size());
    }
    std::vector<DeviceBusy> out;
    for (auto &[device, r] : byDevice)
        out.emplace_back(device, unionOfRuns(std::move(r.all), r.bounds));
    return out;
}

} // namespace ps::core::analysis
