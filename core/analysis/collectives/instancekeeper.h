#pragma once
// The sink behind CollectiveAnalysis::instances: the instances a query keeps (all, or the worst
// by skew), made only for those it keeps.

#include "core/analysis/collectives/collectivesink.h"

#include <utility>
#include <vector>

namespace ps::core::analysis::detail {

// The instances the query keeps, as CollectiveInstance, in match order.
class InstanceKeeper : public InstanceSink
{
public:
    explicit InstanceKeeper(const CollectiveQuery &query) : m_query(query) {}
    void instance(const MatchedInstance &inst) override;
    void block(const InstanceBlock &b) override;
    std::vector<CollectiveInstance> take();

private:
    // Keeps an instance made by `make` when the query asks for it.
    template <typename Make> void offer(size_t position, bool complete, int64_t skewNs, Make make);
    const CollectiveQuery &m_query;
    std::vector<std::pair<size_t, CollectiveInstance>> m_kept; // (position, instance)
    // CollectiveQuery::Keep::Worst: a min-heap of the complete ones by (skew, -position)
    std::vector<std::pair<size_t, CollectiveInstance>> m_worst;
    size_t m_incomplete = 0;
    std::vector<uint8_t> m_selected; // the block's instances the filter accepts (kept between blocks)
};

} // namespace ps::core::analysis::detail
