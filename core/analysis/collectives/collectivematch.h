#pragma once
// The matcher: every instance of the gathered communicators handed to the sinks in match order.

#include "core/analysis/collectives/collectivesink.h"

#include <span>

namespace ps::core::analysis::detail {

// Matches the gathered communicators (gatherCollectives), handing every instance to `sinks` in
// match order (by communicator, then index), and releasing each rank's records as they are
// matched. The notes of counts that differ go to in.notes. Stops early when cancelled.
void matchInstances(CollectiveInput &in, std::span<InstanceSink *const> sinks, const core::CancelToken *cancel,
                    bool inBlocks = true);

} // namespace ps::core::analysis::detail
