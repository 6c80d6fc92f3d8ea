#include "core/analysis/collectivesink.h"

#include "core/analysis/median.h"

#include <algorithm>

namespace ps::core::analysis::detail {

namespace {

// Ranks are small numbers: a slot per rank below this, a map past it.
constexpr int kDenseRanks = 1 << 20;

// The heap order of InstanceKeeper's worst: its top is the least bad kept (smallest skew, and of
// equal skews the one matched last).
bool lessBad(const std::pair<size_t, CollectiveInstance> &x, const std::pair<size_t, CollectiveInstance> &y)
{
    return x.second.skewNs != y.second.skewNs ? x.second.skewNs > y.second.skewNs : x.first < y.first;
}

} // namespace

bool selectedBy(const CollectiveQuery &query, const MatchedInstance &inst)
{
    return !query.select || query.select(inst.communicator->name, inst.input->ops[inst.op]);
}

void selectIn(const CollectiveQuery &query, const InstanceBlock &b, std::vector<uint8_t> &selected)
{
    selected.assign(b.handled.begin(), b.handled.begin() + std::ptrdiff_t(b.count));
    if (!query.select)
        return;
    std::vector<int8_t> byOp(b.input->ops.size(), -1); // the filter asked once per op
    for (size_t k = 0; k < b.count; ++k) {
        if (!selected[k])
            continue;
        int8_t &ok = byOp[b.op(k)];
        if (ok < 0)
            ok = query.select(b.communicator->name, b.input->ops[b.op(k)]) ? 1 : 0;
        selected[k] = uint8_t(ok);
    }
}

CollectiveInstance makeInstance(const InstanceBlock &b, size_t k)
{
    CollectiveInstance inst;
    inst.group = b.communicator->name;
    inst.groupDesc = b.communicator->desc;
    inst.op = b.input->ops[b.op(k)];
    inst.index = b.index[k];
    inst.method = b.method;
    inst.groupSize = b.communicator->members ? int(b.communicator->members->size()) : b.communicator->size;
    inst.members.reserve(b.ranks.size());
    for (size_t m = 0; m < b.ranks.size(); ++m) {
        const size_t i = b.at(m, k);
        inst.members.push_back(
            {b.ranks[m], b.reports[m], b.eventAt(m, k), b.start[i], b.end[i], b.wait[i], b.recordAt(m, k)});
    }
    inst.complete = true;
    inst.lastRank = b.ranks[b.lastMember[k]];
    inst.skewNs = b.skew[k];
    inst.transferNs = b.transfer[k];
    if (b.bytes[k] != Observed::kNoBytes)
        inst.bytes = b.bytes[k];
    if (b.algbw[k] >= 0)
        inst.algbwGBps = b.algbw[k];
    if (b.busbw[k] >= 0)
        inst.busbwGBps = b.busbw[k];
    return inst;
}

CollectiveInstance makeInstance(const MatchedInstance &m)
{
    CollectiveInstance inst;
    inst.group = m.communicator->name;
    inst.groupDesc = m.communicator->desc;
    inst.op = m.input->ops[m.op];
    inst.index = m.index;
    inst.method = m.method;
    inst.groupSize = m.groupSize();
    inst.members.reserve(m.members.size());
    for (const Arrival &a : m.members)
        inst.members.push_back({a.rank, a.report, a.o.event, a.o.start, a.o.end, m.waitOf(a), a.o.record});
    inst.problem = m.problem;
    inst.complete = m.complete();
    inst.lastRank = m.lastRank;
    inst.skewNs = m.skewNs;
    inst.transferNs = m.transferNs;
    inst.bytes = m.bytes;
    inst.algbwGBps = m.algbwGBps;
    inst.busbwGBps = m.busbwGBps;
    return inst;
}

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

void ReportWaits::instance(const MatchedInstance &inst)
{
    if (!inst.complete())
        return;
    for (const Arrival &a : inst.members) {
        const int64_t wait = inst.waitOf(a);
        if (a.report >= m_byReport.size() || wait <= 0)
            continue;
        const int64_t own = a.o.start - (a.report < m_offsets.size() ? m_offsets[a.report] : 0);
        m_byReport[a.report].push_back({a.o.record, own, own + wait});
    }
}

void ReportWaits::block(const InstanceBlock &b)
{
    for (size_t m = 0; m < b.ranks.size(); ++m) {
        const uint32_t report = b.reports[m];
        if (report >= m_byReport.size())
            continue;
        const int64_t offset = report < m_offsets.size() ? m_offsets[report] : 0;
        std::vector<MemberWait> &out = m_byReport[report];
        for (size_t k = 0; k < b.count; ++k) {
            const size_t i = b.at(m, k);
            if (b.handled[k] && b.wait[i] > 0)
                out.push_back({b.recordAt(m, k), b.start[i] - offset, b.start[i] - offset + b.wait[i]});
        }
    }
}

} // namespace ps::core::analysis::detail
