#pragma once
// A launch script for the composed run: a bash script that submits the job with the session's
// overrides (verl: `ray job submit ... -- python3 -m verl.trainer.main_ppo ...`; RLinf: the
// driver line) and lists where the reports will appear. Pure text; the workspace writes it
// atomically.

#include "core/profiling/analysis.h"

#include <string>

namespace ps::core::configedit {

std::string launchScript(const core::profiling::AnalysisResult &analysis, const std::string &configLabel);

} // namespace ps::core::configedit
