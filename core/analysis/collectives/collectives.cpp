#include "core/analysis/collectives/collectives.h"
#include "core/analysis/collectives/collectiveextract.h"
#include "core/analysis/collectives/collectivematch.h"
#include "core/analysis/collectives/grouptotals.h"
#include "core/analysis/collectives/instancekeeper.h"

#include "core/analysis/collectives/collectiveinput.h"
#include "core/analysis/collectives/collectivekinds.h"
#include "core/analysis/collectives/collectivesink.h"
#include "core/common/canceltoken.h"
#include "core/common/median.h"
#include "core/trace/store/report.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <tuple>

namespace ps::core::analysis {

using detail::InstanceSink;

std::string_view matchMethodName(MatchMethod m)
{
    switch (m) {
    case MatchMethod::Sequence:
        return "kineto-seq";
    case MatchMethod::GroupOrder:
        return "kineto-pg-index";
    case MatchMethod::StreamOrder:
        return "stream-order";
    case MatchMethod::HcclGroup:
        return "hccl-group";
    case MatchMethod::NvtxPayload:
        return "nvtx-payload";
    }
    return "";
}

void detail::addMember(CollectiveRankTotals &t, int rank, int64_t waitNs, int64_t kernelNs, bool arrivedLast,
                       int64_t instanceWaitsNs)
{
    t.rank = rank;
    ++t.collectives;
    t.waitNs += waitNs;
    t.transferNs += kernelNs - waitNs; // its time in the kernel after the last arrival
    if (arrivedLast) {
        ++t.arrivedLast;
        t.waitCausedNs += instanceWaitsNs;
    }
}

std::vector<CollectiveRankTotals> detail::sumTotals(std::span<const CollectiveGroupSummary> groups)
{
    std::map<int, CollectiveRankTotals> byRank;
    for (const CollectiveGroupSummary &g : groups)
        for (const CollectiveRankTotals &t : g.ranks) {
            CollectiveRankTotals &sum = byRank[t.rank];
            sum.rank = t.rank;
            sum.collectives += t.collectives;
            sum.waitNs += t.waitNs;
            sum.transferNs += t.transferNs;
            sum.arrivedLast += t.arrivedLast;
            sum.waitCausedNs += t.waitCausedNs;
        }
    std::vector<CollectiveRankTotals> out;
    out.reserve(byRank.size());
    for (auto &[rank, t] : byRank)
        out.push_back(t);
    return out;
}

std::pair<int, size_t> detail::mostOftenLast(const std::map<int, size_t> &lastCounts)
{
    int best = -1;
    size_t most = 0;
    bool tie = false;
    for (const auto &[rank, n] : lastCounts) {
        if (n > most) {
            best = rank;
            most = n;
            tie = false;
        } else if (n == most) {
            tie = true;
        }
    }
    return tie ? std::pair{-1, most} : std::pair{best, most};
}

namespace {
std::atomic<uint64_t> g_matchPasses{0};
} // namespace

uint64_t collectiveMatchPasses()
{
    return g_matchPasses.load(std::memory_order_relaxed);
}

CollectiveAnalysis detail::matchCollectives(std::vector<ReportCollectives> &reports, std::span<const int64_t> offsets,
                                            const CollectiveQuery &query, std::span<InstanceSink *const> extra,
                                            const core::CancelToken *cancel)
{
    g_matchPasses.fetch_add(1, std::memory_order_relaxed);
    detail::CollectiveInput in = detail::gatherCollectives(reports, offsets, cancel);
    detail::GroupTotals totals(query);
    detail::InstanceKeeper keeper(query);
    std::vector<InstanceSink *> sinks;
    if (query.keep != CollectiveQuery::Keep::None)
        sinks.push_back(&keeper);
    if (query.totals)
        sinks.push_back(&totals);
    sinks.insert(sinks.end(), extra.begin(), extra.end());
    detail::matchInstances(in, sinks, cancel, query.inBlocks);
    CollectiveAnalysis a;
    a.notes = std::move(in.notes);
    a.errors = std::move(in.errors);
    a.reportRanks = std::move(in.reportRanks);
    a.instances = keeper.take();
    a.groups = totals.take();
    for (const CollectiveGroupSummary &g : a.groups) {
        a.instanceCount += g.instances;
        a.completeCount += g.complete;
    }
    a.cancelled = cancel && cancel->cancelled();
    a.ranks = detail::sumTotals(a.groups); // the groups hold every instance once
    return a;
}

CollectiveAnalysis analyzeCollectives(std::span<const trace::ReportPtr> reports, std::span<const int64_t> offsets,
                                      const core::CancelToken *cancel, int threads, const CollectiveQuery &query)
{
    std::vector<detail::ReportCollectives> extracted = detail::extractAll(reports, cancel, threads);
    return detail::matchCollectives(extracted, offsets, query, {}, cancel);
}

int64_t medianWaitNs(const CollectiveInstance &inst)
{
    std::vector<int64_t> w;
    for (const CollectiveMember &m : inst.members)
        if (m.rank != inst.lastRank)
            w.push_back(m.waitNs);
    if (w.empty())
        return 0;
    std::nth_element(w.begin(), w.begin() + std::ptrdiff_t(w.size() / 2), w.end());
    return w[w.size() / 2];
}

} // namespace ps::core::analysis
