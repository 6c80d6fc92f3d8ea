#pragma once
// The first half of analyzeCollectives (collectives.h), internal to core/analysis, in two steps:
//   1. extractCollectives: one report's collective records (its reader's, or those
//      StoreBuilder::build made for kernels known by their NCCL/RCCL names) copied into compact
//      lists, one per shape of record (group, ranks, size, peer, stream), with the op names and
//      process groups the report declares. Nothing refers to the report's store afterwards, so a
//      large run can be read one report at a time and each released once extracted.
//   2. gatherCollectives: the run's extracted reports sorted into communicators, with each
//      communicator's members where the trace says them, and the checks that refuse bad input.

#include "core/analysis/collectivekinds.h"
#include "core/analysis/collectives.h"
#include "core/trace/collectiverecord.h"

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

// One record as the matching sees it; its rank and report are those of the list holding it. Kept
// small (a run holds one per collective per rank) and without initializers, so blocks of them are
// allocated without being written twice.
struct Observed
{
    static constexpr uint64_t kNoBytes = UINT64_MAX;
    trace::EventRef event;
    int64_t start, end; // the report's own clock until gathered, then the shared axis
    int64_t seq;
    uint64_t bytesOrNone;
    uint32_t record; // index into the report's store->collectives()
    uint32_t op;     // index into the report's ops until gathered, then into CollectiveInput::ops

    std::optional<uint64_t> bytes() const
    {
        return bytesOrNone == kNoBytes ? std::nullopt : std::optional<uint64_t>(bytesOrNone);
    }
};
static_assert(sizeof(Observed) == 48);

// A rank's records of one communicator, in blocks that are freed as matching takes the records
// from the front: a large run never holds all its records and all its instances at once.
class ObservedQueue
{
public:
    void push_back(const Observed &o);
    size_t size() const { return m_end - m_head; }
    bool empty() const { return m_end == m_head; }
    const Observed &at(size_t i) const { return slot(m_head + i); }
    const Observed &front() const { return slot(m_head); }
    void pop_front();
    // Appends `other`'s records (a rank with two shapes of record in one communicator).
    void append(ObservedQueue &&other);
    // Shifts the times by `offset` and maps the op indexes through `ops`.
    void rebase(int64_t offset, const std::vector<uint32_t> &ops);
    // Sorted by `less`, stably.
    template <typename Less> void sortBy(Less less);
    template <typename F> void forEach(F f) const
    {
        for (size_t i = m_head; i < m_end; ++i)
            f(slot(i));
    }

private:
    static constexpr size_t kBlock = 1024; // 48 KB: reused by the instances' member lists
    Observed &slot(size_t i) { return m_blocks[i / kBlock][i % kBlock]; }
    const Observed &slot(size_t i) const { return m_blocks[i / kBlock][i % kBlock]; }
    std::vector<Observed> drain();
    std::vector<std::unique_ptr<Observed[]>> m_blocks;
    size_t m_head = 0, m_end = 0; // positions from the first block's start
};

// Inline: the extraction pushes and the matching pops once per member of every instance.
inline void ObservedQueue::push_back(const Observed &o)
{
    if (m_end == m_blocks.size() * kBlock)
        m_blocks.push_back(std::make_unique_for_overwrite<Observed[]>(kBlock));
    slot(m_end++) = o;
}

inline void ObservedQueue::pop_front()
{
    ++m_head;
    if (m_head % kBlock == 0) // the block is used up
        m_blocks[m_head / kBlock - 1].reset();
    if (m_head == m_end) {
        m_blocks.clear();
        m_head = m_end = 0;
    }
}

template <typename Less> void ObservedQueue::sortBy(Less less)
{
    std::vector<Observed> all = drain();
    std::stable_sort(all.begin(), all.end(), less);
    for (const Observed &o : all)
        push_back(o);
}

// What decides a record's communicator, as the report writes it (strings: the store may be gone).
struct RecordShape
{
    trace::CollectiveSource source = trace::CollectiveSource::KernelArgs;
    bool hasGroup = false; // the record names its group
    std::string group, desc, ranks;
    int32_t size = -1;
    int32_t peer = -2;     // send/recv: the other rank (-1 unknown); -2 for other collectives
    int streamOrdinal = 0; // kernels known by name: the report's j-th NCCL stream by first kernel
    std::string place;     // "file: op kernel at T ns (group "G")" of its first record, for errors
    ObservedQueue records;
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
    std::optional<int> rank; // the report's identity
    size_t records = 0;
    std::vector<DeclaredGroup> groups;
    std::vector<std::string> ops;    // op names (an NCCL kernel's collective for kernels known by name)
    std::vector<RecordShape> shapes; // in the order of their first record
};

// One report's records, times on its own clock. Stops early, leaving it partial, when cancelled.
ReportCollectives extractCollectives(const trace::Report &report, const trace::CancelToken *cancel = nullptr);

struct RankRecords
{
    uint32_t report = 0;
    ObservedQueue records;
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
                                  const trace::CancelToken *cancel = nullptr);

// Step 3, in collectives.cpp: the gathered communicators matched into instances, measured (on
// `threads` threads) and summed up; each rank's records are released as they are matched.
CollectiveAnalysis matchCollectives(std::vector<ReportCollectives> &reports, std::span<const int64_t> offsets,
                                    const trace::CancelToken *cancel = nullptr, int threads = 1);

// Adds a member of a complete instance to its rank's totals.
void addToTotals(CollectiveRankTotals &t, const CollectiveMember &m, const CollectiveInstance &inst);

// Per rank, the groups' totals added up; ascending by rank.
std::vector<CollectiveRankTotals> sumTotals(std::span<const CollectiveGroupSummary> groups);

// The rank that arrived last most often, with its count; rank -1 on a tie for the most.
std::pair<int, size_t> mostOftenLast(const std::map<int, size_t> &lastCounts);

// "0, 1, 2" for a message; past `limit` ranks, ", ... (N ranks)".
std::string ranksText(const std::vector<int> &ranks, size_t limit);

} // namespace ps::core::analysis::detail
