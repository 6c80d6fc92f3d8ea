#pragma once
// RLinf `cluster.tracer` (spec profiling-config-2026.md R1; RLinf a3816b59 rlinf/config.py
// validate_cfg, rlinf/scheduler/cluster/cluster.py, rlinf/scheduler/manager/tracer.py): read as
// validate_cfg reads it, and the Tracer manager actor it launches shown in the plan.

#include "core/profiling/configreader.h"
#include "core/profiling/launchoptions.h"
#include "core/profiling/launchplan.h"
#include "core/profiling/profileplan.h"

namespace ps::core::profiling {

// Fills out.tracer (needs out.logPath / out.experimentName) and appends diagnostics.
void readRLinfTracer(const ConfigReader &cfg, RLinfProfiling &out, Diagnostics &diags);

// Adds the Tracer actor (node rank 0) with its output file, where to collect it, and notes.
void planRLinfTracer(const RLinfTracer &tracer, LaunchPlan &plan);

} // namespace ps::core::profiling
