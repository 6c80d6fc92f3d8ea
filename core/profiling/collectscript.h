#pragma once
// A bash script that gathers the reports a profiled run left on its nodes, for opening together:
// every folder of LaunchPlan::collect is copied with rsync from the host the user names for its
// node, into DEST/<host>/<the folder's own path>, so the folder layout (Ray's logs/nsight, the
// RLinf run folder) that report identity reads is kept. A folder on "any node" (Ray places the
// worker) is fetched from every host. "localhost" copies locally.

#include "core/profiling/launchplan.h"

#include <string>

namespace ps::core::profiling {

std::string exportCollectScript(const LaunchPlan &plan, const std::string &configLabel);

} // namespace ps::core::profiling
