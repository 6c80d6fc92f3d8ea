#pragma once
// Step 3 of the matching (collectiveinput.h has steps 1 and 2), internal to core/analysis: the
// matcher (collectivematch.h) hands every instance to sinks as it makes it, and each sink keeps
// what its question needs. This header knows none of them: each concrete sink lives beside the
// result it fills (grouptotals.h, instancekeeper.h, reportwaits.h, phases/collectivephases.cpp). The group and rank
// totals, the per-phase rows and each report's waits are sums over the members of every instance; none of them needs
// the instances kept. A run of 1024 ranks x 17 k collectives holds 17 M members, 1 GB as CollectiveInstance lists, so
// only the sink that answers "which instances" (InstanceKeeper) makes them, and only those it is asked to keep.

#include "core/analysis/collectives/collectiveinput.h"
#include "core/analysis/collectives/collectives.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ps::core::analysis::detail {

// A member's record as matched: a copy of the record (its list moves on before the instance is
// made), and the rank and report of the list it came from.
struct Arrival
{
    int rank;
    uint32_t report;
    Observed o;
};

// One instance as the matcher made it; valid during the sink's call only.
struct MatchedInstance
{
    const Communicator *communicator = nullptr;
    const CollectiveInput *input = nullptr;
    int64_t index = 0;
    MatchMethod method = MatchMethod::GroupOrder;
    uint32_t op = 0;                  // into input->ops
    std::span<const Arrival> members; // by rank
    size_t position = 0;              // its place in the run's match order
    std::string problem;              // why incomplete; empty when complete
    int lastRank = -1;
    int64_t lastStart = 0; // the last arrival (shared axis)
    int64_t skewNs = 0;
    int64_t transferNs = 0;
    std::optional<uint64_t> bytes;
    std::optional<double> algbwGBps, busbwGBps;

    bool complete() const { return problem.empty(); }
    int groupSize() const;
    // A member's wait: from its arrival to the last one, within its kernel; 0 when incomplete.
    int64_t waitOf(const Arrival &a) const
    {
        if (!complete())
            return 0;
        const int64_t w = lastStart - a.o.start;
        return w < 0 ? 0 : w > a.o.end - a.o.start ? a.o.end - a.o.start : w;
    }
};

// The instance as a whole, for sinks that keep it.
CollectiveInstance makeInstance(const MatchedInstance &m);

// Complete instances of one communicator that every member rank has, at the same place in each
// rank's list: how the matcher hands its sinks the instances of a communicator whose ranks agree
// (the usual case), so that each sink sums them a rank at a time. Member m's record of instance k
// is at m * stride + k of the member-major columns; instances not `handled` were given to
// instance() one by one (they have a problem).
struct InstanceBlock
{
    const Communicator *communicator = nullptr;
    const CollectiveInput *input = nullptr;
    MatchMethod method = MatchMethod::GroupOrder;
    std::vector<int> ranks;        // the members, ascending
    std::vector<uint32_t> reports; // per member
    size_t count = 0, stride = 0;  // instances; records per member in the columns
    size_t firstPosition = 0;      // of instance 0 in the run's match order
    // Member-major columns of the members' records, and each member's wait.
    std::vector<trace::EventRef> event;
    std::vector<int64_t> start, end, seq, wait;
    std::vector<uint64_t> bytesOf;
    std::vector<uint32_t> record, opOf;
    // Per instance.
    std::vector<int64_t> index;   // its Seq, or k-th in the group
    std::vector<uint8_t> handled; // 1 when complete and summed here
    std::vector<uint32_t> lastMember;
    std::vector<int64_t> lastStart, skew, transfer, waits; // waits: the members' waits summed
    std::vector<uint64_t> bytes;                           // Observed::kNoBytes when unknown
    std::vector<double> algbw, busbw;                      // negative when unknown

    // Per member: its records of the block when they lie one after another; the columns then
    // hold only their times (and the wait).
    std::vector<RunStretch> stretches;

    size_t at(size_t m, size_t k) const { return m * stride + k; }
    trace::EventRef eventAt(size_t m, size_t k) const
    {
        const RunStretch &r = stretches[m];
        return r.on ? trace::EventRef{r.first.track, r.first.index + uint32_t(k)} : event[at(m, k)];
    }
    uint32_t recordAt(size_t m, size_t k) const
    {
        return stretches[m].on ? stretches[m].firstRecord + uint32_t(k) : record[at(m, k)];
    }
    int64_t seqAt(size_t m, size_t k) const
    {
        const RunStretch &r = stretches[m];
        return r.on ? r.seq + r.seqStep * int64_t(k) : seq[at(m, k)];
    }
    uint32_t opAt(size_t m, size_t k) const { return stretches[m].on ? stretches[m].op : opOf[at(m, k)]; }
    uint64_t bytesAt(size_t m, size_t k) const { return stretches[m].on ? stretches[m].bytes : bytesOf[at(m, k)]; }
    uint32_t op(size_t k) const { return opAt(0, k); }
    Observed observed(size_t m, size_t k) const
    {
        const size_t i = at(m, k);
        return {eventAt(m, k), start[i], end[i], seqAt(m, k), bytesAt(m, k), recordAt(m, k), opAt(m, k)};
    }
    ObservedColumns columnsOf(size_t m)
    {
        const size_t i = m * stride;
        return {&event[i], &start[i], &end[i], &seq[i], &bytesOf[i], &record[i], &opOf[i]};
    }
    void resize(size_t members, size_t perMember);
};

// Instance k of a block as a whole.
CollectiveInstance makeInstance(const InstanceBlock &b, size_t k);

class InstanceSink
{
public:
    virtual ~InstanceSink() = default;
    virtual void instance(const MatchedInstance &inst) = 0;
    virtual void block(const InstanceBlock &b) = 0;
    // After a communicator's last instance (also for one without instances).
    virtual void communicatorEnds(const Communicator &c, MatchMethod method) { (void)c, (void)method; }
};

// Whether the query's filter accepts the instance.
bool selectedBy(const CollectiveQuery &query, const MatchedInstance &inst);
// Per instance of the block: 1 when it is handled there and the query's filter accepts it.
void selectIn(const CollectiveQuery &query, const InstanceBlock &b, std::vector<uint8_t> &selected);

} // namespace ps::core::analysis::detail
