#include "core/analysis/collectives/grouptotals.h"

#include "core/common/median.h"
#include <algorithm>

namespace ps::core::analysis::detail {

namespace {

// Ranks are small numbers: a slot per rank below this, a map past it.
constexpr int kDenseRanks = 1 << 20;

} // namespace

CollectiveRankTotals &GroupTotals::totalsOf(int rank)
{
    if (rank < 0 || rank >= kDenseRanks)
        return m_sparse[rank];
    if (size_t(rank) >= m_dense.size())
        m_dense.resize(size_t(rank) + 1);
    return m_dense[size_t(rank)];
}

// A complete instance's own figures (its members' and its last rank are counted by the caller).
void GroupTotals::addComplete(int64_t transferNs, double busbw)
{
    ++m_current.instances;
    ++m_current.complete;
    m_current.transferNs += transferNs;
    if (busbw >= 0)
        m_busbw.push_back(busbw);
}

void GroupTotals::instance(const MatchedInstance &inst)
{
    if (!selectedBy(m_query, inst))
        return;
    if (!inst.complete()) {
        ++m_current.instances;
        return;
    }
    addComplete(inst.transferNs, inst.busbwGBps.value_or(-1.0));
    ++m_lastCounts[inst.lastRank];
    int64_t waits = 0;
    for (const Arrival &a : inst.members)
        waits += inst.waitOf(a);
    m_current.waitNs += waits;
    for (const Arrival &a : inst.members)
        addMember(totalsOf(a.rank), a.rank, inst.waitOf(a), a.o.end - a.o.start, a.rank == inst.lastRank, waits);
}

// A rank at a time: each member's totals over the block's instances.
void GroupTotals::block(const InstanceBlock &b)
{
    selectIn(m_query, b, m_selected);
    std::vector<size_t> lastCounts(b.ranks.size(), 0);
    for (size_t k = 0; k < b.count; ++k)
        if (m_selected[k]) {
            addComplete(b.transfer[k], b.busbw[k]);
            m_current.waitNs += b.waits[k];
            ++lastCounts[b.lastMember[k]];
        }
    for (size_t m = 0; m < b.ranks.size(); ++m) {
        CollectiveRankTotals &t = totalsOf(b.ranks[m]);
        const size_t at = b.at(m, 0);
        const int64_t *__restrict start = &b.start[at], *__restrict end = &b.end[at], *__restrict wait = &b.wait[at];
        const uint8_t *__restrict selected = m_selected.data();
        const uint32_t *__restrict lastMember = b.lastMember.data();
        int64_t waitNs = 0, transferNs = 0, caused = 0;
        size_t collectives = 0, arrivedLast = 0;
        for (size_t k = 0; k < b.count; ++k) {
            const int64_t on = selected[k]; // 0 or 1: no branch per member
            const int64_t last = on & int64_t(lastMember[k] == m);
            collectives += size_t(on);
            waitNs += on * wait[k];
            transferNs += on * ((end[k] - start[k]) - wait[k]);
            arrivedLast += size_t(last);
            caused += last * b.waits[k];
        }
        if (collectives > 0) {
            t.rank = b.ranks[m];
            t.collectives += collectives;
            t.waitNs += waitNs;
            t.transferNs += transferNs; // its time in the kernels after the last arrivals
            t.arrivedLast += arrivedLast;
            t.waitCausedNs += caused;
        }
        if (lastCounts[m] > 0)
            m_lastCounts[b.ranks[m]] += lastCounts[m];
    }
}

void GroupTotals::communicatorEnds(const Communicator &c, MatchMethod method)
{
    CollectiveGroupSummary g = std::move(m_current);
    m_current = {};
    g.group = c.name;
    g.groupDesc = c.desc;
    g.method = method;
    g.medianBusbwGBps = median(std::move(m_busbw));
    m_busbw.clear();
    std::tie(g.mostOftenLast, g.timesLast) = mostOftenLast(m_lastCounts);
    m_lastCounts.clear();
    for (CollectiveRankTotals &t : m_dense)
        if (t.rank >= 0) {
            g.ranks.push_back(t);
            t = {};
        }
    for (auto &[rank, t] : m_sparse)
        g.ranks.push_back(t);
    m_sparse.clear();
    std::sort(g.ranks.begin(), g.ranks.end(), [](const auto &x, const auto &y) { return x.rank < y.rank; });
    if (g.instances > 0 || !m_query.select)
        m_groups.push_back(std::move(g));
}

} // namespace ps::core::analysis::detail
