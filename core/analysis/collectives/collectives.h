#pragma once
// Who waits for whom: every collective matched across the ranks of a run, and per instance the
// last rank to arrive, the others' wait and the transfer after it.
//
// Matching (spec A1, A3-A5). Instances are keyed within a communicator:
//   - Kineto kernel args: the process group (`Process Group Name`) and the collective's `Seq`
//     when every record of the group has one ("kineto-seq"), else its k-th collective in that
//     group by start time ("kineto-pg-index", TraceLens' rule). Send/recv go by (group, pair of
//     ranks) when the peer is recorded.
//   - Ascend HCCL ops: the group name, k-th op in it ("hccl-group").
//   - nsys kernels tied to NCCL's NVTX range and payload: the communicator ID, k-th call on it
//     ("nvtx-payload"); bytes from the payload's message size.
//   - Kernels known only by their NCCL/RCCL name (nsys without payloads, rocpd, Kineto without
//     c10d args): the k-th kernel on the report's j-th NCCL stream ("stream-order").
// An instance is complete when its members are known (group ranks, `pg_config`, or a size equal
// to the world's) and every member's report has it with the same op; otherwise it is reported
// incomplete with the reason and never used for totals. Ranks whose counts differ in a group
// are named in `notes`.
//
// Per complete instance (times on the shared axis: own + alignment offset):
//   arrival = a member's kernel start; last rank = latest arrival; skew = latest - earliest;
//   wait(member) = last arrival - own arrival, clipped to its kernel;
//   transfer = the last-arriving rank's kernel duration (one clock, so clock offsets between
//   hosts do not enter it); bytes as nccl-tests' S: the output size for allgather, the input
//   size otherwise (nelems x dtype bytes); algbw = bytes / transfer in 10^9 B/s (nccl-tests,
//   not TraceLens' 2^30); busbw = algbw x busBandwidthFactor(kind, group size).
// Bad input is an error, not a guess: a record whose `Group size` contradicts its ranks, a
// rank recording a group it is not in, two reports of one rank, world sizes or group
// memberships that differ between reports (traces of different runs mixed).

#include "core/common/canceltoken.h"
#include "core/trace/store/report.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::analysis {

// How an instance was matched, by what its trace records (the "match" of trace collectives).
enum class MatchMethod {
    Sequence,    // "kineto-seq": PyTorch's per-group `Seq` on the kernel args
    GroupOrder,  // "kineto-pg-index": the k-th collective of the process group (TraceLens)
    StreamOrder, // "stream-order": the k-th NCCL/RCCL kernel on the report's j-th NCCL stream
    HcclGroup,   // "hccl-group": the k-th HCCL op of the Ascend group
    NvtxPayload, // "nvtx-payload": the k-th call on the NCCL communicator its NVTX payload names (nsys)
};
std::string_view matchMethodName(MatchMethod m);

struct CollectiveMember
{
    int rank = -1;
    uint32_t report = 0;   // index into the reports given
    trace::EventRef event; // the kernel (or HCCL op) in that report's store
    int64_t startNs = 0;   // shared axis
    int64_t endNs = 0;
    int64_t waitNs = 0;  // 0 for incomplete instances
    uint32_t record = 0; // index into trace::collectivesOf(that report's store)
};

struct CollectiveInstance
{
    std::string group; // the process group's name as the trace gives it, or "nccl stream #j"
    std::string groupDesc;
    std::string op;    // the trace's collective name
    int64_t index = 0; // Seq with MatchMethod::Sequence, else 0-based k-th in the group
    MatchMethod method = MatchMethod::GroupOrder;
    int groupSize = -1;                    // members expected; -1 when unknown
    std::vector<CollectiveMember> members; // by rank
    bool complete = false;
    std::string problem; // why incomplete
    int lastRank = -1;
    int64_t skewNs = 0;
    int64_t transferNs = 0;
    std::optional<uint64_t> bytes;
    std::optional<double> algbwGBps, busbwGBps;
};

struct CollectiveRankTotals
{
    int rank = -1;
    size_t collectives = 0; // complete instances it took part in
    int64_t waitNs = 0;
    int64_t transferNs = 0; // its time in those kernels after the last arrival
    size_t arrivedLast = 0;
    int64_t waitCausedNs = 0; // the others' waits in the instances it arrived last to
};

struct CollectiveGroupSummary
{
    std::string group, groupDesc;
    MatchMethod method = MatchMethod::GroupOrder;
    size_t instances = 0, complete = 0;
    int64_t waitNs = 0, transferNs = 0; // over complete instances: members' waits; transfers
    std::optional<double> medianBusbwGBps;
    int mostOftenLast = -1; // -1 when no rank arrived last more often than another
    size_t timesLast = 0;
    std::vector<CollectiveRankTotals> ranks; // per member rank over the group's complete instances, ascending
};

// What an analysis keeps of its instances. Groups and ranks are summed over every instance the
// filter accepts, phases over every instance, whatever is kept: a large run is triaged without
// its instances.
struct CollectiveQuery
{
    enum class Keep {
        All,   // every instance the filter accepts
        Worst, // the `worst` complete ones of the largest skew (ties: the first matched) and the
               // first `worst` incomplete ones
        None,
    };
    Keep keep = Keep::All;
    size_t worst = 0;
    bool totals = true; // groups and ranks (false: a caller that needs only the phases or the waits)
    // Instances of ranks that agree are matched a block at a time (the same answers, sooner);
    // false matches every instance one at a time, so that tests can compare the two.
    bool inBlocks = true;
    // Only instances whose group and op it accepts are kept and summed into groups and ranks
    // (phases see them all); null: every instance.
    std::function<bool(std::string_view group, std::string_view op)> select;

    // Neither instances nor totals: for callers whose own sinks take every instance.
    static CollectiveQuery sinksOnly()
    {
        CollectiveQuery q;
        q.keep = Keep::None;
        q.totals = false;
        return q;
    }
};

struct CollectiveAnalysis
{
    std::vector<CollectiveInstance> instances;   // those the query keeps: by group, then index
    size_t instanceCount = 0, completeCount = 0; // every instance the query's filter accepts
    std::vector<CollectiveGroupSummary> groups;
    std::vector<CollectiveRankTotals> ranks; // ranks with complete instances, ascending
    std::vector<int> reportRanks;            // per report given: its rank, -1 when it has no collectives
    std::vector<std::string> notes;          // counts that differ per rank and group, reports without collectives
    std::vector<std::string> errors;         // bad input (see above); the rest is then empty
    bool cancelled = false;                  // stopped by the cancel token: the rest is partial
};

// The median of the members' waits, the last rank left out (its wait is 0 by definition); the
// upper middle one when their count is even. The CLI's text and the GUI's table both show it.
int64_t medianWaitNs(const CollectiveInstance &inst);

// How many times the matcher has run in this process, on any thread: for the benchmark and the test
// that check a scene change matches its run once.
uint64_t collectiveMatchPasses();

// `offsets` per report (trace/alignment.h; empty = all 0). The reports' records are read on
// `threads` threads (0: a few).
CollectiveAnalysis analyzeCollectives(std::span<const trace::ReportPtr> reports, std::span<const int64_t> offsets,
                                      const core::CancelToken *cancel = nullptr, int threads = 0,
                                      const CollectiveQuery &query = {});

} // namespace ps::core::analysis
