#include "core/analysis/collectives.h"

#include "core/analysis/collectiveinput.h"
#include "core/analysis/collectivekinds.h"
#include "core/analysis/median.h"
#include "core/common/parallelfor.h"
#include "core/trace/tracereader.h"

#include <algorithm>
#include <map>
#include <thread>
#include <tuple>

namespace ps::core::analysis {

using detail::Communicator;
using detail::Observed;
using detail::ObservedQueue;
using detail::RankRecords;
using detail::ranksText;

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

namespace {

constexpr size_t kListedRanks = 8; // in a note or problem; the rest are counted

// Reading the reports' records is memory-bound: a few threads are all that help.
int defaultThreads()
{
    return int(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
}

// A member's record as matched: a copy of the record (its list moves on before the instance is
// made), and the rank and report of the list it came from.
struct Arrival
{
    int rank;
    uint32_t report;
    Observed o;
};

// Calls emit(index, members) for every instance of one communicator, its members by rank (one
// buffer, reused): by Seq when every record has one, else k-th by start. Each rank's records are
// taken from the front of its queue and released as they are matched. Returns the method.
template <typename Emit> MatchMethod forEachInstance(Communicator &c, Emit &&emit)
{
    const auto byStart = [](const Observed &a, const Observed &b) { return a.start < b.start; };
    const auto bySeq = [](const Observed &a, const Observed &b) { return a.seq < b.seq; };
    bool allSeq = !c.nameOnly && !c.pointToPoint;
    std::vector<uint8_t> seqSorted; // per rank, in byRank order
    for (auto &[rank, list] : c.byRank) {
        // One pass: records come in event order per stream, sorted already but for several streams
        // or shapes, and mostly in Seq order too.
        bool startSorted = true, inSeqOrder = true;
        const Observed *prev = nullptr;
        list.records.forEach([&](const Observed &o) {
            allSeq = allSeq && o.seq >= 0;
            if (prev) {
                startSorted = startSorted && !byStart(o, *prev);
                inSeqOrder = inSeqOrder && !bySeq(o, *prev);
            }
            prev = &o;
        });
        if (!startSorted)
            list.records.sortBy(byStart);
        seqSorted.push_back(startSorted && inSeqOrder);
    }
    std::vector<std::pair<int, RankRecords *>> lists;
    for (auto &[rank, list] : c.byRank)
        if (!list.records.empty())
            lists.emplace_back(rank, &list);
    std::vector<Arrival> members;
    members.reserve(lists.size());
    if (!allSeq) {
        for (int64_t k = 0; !lists.empty(); ++k) {
            members.clear();
            for (const auto &[rank, list] : lists)
                members.push_back(Arrival{rank, list->report, list->records.front()});
            emit(k, members);
            for (const auto &[rank, list] : lists)
                list->records.pop_front();
            std::erase_if(lists, [](const auto &l) { return l.second->records.empty(); });
        }
        return c.orderMethod;
    }
    // By Seq: each rank's records in Seq order, then a merge that takes every rank's lowest Seq
    // (a rank with one Seq twice gives the instance both, which it then reports).
    size_t at = 0;
    for (auto &[rank, list] : c.byRank)
        if (!seqSorted[at++])
            list.records.sortBy(bySeq);
    std::vector<size_t> taken(lists.size());
    while (!lists.empty()) {
        int64_t seq = INT64_MAX;
        for (const auto &[rank, list] : lists)
            seq = std::min(seq, list->records.front().seq);
        members.clear();
        for (size_t l = 0; l < lists.size(); ++l) {
            const ObservedQueue &q = lists[l].second->records;
            for (taken[l] = 0; taken[l] < q.size() && q.at(taken[l]).seq == seq; ++taken[l])
                members.push_back(Arrival{lists[l].first, lists[l].second->report, q.at(taken[l])});
        }
        emit(seq, members);
        for (size_t l = 0; l < lists.size(); ++l)
            for (; taken[l] > 0; --taken[l])
                lists[l].second->records.pop_front();
        size_t kept = 0;
        for (size_t l = 0; l < lists.size(); ++l)
            if (!lists[l].second->records.empty())
                lists[kept++] = lists[l];
        lists.resize(kept);
    }
    return MatchMethod::Sequence;
}

// Counts that differ between the ranks of a communicator, named by rank.
// Taken before matching, which empties the lists; "" when the counts agree.
std::string countsNote(const Communicator &c)
{
    std::map<size_t, std::vector<int>> byCount;
    for (const auto &[rank, list] : c.byRank)
        byCount[list.records.size()].push_back(rank);
    if (byCount.size() < 2)
        return {};
    std::string n =
        "group \"" + c.name + "\"" + (c.desc.empty() ? "" : " (" + c.desc + ")") + ": collective counts differ:";
    for (const auto &[count, ranks] : byCount)
        n += " " + std::to_string(count) + " on rank " + ranksText(ranks, kListedRanks) + ";";
    n.back() = '.';
    return n + " Instances past the shorter ranks are incomplete";
}

// A synchronizing collective holds every member in its kernel until the last one arrives: a
// member that finished long before another began is not the same instance (runs mixed, or
// clocks far apart). The slack allows for hosts' clock offsets.
std::string overlapProblem(const std::vector<Arrival> &obs)
{
    constexpr int64_t kSlackNs = 1'000'000'000;
    const Arrival *last = &obs.front(), *early = &obs.front();
    for (const Arrival &a : obs) {
        last = a.o.start > last->o.start ? &a : last;
        early = a.o.end < early->o.end ? &a : early;
    }
    if (early->o.end + kSlackNs >= last->o.start)
        return {};
    return "members do not overlap in time: rank " + std::to_string(early->rank) + " ended " +
           std::to_string((last->o.start - early->o.end) / 1'000'000) + " ms before rank " +
           std::to_string(last->rank) + " arrived (different runs mixed, or clocks more than 1 s apart?)";
}

// The members the instance lacks, "" when none: by the communicator's members, else by the
// ranks that recorded it.
std::string absentProblem(const Communicator &c, const std::vector<Arrival> &obs, const detail::CollectiveInput &in)
{
    std::vector<int> recorded; // members unknown: the ranks that recorded the communicator
    if (!c.members) {
        if (c.nameOnly && in.worldSize && size_t(*in.worldSize) > in.ranks.size())
            return "communicator unknown (kernel name only) and " + std::to_string(in.ranks.size()) + " of " +
                   std::to_string(*in.worldSize) + " ranks loaded";
        for (const auto &[rank, list] : c.byRank)
            recorded.push_back(rank);
    }
    const std::vector<int> &expected = c.members ? *c.members : recorded;
    if (!c.members && c.size > 0 && expected.size() != size_t(c.size))
        return std::to_string(obs.size()) + " of " + std::to_string(c.size) + " members recorded it";
    // Both lists ascend by rank (members are gathered rank by rank): one merge finds the absent.
    std::vector<int> missingLoaded, notLoaded;
    size_t o = 0;
    for (int r : expected) {
        while (o < obs.size() && obs[o].rank < r)
            ++o;
        if (o < obs.size() && obs[o].rank == r)
            continue;
        (in.ranks.count(r) ? missingLoaded : notLoaded).push_back(r);
    }
    std::string p;
    if (!notLoaded.empty())
        p = std::to_string(expected.size() - notLoaded.size()) + " of " + std::to_string(expected.size()) +
            " members loaded (not loaded: rank " + ranksText(notLoaded, kListedRanks) + ")";
    if (!missingLoaded.empty())
        p += (p.empty() ? "" : "; ") + std::string("missing on rank ") + ranksText(missingLoaded, kListedRanks);
    return p;
}

// Why an instance cannot be measured; "" when it can.
std::string problemOf(const Communicator &c, const std::vector<Arrival> &obs, const detail::CollectiveInput &in)
{
    if (!c.unmatchable.empty())
        return c.unmatchable;
    const uint32_t op = obs.front().o.op;
    if (c.nameOnly && in.kinds[op] == CollectiveKind::SendRecv)
        return "point-to-point kernel known by its name only: its peer is not recorded";
    for (size_t i = 1; i < obs.size(); ++i)
        if (obs[i].rank == obs[i - 1].rank)
            return "rank " + std::to_string(obs[i].rank) + " recorded it twice (the same Seq on two kernels)";
    for (const Arrival &a : obs) // a pair's send meets a recv: only their sizes must agree
        if ((a.o.op != op && !c.pointToPoint) || a.o.bytesOrNone != obs.front().o.bytesOrNone)
            return "rank " + std::to_string(obs.front().rank) + " recorded " + in.ops[op] + ", rank " +
                   std::to_string(a.rank) + " " + in.ops[a.o.op] + (a.o.op == op ? " of another size" : "") +
                   ": the ranks' sequences differ here";
    if (std::string p = overlapProblem(obs); !p.empty())
        return p;
    return absentProblem(c, obs, in);
}

// Arrival, wait, transfer and bandwidth of a complete instance.
void measure(CollectiveInstance &inst, const std::vector<Arrival> &obs, CollectiveKind kind)
{
    const Arrival *last = &obs.front();
    int64_t first = obs.front().o.start;
    for (const Arrival &a : obs) {
        if (a.o.start > last->o.start || (a.o.start == last->o.start && a.rank < last->rank))
            last = &a;
        first = std::min(first, a.o.start);
    }
    const int64_t lastStart = last->o.start;
    inst.lastRank = last->rank;
    inst.skewNs = lastStart - first;
    inst.transferNs = last->o.end - lastStart;
    for (CollectiveMember &m : inst.members)
        m.waitNs = std::clamp<int64_t>(lastStart - m.startNs, 0, m.endNs - m.startNs);
    inst.bytes = obs.front().o.bytes();
    if (inst.bytes && inst.transferNs > 0) {
        inst.algbwGBps = double(*inst.bytes) / double(inst.transferNs); // bytes/ns = 10^9 B/s
        const int n = inst.groupSize > 0 ? inst.groupSize : int(obs.size());
        if (const auto f = busBandwidthFactor(kind, n))
            inst.busbwGBps = *inst.algbwGBps * *f;
    }
}

CollectiveInstance makeInstance(const Communicator &c, int64_t index, MatchMethod method,
                                const std::vector<Arrival> &obs, const detail::CollectiveInput &in)
{
    CollectiveInstance inst;
    inst.group = c.name;
    inst.groupDesc = c.desc;
    const uint32_t op = obs.front().o.op;
    inst.op = in.ops[op];
    inst.index = index;
    inst.method = method;
    inst.groupSize = c.members ? int(c.members->size()) : c.size;
    inst.members.reserve(obs.size());
    for (const Arrival &a : obs) // by rank: gathered rank by rank
        inst.members.push_back({a.rank, a.report, a.o.event, a.o.start, a.o.end, 0, a.o.record});
    inst.problem = problemOf(c, obs, in);
    inst.complete = inst.problem.empty();
    if (inst.complete)
        measure(inst, obs, in.kinds[op]);
    return inst;
}

// Instances gathered a wave at a time and made (checked and measured) on several threads: the
// gathering walks every rank's list in step, the making is independent per instance.
class InstanceWave
{
public:
    InstanceWave(const Communicator &c, const detail::CollectiveInput &in, int threads)
        : m_c(c), m_in(in), m_threads(threads)
    {
    }
    void add(int64_t index, const std::vector<Arrival> &members, std::vector<CollectiveInstance> &out)
    {
        if (m_used == m_pending.size())
            m_pending.emplace_back();
        m_pending[m_used].first = index;
        m_pending[m_used++].second.assign(members.begin(), members.end());
        if (m_used == kWave)
            flush(out);
    }
    void flush(std::vector<CollectiveInstance> &out)
    {
        const size_t first = out.size();
        out.resize(first + m_used);
        parallelFor(m_used, m_used < kAlone ? 1 : m_threads, [&](size_t i) {
            out[first + i] = makeInstance(m_c, m_pending[i].first, m_c.orderMethod, m_pending[i].second, m_in);
        });
        m_used = 0;
    }

private:
    static constexpr size_t kWave = 256, kAlone = 16; // a few instances are not worth threads
    const Communicator &m_c;
    const detail::CollectiveInput &m_in;
    const int m_threads;
    std::vector<std::pair<int64_t, std::vector<Arrival>>> m_pending; // reused wave after wave
    size_t m_used = 0;
};

void summarize(CollectiveAnalysis &a, size_t firstInstance)
{
    std::vector<const CollectiveInstance *> group;
    for (size_t i = firstInstance; i < a.instances.size(); ++i)
        group.push_back(&a.instances[i]);
    a.groups.push_back(summarizeGroup(group));
}

} // namespace

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
                                            const trace::CancelToken *cancel, int threads)
{
    detail::CollectiveInput in = detail::gatherCollectives(reports, offsets, cancel);
    CollectiveAnalysis a;
    a.notes = std::move(in.notes);
    a.errors = std::move(in.errors);
    a.reportRanks = std::move(in.reportRanks);
    for (auto &communicator : in.communicators) {
        auto &c = communicator.second; // not a structured binding: clang 14 cannot capture one
        if (cancel && cancel->cancelled())
            break;
        const size_t first = a.instances.size();
        std::string counts = countsNote(c);
        InstanceWave wave(c, in, threads);
        const MatchMethod method = forEachInstance(
            c, [&](int64_t index, const std::vector<Arrival> &members) { wave.add(index, members, a.instances); });
        wave.flush(a.instances);
        for (size_t i = first; i < a.instances.size(); ++i)
            a.instances[i].method = method;
        if (method != MatchMethod::Sequence && !counts.empty())
            a.notes.push_back(std::move(counts));
        c.byRank.clear();                  // matched: its records are done with
        if (a.instances.size() == first) { // a communicator with no instance still has its row
            CollectiveGroupSummary g;
            g.group = c.name;
            g.groupDesc = c.desc;
            g.method = method;
            a.groups.push_back(std::move(g));
        } else {
            summarize(a, first);
        }
    }
    a.cancelled = cancel && cancel->cancelled();
    a.ranks = detail::sumTotals(a.groups); // the groups hold every instance once
    return a;
}

CollectiveAnalysis analyzeCollectives(std::span<const trace::ReportPtr> reports, std::span<const int64_t> offsets,
                                      const trace::CancelToken *cancel, int threads)
{
    std::vector<detail::ReportCollectives> extracted(reports.size());
    parallelFor(reports.size(), threads > 0 ? threads : defaultThreads(),
                [&](size_t i) { extracted[i] = detail::extractCollectives(*reports[i], cancel); });
    return detail::matchCollectives(extracted, offsets, cancel, threads > 0 ? threads : defaultThreads());
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
