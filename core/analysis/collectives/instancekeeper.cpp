#include "core/analysis/collectives/instancekeeper.h"

#include <algorithm>

namespace ps::core::analysis::detail {

namespace {

// The heap order of InstanceKeeper's worst: its top is the least bad kept (smallest skew, and of
// equal skews the one matched last).
bool lessBad(const std::pair<size_t, CollectiveInstance> &x, const std::pair<size_t, CollectiveInstance> &y)
{
    return x.second.skewNs != y.second.skewNs ? x.second.skewNs > y.second.skewNs : x.first < y.first;
}

} // namespace

template <typename Make> void InstanceKeeper::offer(size_t position, bool complete, int64_t skewNs, Make make)
{
    using Keep = CollectiveQuery::Keep;
    if (m_query.keep == Keep::All) {
        m_kept.emplace_back(position, make());
        return;
    }
    if (!complete) {
        if (m_incomplete++ < m_query.worst)
            m_kept.emplace_back(position, make());
        return;
    }
    if (m_query.worst == 0)
        return;
    if (m_worst.size() == m_query.worst) {
        if (skewNs <= m_worst.front().second.skewNs) // ties: the one matched first stays
            return;
        std::pop_heap(m_worst.begin(), m_worst.end(), lessBad);
        m_worst.pop_back();
    }
    m_worst.emplace_back(position, make());
    std::push_heap(m_worst.begin(), m_worst.end(), lessBad);
}

void InstanceKeeper::instance(const MatchedInstance &inst)
{
    if (!selectedBy(m_query, inst))
        return;
    offer(inst.position, inst.complete(), inst.skewNs, [&] { return makeInstance(inst); });
}

void InstanceKeeper::block(const InstanceBlock &b)
{
    selectIn(m_query, b, m_selected);
    for (size_t k = 0; k < b.count; ++k)
        if (m_selected[k])
            offer(b.firstPosition + k, true, b.skew[k], [&] { return makeInstance(b, k); });
}

std::vector<CollectiveInstance> InstanceKeeper::take()
{
    for (auto &w : m_worst)
        m_kept.push_back(std::move(w));
    m_worst.clear();
    std::sort(m_kept.begin(), m_kept.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
    std::vector<CollectiveInstance> out;
    out.reserve(m_kept.size());
    for (auto &k : m_kept)
        out.push_back(std::move(k.second));
    m_kept.clear();
    return out;
}

} // namespace ps::core::analysis::detail
