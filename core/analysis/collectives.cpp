#include "core/analysis/collectives.h"

#include "core/analysis/collectiveinput.h"
#include "core/analysis/collectivekinds.h"
#include "core/analysis/median.h"
#include "core/trace/tracereader.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ps::core::analysis {

using detail::Communicator;
using detail::Observed;
using detail::ranksText;

std::string_view matchMethodName(MatchMethod m)
{
    switch (m) {
    case MatchMethod::Sequence:
        return "sequence";
    case MatchMethod::GroupOrder:
        return "group-order";
    case MatchMethod::StreamOrder:
        return "stream-order";
    }
    return "";
}

namespace {

constexpr size_t kListedRanks = 8; // in a note or problem; the rest are counted

// Calls emit(index, members) for every instance of one communicator, its members by rank (one
// buffer, reused): by Seq when every record has one, else k-th by start. Returns the method.
template <typename Emit> MatchMethod forEachInstance(Communicator &c, Emit &&emit)
{
    bool allSeq = !c.nameOnly && !c.pointToPoint;
    size_t most = 0;
    const auto byStart = [](const Observed &a, const Observed &b) { return a.start < b.start; };
    for (auto &[rank, obs] : c.byRank) {
        if (!std::is_sorted(obs.begin(), obs.end(), byStart)) // records come in event order per stream
            std::stable_sort(obs.begin(), obs.end(), byStart);
        allSeq = allSeq && std::all_of(obs.begin(), obs.end(), [](const Observed &o) { return o.seq >= 0; });
        most = std::max(most, obs.size());
    }
    std::vector<const Observed *> members;
    members.reserve(c.byRank.size());
    if (!allSeq) {
        for (size_t k = 0; k < most; ++k) {
            members.clear();
            for (const auto &[rank, obs] : c.byRank)
                if (k < obs.size())
                    members.push_back(&obs[k]);
            emit(int64_t(k), members);
        }
        return c.orderMethod;
    }
    // By Seq: each rank's records in Seq order, then a merge that takes every rank's lowest Seq
    // (a rank with one Seq twice gives the instance both, which it then reports).
    const auto bySeq = [](const Observed &a, const Observed &b) { return a.seq < b.seq; };
    std::vector<std::pair<const Observed *, const Observed *>> cursors;
    for (auto &[rank, obs] : c.byRank) {
        if (!std::is_sorted(obs.begin(), obs.end(), bySeq))
            std::stable_sort(obs.begin(), obs.end(), bySeq);
        if (!obs.empty())
            cursors.emplace_back(obs.data(), obs.data() + obs.size());
    }
    while (!cursors.empty()) {
        int64_t seq = INT64_MAX;
        for (const auto &[at, end] : cursors)
            seq = std::min(seq, at->seq);
        members.clear();
        for (auto &[at, end] : cursors)
            for (; at != end && at->seq == seq; ++at)
                members.push_back(at);
        std::erase_if(cursors, [](const auto &cur) { return cur.first == cur.second; });
        emit(seq, members);
    }
    return MatchMethod::Sequence;
}

// Counts that differ between the ranks of a communicator, named by rank.
void noteCounts(const Communicator &c, std::vector<std::string> &notes)
{
    std::map<size_t, std::vector<int>> byCount;
    for (const auto &[rank, obs] : c.byRank)
        byCount[obs.size()].push_back(rank);
    if (byCount.size() < 2)
        return;
    std::string n =
        "group \"" + c.name + "\"" + (c.desc.empty() ? "" : " (" + c.desc + ")") + ": collective counts differ:";
    for (const auto &[count, ranks] : byCount)
        n += " " + std::to_string(count) + " on rank " + ranksText(ranks, kListedRanks) + ";";
    n.back() = '.';
    notes.push_back(n + " Instances past the shorter ranks are incomplete");
}

// A synchronizing collective holds every member in its kernel until the last one arrives: a
// member that finished long before another began is not the same instance (runs mixed, or
// clocks far apart). The slack allows for hosts' clock offsets.
std::string overlapProblem(const std::vector<const Observed *> &obs)
{
    constexpr int64_t kSlackNs = 1'000'000'000;
    const Observed *last = obs.front(), *early = obs.front();
    for (const Observed *o : obs) {
        last = o->start > last->start ? o : last;
        early = o->end < early->end ? o : early;
    }
    if (early->end + kSlackNs >= last->start)
        return {};
    return "members do not overlap in time: rank " + std::to_string(early->rank) + " ended " +
           std::to_string((last->start - early->end) / 1'000'000) + " ms before rank " + std::to_string(last->rank) +
           " arrived (different runs mixed, or clocks more than 1 s apart?)";
}

// Why an instance cannot be measured; "" when it can.
std::string problemOf(const Communicator &c, const std::vector<const Observed *> &obs,
                      const detail::CollectiveInput &in)
{
    if (!c.unmatchable.empty())
        return c.unmatchable;
    const std::string_view op = obs.front()->op;
    if (c.nameOnly && collectiveKind(op) == CollectiveKind::SendRecv)
        return "point-to-point kernel known by its name only: its peer is not recorded";
    for (size_t i = 1; i < obs.size(); ++i)
        if (obs[i]->rank == obs[i - 1]->rank)
            return "rank " + std::to_string(obs[i]->rank) + " recorded it twice (the same Seq on two kernels)";
    for (const Observed *o : obs) // a pair's send meets a recv: only their sizes must agree
        if ((o->op != op && !c.pointToPoint) || o->bytesOrNone != obs.front()->bytesOrNone)
            return "rank " + std::to_string(obs.front()->rank) + " recorded " + std::string(op) + ", rank " +
                   std::to_string(o->rank) + " " + std::string(o->op) + (o->op == op ? " of another size" : "") +
                   ": the ranks' sequences differ here";
    if (std::string p = overlapProblem(obs); !p.empty())
        return p;
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
        while (o < obs.size() && obs[o]->rank < r)
            ++o;
        if (o < obs.size() && obs[o]->rank == r)
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

// Arrival, wait, transfer and bandwidth of a complete instance.
void measure(CollectiveInstance &inst, const std::vector<const Observed *> &obs)
{
    const Observed *last = obs.front();
    int64_t first = obs.front()->start;
    for (const Observed *o : obs) {
        if (o->start > last->start || (o->start == last->start && o->rank < last->rank))
            last = o;
        first = std::min(first, o->start);
    }
    inst.lastRank = last->rank;
    inst.skewNs = last->start - first;
    inst.transferNs = last->end - last->start;
    for (CollectiveMember &m : inst.members)
        m.waitNs = std::clamp<int64_t>(last->start - m.startNs, 0, m.endNs - m.startNs);
    inst.bytes = obs.front()->bytes();
    if (inst.bytes && inst.transferNs > 0) {
        inst.algbwGBps = double(*inst.bytes) / double(inst.transferNs); // bytes/ns = 10^9 B/s
        const int n = inst.groupSize > 0 ? inst.groupSize : int(obs.size());
        if (const auto f = busBandwidthFactor(collectiveKind(inst.op), n))
            inst.busbwGBps = *inst.algbwGBps * *f;
    }
}

CollectiveInstance makeInstance(const Communicator &c, int64_t index, MatchMethod method,
                                const std::vector<const Observed *> &obs, const detail::CollectiveInput &in)
{
    CollectiveInstance inst;
    inst.group = c.name;
    inst.groupDesc = c.desc;
    inst.op = std::string(obs.front()->op);
    inst.index = index;
    inst.method = method;
    inst.groupSize = c.members ? int(c.members->size()) : c.size;
    inst.members.reserve(obs.size());
    for (const Observed *o : obs) // by rank: gathered rank by rank
        inst.members.push_back({o->rank, o->report, o->event, o->start, o->end, 0, o->record});
    inst.problem = problemOf(c, obs, in);
    inst.complete = inst.problem.empty();
    if (inst.complete)
        measure(inst, obs);
    return inst;
}

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

CollectiveAnalysis analyzeCollectives(std::span<const trace::ReportPtr> reports, std::span<const int64_t> offsets,
                                      const trace::CancelToken *cancel)
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
        const MatchMethod method = forEachInstance(c, [&](int64_t index, const std::vector<const Observed *> &members) {
            a.instances.push_back(makeInstance(c, index, c.orderMethod, members, in));
        });
        for (size_t i = first; i < a.instances.size(); ++i)
            a.instances[i].method = method;
        if (method != MatchMethod::Sequence)
            noteCounts(c, a.notes);
        std::map<int, std::vector<Observed>>().swap(c.byRank); // matched: its records are done with
        if (a.instances.size() == first) {                     // a communicator with no instance still has its row
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
    std::vector<const CollectiveInstance *> all;
    for (const CollectiveInstance &inst : a.instances)
        all.push_back(&inst);
    a.ranks = totalsPerRank(all);
    return a;
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
