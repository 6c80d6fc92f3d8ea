#pragma once
// The first half of analyzeCollectives (collectives.h), internal to core/analysis, in two steps:
//   1. extractCollectives: one report's collective records (its reader's, or those
//      StoreBuilder::build made for kernels known by their NCCL/RCCL names) sorted into lists,
//      one per shape of record (group, ranks, size, peer, stream), with the op names and process
//      groups the report declares. The lists read the records in place (collectiverecords.h) or
//      hold copies, so that a large run can be read one report at a time and each released once
//      extracted.
//   2. gatherCollectives: the run's extracted reports sorted into communicators, with each
//      communicator's members where the trace says them, and the checks that refuse bad input.

#include "core/analysis/collectives/collectivekinds.h"
#include "core/analysis/collectives/collectiverecords.h"
#include "core/analysis/collectives/collectives.h"
#include "core/trace/store/collectiverecord.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::analysis::detail {

// What decides a record's communicator, as the report writes it (strings: the store may be gone).
// A reading of a kept shape for another report copies these and takes records of its own.
struct ShapeFacts
{
    trace::CollectiveSource source = trace::CollectiveSource::KernelArgs;
    bool hasGroup = false; // the record names its group
    std::string group, desc, ranks;
    int32_t size = -1;
    int32_t peer = -2;     // send/recv: the other rank (-1 unknown); -2 for other collectives
    int streamOrdinal = 0; // kernels known by name: the report's j-th NCCL stream by first kernel
    std::string place;     // "file: op kernel at T ns (group "G")" of its first record, for errors
};

// A shape and its records.
struct RecordShape : ShapeFacts
{
    std::unique_ptr<RecordSource> records;
};

struct DeclaredGroup // distributedInfo: a pg_config entry, or the world
{
    std::string name, ranks;
    int32_t size = -1;
    bool isWorld = false;
};

struct ReportCollectives
{
    std::string path;
    std::string error;       // why its records could not be read (a damaged digest), "" when they were
    std::optional<int> rank; // the report's identity
    size_t records = 0;
    std::vector<DeclaredGroup> groups;
    std::vector<std::string> ops;    // op names (an NCCL kernel's collective for kernels known by name)
    std::vector<RecordShape> shapes; // in the order of their first record
};

struct RankRecords
{
    uint32_t report = 0;
    std::unique_ptr<RecordSource> records;
};

struct Communicator
{
    std::string name, desc;
    MatchMethod orderMethod = MatchMethod::GroupOrder;
    std::shared_ptr<const std::vector<int>> members; // ascending; null when the trace does not say
    int size = -1;
    std::string unmatchable;   // set when no instance can be matched (and why)
    bool nameOnly = false;     // kernels known by name only
    bool pointToPoint = false; // send/recv: PyTorch's P2P Seq counts per rank, not per pair
    std::map<int, RankRecords> byRank;
};

struct CollectiveInput
{
    std::map<std::string, Communicator> communicators; // by key
    std::set<int> ranks;                               // ranks with collective data
    std::vector<int> reportRanks;                      // per report: its rank, -1 without collective data
    std::optional<int> worldSize;
    std::vector<std::string> ops; // the run's op names, interned once
    std::vector<CollectiveKind> kinds;
    std::vector<std::string> notes, errors;
};

// The extracted reports (moved from) put on the shared axis by `offsets` (empty = all 0) and into
// communicators. Stops early, leaving the input partial, when `cancel` is set.
CollectiveInput gatherCollectives(std::vector<ReportCollectives> &reports, std::span<const int64_t> offsets,
                                  const core::CancelToken *cancel = nullptr);

class InstanceSink; // collectivesink.h

// Steps 2 and 3 (collectives.cpp): the reports gathered, matched into instances and summed up as
// `query` asks; every instance also goes to the `extra` sinks (the phase rows, the waits). Each
// rank's records are released as they are matched.
CollectiveAnalysis matchCollectives(std::vector<ReportCollectives> &reports, std::span<const int64_t> offsets,
                                    const CollectiveQuery &query, std::span<InstanceSink *const> extra = {},
                                    const core::CancelToken *cancel = nullptr);

// Adds a member of a complete instance to its rank's totals: its wait, its time in the kernel, and
// when it arrived last, the sum of the instance's waits (the wait it caused).
void addMember(CollectiveRankTotals &t, int rank, int64_t waitNs, int64_t kernelNs, bool arrivedLast,
               int64_t instanceWaitsNs);

// Per rank, the groups' totals added up; ascending by rank.
std::vector<CollectiveRankTotals> sumTotals(std::span<const CollectiveGroupSummary> groups);

// The rank that arrived last most often, with its count; rank -1 on a tie for the most.
std::pair<int, size_t> mostOftenLast(const std::map<int, size_t> &lastCounts);

// "0, 1, 2" for a message; past `limit` ranks, ", ... (N ranks)".
std::string ranksText(const std::vector<int> &ranks, size_t limit);

} // namespace ps::core::analysis::detail
