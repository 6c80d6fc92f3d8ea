#pragma once
// Step 3 of the matching (collectiveinput.h has steps 1 and 2), internal to core/analysis: the
// matcher hands every instance to sinks as it makes it, and each sink keeps what its question
// needs. The group and rank totals, the per-phase rows and each report's waits are sums over the
// members of every instance; none of them needs the instances kept. A run of 1024 ranks x 17 k
// collectives holds 17 M members, 1 GB as CollectiveInstance lists, so only the sink that answers
// "which instances" (InstanceKeeper) makes them, and only those it is asked to keep.

#include "core/analysis/collectiveinput.h"
#include "core/analysis/collectivephases.h"
#include "core/analysis/collectives.h"
#include "core/analysis/collectivewait.h"

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

// A synchronizing collective holds every member in its kernel until the last one arrives: a
// member that ended longer than this before another arrived is not the same instance (runs mixed,
// or clocks far apart). The slack allows for hosts' clock offsets.
inline constexpr int64_t kOverlapSlackNs = 1'000'000'000;

// Checks and measures (collectivecheck.cpp). Why an instance cannot be measured, "" when it can:
// the communicator cannot be matched, a rank recorded it twice, the ranks' ops or sizes differ, its
// members do not overlap in time, or members are missing.
std::string problemOf(const Communicator &c, std::span<const Arrival> obs, const CollectiveInput &in);
// The members the instance lacks (by the communicator's members, else the ranks that recorded
// it), "" when none.
std::string absentProblem(const Communicator &c, std::span<const Arrival> obs, const CollectiveInput &in);
// The last arrival, skew, transfer and bandwidth of a complete instance.
void measure(MatchedInstance &m, CollectiveKind kind);
// Counts that differ between the ranks of a communicator, named by rank; "" when they agree.
// Taken before matching, which empties the lists.
std::string countsNote(const Communicator &c);

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

// Matches the gathered communicators (gatherCollectives), handing every instance to `sinks` in
// match order (by communicator, then index), and releasing each rank's records as they are
// matched. The notes of counts that differ go to in.notes. Stops early when cancelled.
void matchInstances(CollectiveInput &in, std::span<InstanceSink *const> sinks, const trace::CancelToken *cancel,
                    bool inBlocks = true);

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

// Each member of a complete instance with a wait, on its report's own clock.
class ReportWaits : public InstanceSink
{
public:
    ReportWaits(std::span<const int64_t> offsets, size_t reports) : m_offsets(offsets), m_byReport(reports) {}
    void instance(const MatchedInstance &inst) override;
    void block(const InstanceBlock &b) override;
    std::vector<std::vector<MemberWait>> take() { return std::move(m_byReport); }

private:
    std::span<const int64_t> m_offsets;
    std::vector<std::vector<MemberWait>> m_byReport;
};

// The reports matched as `query` asks, each complete instance's members also put in their phases
// (phases[report], on its own clock; PhaseRows in collectivephases.cpp).
RunCollectives matchWithPhases(std::vector<ReportCollectives> &reports, std::span<const int64_t> offsets,
                               std::vector<std::vector<PhaseOccurrence>> phases, const CollectiveQuery &query,
                               const trace::CancelToken *cancel);

// Whether the query's filter accepts the instance.
bool selectedBy(const CollectiveQuery &query, const MatchedInstance &inst);
// Per instance of the block: 1 when it is handled there and the query's filter accepts it.
void selectIn(const CollectiveQuery &query, const InstanceBlock &b, std::vector<uint8_t> &selected);

} // namespace ps::core::analysis::detail
