#pragma once
// A bash script that gathers the reports a profiled run left on its nodes, for opening together:
// every folder of LaunchPlan::collect is copied with rsync from the host the user names for its
// node, into DEST/<host>/<the folder's own path>, so the folder layout (Ray's logs/nsight, the
// RLinf run folder) that report identity reads is kept. A folder on "any node" (Ray places the
// worker) is fetched from every host. "localhost" copies locally.
// By default only the digests (*.psdigest, KB-MB each) are fetched; `--full RANK[,RANK...]` adds
// the raw reports of those ranks (globs of the plan's outputs, run-time parts as `*`: verl's nsys
// reports are named by PID only, so there a rank's glob matches every report of the folder), and
// `--all` fetches everything. A folder that yields no digest is a warning and exit status 1.

#include "core/profiling/launchplan.h"

#include <string>

namespace ps::core::profiling {

std::string exportCollectScript(const LaunchPlan &plan, const std::string &configLabel);

} // namespace ps::core::profiling
