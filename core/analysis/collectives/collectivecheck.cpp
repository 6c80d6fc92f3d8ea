// The checks and measures of one instance (collectivesink.h): why it cannot be measured, or
// its last arrival, skew, transfer and bandwidth; and the note on counts that differ per rank.

#include "core/analysis/collectives/collectivecheck.h"
#include "core/analysis/collectives/collectivekinds.h"
#include "core/analysis/collectives/collectivesink.h"

#include <algorithm>
#include <map>

namespace ps::core::analysis::detail {

namespace {

constexpr size_t kListedRanks = 8; // in a note or problem; the rest are counted

// Members that do not overlap in time (kOverlapSlackNs): not one instance.
std::string overlapProblem(std::span<const Arrival> obs)
{
    const Arrival *last = &obs.front(), *early = &obs.front();
    for (const Arrival &a : obs) {
        last = a.o.start > last->o.start ? &a : last;
        early = a.o.end < early->o.end ? &a : early;
    }
    if (early->o.end + kOverlapSlackNs >= last->o.start)
        return {};
    return "members do not overlap in time: rank " + std::to_string(early->rank) + " ended " +
           std::to_string((last->o.start - early->o.end) / 1'000'000) + " ms before rank " +
           std::to_string(last->rank) + " arrived (different runs mixed, or clocks more than 1 s apart?)";
}

} // namespace

int MatchedInstance::groupSize() const
{
    return communicator->members ? int(communicator->members->size()) : communicator->size;
}

// Counts that differ between the ranks of a communicator, named by rank.
// Taken before matching, which empties the lists; "" when the counts agree.
std::string countsNote(const Communicator &c)
{
    std::map<size_t, std::vector<int>> byCount;
    for (const auto &[rank, list] : c.byRank)
        byCount[list.records->size()].push_back(rank);
    if (byCount.size() < 2)
        return {};
    std::string n =
        "group \"" + c.name + "\"" + (c.desc.empty() ? "" : " (" + c.desc + ")") + ": collective counts differ:";
    for (const auto &[count, ranks] : byCount)
        n += " " + std::to_string(count) + " on rank " + ranksText(ranks, kListedRanks) + ";";
    n.back() = '.';
    return n + " Instances past the shorter ranks are incomplete";
}

// The members the instance lacks, "" when none: by the communicator's members, else by the
// ranks that recorded it.
std::string absentProblem(const Communicator &c, std::span<const Arrival> obs, const CollectiveInput &in)
{
    if (!c.members) {
        if (c.nameOnly && in.worldSize && size_t(*in.worldSize) > in.ranks.size())
            return "communicator unknown (kernel name only) and " + std::to_string(in.ranks.size()) + " of " +
                   std::to_string(*in.worldSize) + " ranks loaded";
        if (c.size > 0 && c.byRank.size() != size_t(c.size))
            return std::to_string(obs.size()) + " of " + std::to_string(c.size) + " members recorded it";
        if (obs.size() == c.byRank.size())
            return {}; // every rank that recorded the communicator has it
    } else if (std::equal(obs.begin(), obs.end(), c.members->begin(), c.members->end(),
                          [](const Arrival &a, int r) { return a.rank == r; })) {
        return {}; // every member, none missing
    }
    std::vector<int> recorded; // members unknown: the ranks that recorded the communicator
    if (!c.members)
        for (const auto &[rank, list] : c.byRank)
            recorded.push_back(rank);
    const std::vector<int> &expected = c.members ? *c.members : recorded;
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
std::string problemOf(const Communicator &c, std::span<const Arrival> obs, const CollectiveInput &in)
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

// Arrival, skew, transfer and bandwidth of a complete instance.
void measure(MatchedInstance &m, CollectiveKind kind)
{
    const Arrival *last = &m.members.front();
    int64_t first = last->o.start;
    for (const Arrival &a : m.members) {
        if (a.o.start > last->o.start || (a.o.start == last->o.start && a.rank < last->rank))
            last = &a;
        first = std::min(first, a.o.start);
    }
    m.lastRank = last->rank;
    m.lastStart = last->o.start;
    m.skewNs = m.lastStart - first;
    m.transferNs = last->o.end - m.lastStart;
    m.bytes = m.members.front().o.bytes();
    if (m.bytes && m.transferNs > 0) {
        m.algbwGBps = double(*m.bytes) / double(m.transferNs); // bytes/ns = 10^9 B/s
        if (const auto f = busBandwidthFactor(kind, m.groupSize() > 0 ? m.groupSize() : int(m.members.size())))
            m.busbwGBps = *m.algbwGBps * *f;
    }
}

} // namespace ps::core::analysis::detail
