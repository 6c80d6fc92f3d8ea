#pragma once
// The sink behind CollectiveAnalysis::groups: per communicator, the group summary of the
// instances a query selects, summed as the matcher hands them over.

#include "core/analysis/collectives/collectivesink.h"

#include <map>
#include <vector>

namespace ps::core::analysis::detail {

// Per communicator, the group summary (CollectiveGroupSummary) of the instances `select` accepts;
// a communicator none of whose instances is accepted has no row unless nothing is filtered.
class GroupTotals : public InstanceSink
{
public:
    explicit GroupTotals(const CollectiveQuery &query) : m_query(query) {}
    void instance(const MatchedInstance &inst) override;
    void block(const InstanceBlock &b) override;
    void communicatorEnds(const Communicator &c, MatchMethod method) override;
    std::vector<CollectiveGroupSummary> take() { return std::move(m_groups); }

private:
    CollectiveRankTotals &totalsOf(int rank);
    void addComplete(int64_t transferNs, double busbw);
    const CollectiveQuery &m_query;
    std::vector<uint8_t> m_selected; // per block instance
    std::vector<CollectiveGroupSummary> m_groups;
    CollectiveGroupSummary m_current;
    std::vector<double> m_busbw;
    std::vector<CollectiveRankTotals> m_dense; // by rank; ranks past kDenseRanks go to m_sparse
    std::map<int, CollectiveRankTotals> m_sparse;
    std::map<int, size_t> m_lastCounts;
};

} // namespace ps::core::analysis::detail
