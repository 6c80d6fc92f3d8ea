#pragma once
// Checks and measures of one matched instance (collectivecheck.cpp): why it cannot be measured,
// the members it lacks, and its last arrival, skew, transfer and bandwidth.

#include "core/analysis/collectives/collectivesink.h"

#include <span>
#include <string>

namespace ps::core::analysis::detail {

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

} // namespace ps::core::analysis::detail
