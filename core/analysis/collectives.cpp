#include "core/analysis/collectives.h"

#include "core/analysis/collectiveinput.h"
#include "core/analysis/collectivekinds.h"
#include "core/analysis/collectivesink.h"
#include "core/analysis/median.h"
#include "core/trace/tracereader.h"

#include <algorithm>
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

void detail::addToTotals(CollectiveRankTotals &t, const CollectiveMember &m, const CollectiveInstance &inst)
{
    t.rank = m.rank;
    ++t.collectives;
    t.waitNs += m.waitNs;
    t.transferNs += (m.endNs - m.startNs) - m.waitNs; // its time in the kernel after the last arrival
    if (m.rank == inst.lastRank) {
        ++t.arrivedLast;
        for (const CollectiveMember &other : inst.members)
            t.waitCausedNs += other.waitNs;
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

CollectiveGroupSummary summarizeGroup(std::span<const CollectiveInstance *const> instances)
{
    CollectiveGroupSummary g;
    if (instances.empty())
        return g;
    g.group = instances.front()->group;
    g.groupDesc = instances.front()->groupDesc;
    g.method = instances.front()->method;
    std::vector<double> busbw;
    std::map<int, size_t> lastCounts;
    for (const CollectiveInstance *inst : instances) {
        ++g.instances;
        if (!inst->complete)
            continue;
        ++g.complete;
        g.transferNs += inst->transferNs;
        for (const CollectiveMember &m : inst->members)
            g.waitNs += m.waitNs;
        if (inst->busbwGBps)
            busbw.push_back(*inst->busbwGBps);
        ++lastCounts[inst->lastRank];
    }
    g.medianBusbwGBps = median(std::move(busbw));
    std::tie(g.mostOftenLast, g.timesLast) = detail::mostOftenLast(lastCounts);
    g.ranks = totalsPerRank(instances);
    return g;
}

std::vector<CollectiveRankTotals> totalsPerRank(std::span<const CollectiveInstance *const> instances)
{
    // Ranks are small numbers: a slot per rank up to the highest (a map past a sane bound).
    constexpr int kDenseRanks = 1 << 22;
    int highest = -1;
    for (const CollectiveInstance *inst : instances)
        if (inst->complete)
            for (const CollectiveMember &m : inst->members)
                highest = std::max(highest, m.rank);
    std::vector<CollectiveRankTotals> dense(highest >= 0 && highest < kDenseRanks ? size_t(highest) + 1 : 0);
    std::map<int, CollectiveRankTotals> sparse;
    for (const CollectiveInstance *inst : instances) {
        if (!inst->complete)
            continue;
        for (const CollectiveMember &m : inst->members)
            detail::addToTotals(m.rank >= 0 && size_t(m.rank) < dense.size() ? dense[size_t(m.rank)] : sparse[m.rank],
                                m, *inst);
    }
    std::vector<CollectiveRankTotals> out;
    for (const CollectiveRankTotals &t : dense)
        if (t.rank >= 0)
            out.push_back(t);
    for (auto &[rank, t] : sparse)
        out.push_back(t);
    std::sort(out.begin(), out.end(), [](const auto &x, const auto &y) { return x.rank < y.rank; });
    return out;
}

CollectiveAnalysis detail::matchCollectives(std::vector<ReportCollectives> &reports, std::span<const int64_t> offsets,
                                            const CollectiveQuery &query, std::span<InstanceSink *const> extra,
                                            const trace::CancelToken *cancel)
{
    detail::CollectiveInput in = detail::gatherCollectives(reports, offsets, cancel);
    detail::GroupTotals totals(query);
    detail::InstanceKeeper keeper(query);
    std::vector<InstanceSink *> sinks{&keeper};
    if (query.totals)
        sinks.push_back(&totals);
    sinks.insert(sinks.end(), extra.begin(), extra.end());
    detail::matchInstances(in, sinks, cancel, query.inBlocks);
    CollectiveAnalysis a;
    a.notes = std::move(in.notes);
    a.errors = std::move(in.errors);
    a.reportRanks = std::move(in.reportRanks);
    a.instances = keeper.take();
    a.instanceCount = totals.instances();
    a.completeCount = totals.complete();
    a.groups = totals.take();
    a.cancelled = cancel && cancel->cancelled();
    a.ranks = detail::sumTotals(a.groups); // the groups hold every instance once
    return a;
}

CollectiveAnalysis analyzeCollectives(std::span<const trace::ReportPtr> reports, std::span<const int64_t> offsets,
                                      const trace::CancelToken *cancel, int threads, const CollectiveQuery &query)
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
