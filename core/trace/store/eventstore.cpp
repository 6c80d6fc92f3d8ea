#include "core/trace/store/eventstore.h"

#include <algorithm>
#include <limits>
#include <mutex>
#include <utility>

namespace ps::core::trace {

struct EventStore::DerivedData
{
    std::mutex mutex;
    std::vector<std::pair<const void *, std::shared_ptr<const void>>> byKey;
};

EventStore::EventStore() : m_derived(std::make_shared<DerivedData>())
{
}

EventStore::EventStore(StoreParts parts) : m_p(std::move(parts)), m_derived(std::make_shared<DerivedData>())
{
    int64_t first = std::numeric_limits<int64_t>::max(), last = std::numeric_limits<int64_t>::min();
    for (const Track &t : m_p.tracks) {
        m_counts[size_t(t.kind())] += t.size();
        m_total += t.size();
        if (!t.empty()) {
            first = std::min(first, t.firstStart());
            last = std::max(last, t.lastEnd());
        }
    }
    if (m_total > 0) {
        m_first = first;
        m_last = last;
    }
}

std::shared_ptr<const void> EventStore::derived(const void *key,
                                                const std::function<std::shared_ptr<const void>()> &make) const
{
    // One lock for every key: an analysis waiting for another's index is rare and brief next
    // to what computing either costs.
    std::lock_guard lock(m_derived->mutex);
    for (const auto &[k, value] : m_derived->byKey)
        if (k == key)
            return value;
    std::shared_ptr<const void> value = make();
    if (value)
        m_derived->byKey.emplace_back(key, value);
    return value;
}

NameId EventStore::threadName(uint32_t pid, uint32_t tid) const
{
    const auto &th = m_p.threads;
    auto it = std::lower_bound(th.begin(), th.end(), std::pair{pid, tid}, [](const ThreadInfo &t, auto key) {
        return std::pair{t.pid, t.tid} < key;
    });
    return (it != th.end() && it->pid == pid && it->tid == tid) ? it->name : kNoName;
}

NameId EventStore::shortNameOf(NameId full) const
{
    const auto &sn = m_p.shortNames;
    auto it = std::lower_bound(sn.begin(), sn.end(), full, [](const ShortName &s, NameId v) { return s.full < v; });
    return (it != sn.end() && it->full == full) ? it->shortName : full;
}

std::optional<LaunchConfig> EventStore::launchConfigOf(EventRef kernel) const
{
    if (kernel.track >= m_p.tracks.size())
        return std::nullopt;
    const Track &t = m_p.tracks[kernel.track];
    if (t.kind() != TrackKind::Kernel || kernel.index >= t.size())
        return std::nullopt;
    const uint16_t idx = t.attr(kernel.index);
    if (idx >= m_p.launchConfigs.size())
        return std::nullopt;
    return m_p.launchConfigs[idx];
}

namespace {
// Indices of events of `t` whose aux equals `corr`.
template <typename F> void forEachWithAux(const Track &t, uint32_t corr, F f)
{
    if (t.auxSorted()) {
        const auto aux = t.columns().aux;
        auto lo = std::lower_bound(aux.begin(), aux.end(), corr);
        for (auto it = lo; it != aux.end() && *it == corr; ++it)
            f(size_t(it - aux.begin()));
    } else {
        for (size_t i = 0; i < t.size(); ++i)
            if (t.aux(i) == corr)
                f(i);
    }
}
} // namespace

std::optional<EventRef> EventStore::apiCallFor(EventRef gpuEvent) const
{
    if (gpuEvent.track >= m_p.tracks.size())
        return std::nullopt;
    const Track &g = m_p.tracks[gpuEvent.track];
    if (!isGpuKind(g.kind()) || gpuEvent.index >= g.size())
        return std::nullopt;
    const uint32_t corr = g.aux(gpuEvent.index);
    if (corr == 0)
        return std::nullopt;
    for (uint32_t ti = 0; ti < m_p.tracks.size(); ++ti) {
        const Track &t = m_p.tracks[ti];
        if (t.kind() != TrackKind::CudaApi || t.pid() != g.pid())
            continue;
        std::optional<EventRef> found;
        forEachWithAux(t, corr, [&](size_t i) {
            if (!found)
                found = EventRef{ti, uint32_t(i)};
        });
        if (found)
            return found;
    }
    return std::nullopt;
}

std::vector<EventRef> EventStore::gpuWorkFor(EventRef apiCall) const
{
    std::vector<EventRef> out;
    if (apiCall.track >= m_p.tracks.size())
        return out;
    const Track &a = m_p.tracks[apiCall.track];
    if (a.kind() != TrackKind::CudaApi || apiCall.index >= a.size())
        return out;
    const uint32_t corr = a.aux(apiCall.index);
    if (corr == 0)
        return out;
    for (uint32_t ti = 0; ti < m_p.tracks.size(); ++ti) {
        const Track &t = m_p.tracks[ti];
        if (isGpuKind(t.kind()) && t.pid() == a.pid())
            forEachWithAux(t, corr, [&](size_t i) { out.push_back({ti, uint32_t(i)}); });
    }
    return out;
}

std::vector<uint32_t> EventStore::tracksOfKind(TrackKind kind) const
{
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < m_p.tracks.size(); ++i)
        if (m_p.tracks[i].kind() == kind)
            out.push_back(i);
    return out;
}

} // namespace ps::core::trace
