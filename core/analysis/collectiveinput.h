#pragma once
// The first half of analyzeCollectives (collectives.h), internal to core/analysis: every
// report's collective records (its reader's, or those StoreBuilder::build made for kernels known
// by their NCCL/RCCL names) sorted into communicators, with each communicator's members where the
// trace says them, and the checks that refuse bad input.

#include "core/analysis/collectives.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::analysis::detail {

// One record as the matching sees it; kept small (a run holds one per collective per rank).
struct Observed
{
    static constexpr uint64_t kNoBytes = UINT64_MAX;
    uint32_t report = 0;
    uint32_t record = 0; // index into the report's store->collectives()
    int rank = -1;
    trace::EventRef event;
    int64_t start = 0, end = 0; // shared axis
    int64_t seq = -1;
    std::string_view op; // points into the report's name table
    uint64_t bytesOrNone = kNoBytes;

    std::optional<uint64_t> bytes() const
    {
        return bytesOrNone == kNoBytes ? std::nullopt : std::optional<uint64_t>(bytesOrNone);
    }
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
    std::map<int, std::vector<Observed>> byRank;
};

struct CollectiveInput
{
    std::map<std::string, Communicator> communicators; // by key
    std::set<int> ranks;                               // ranks with collective data
    std::vector<int> reportRanks;                      // per report: its rank, -1 without collective data
    std::optional<int> worldSize;
    std::vector<std::string> notes, errors;
};

// Stops early, leaving the input partial, when `cancel` is set.
CollectiveInput gatherCollectives(std::span<const trace::ReportPtr> reports, std::span<const int64_t> offsets,
                                  const trace::CancelToken *cancel = nullptr);

// Adds a member of a complete instance to its rank's totals.
void addToTotals(CollectiveRankTotals &t, const CollectiveMember &m, const CollectiveInstance &inst);

// The rank that arrived last most often, with its count; rank -1 on a tie for the most.
std::pair<int, size_t> mostOftenLast(const std::map<int, size_t> &lastCounts);

// "0, 1, 2" for a message; past `limit` ranks, ", ... (N ranks)".
std::string ranksText(const std::vector<int> &ranks, size_t limit);

} // namespace ps::core::analysis::detail
