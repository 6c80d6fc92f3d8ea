#pragma once
// The rules that belong to some verl releases only (../shared/spec/profiling-config-2026.md
// V2-V10): each rule is a row of a table with the first and last release it applies to, so a
// rule of one version never fires on another (precision_debugger from 0.8, the torch schedule
// from 0.9, relocation and the finish hook on main, reward_model.profiler gone from 0.7.1).
// Rows also fill the version's extra model fields (schedule, finish hook, py_executable).

#include "core/profiling/configreader.h"
#include "core/profiling/profileplan.h"
#include "core/profiling/verlschema.h"

namespace ps::core::profiling {

void checkVerlVersionRules(const ConfigReader &cfg, const VerlReadOptions &options, VerlProfiling &out,
                           Diagnostics &diags);

} // namespace ps::core::profiling
