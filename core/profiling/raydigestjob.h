#pragma once
// A Ray job that digests a run's reports where they were written, on the cluster's own Ray (for
// RLinf and for verl releases without finish_hook_cmd): a short Python driver that starts one
// task on every alive node, pinned there with Ray's NodeAffinitySchedulingStrategy (soft=False).
// Each task runs `profstudio-cli trace digest` (the node's $PROFSTUDIO_CLI, else the one on PATH)
// over the folders of LaunchPlan::collect that exist on its node; the driver prints one line per
// node as its task finishes and a summary of the failures, and exits 1 when any report failed.
// Which Ray node is the plan's node i is only known to Ray at run time, hence every node looks
// at every folder the plan names; a folder a node does not have is skipped.
// The header comment carries the `ray job submit` line.

#include "core/profiling/launchplan.h"

#include <string>

namespace ps::core::profiling {

std::string exportRayDigestJob(const LaunchPlan &plan, const std::string &configLabel);

} // namespace ps::core::profiling
