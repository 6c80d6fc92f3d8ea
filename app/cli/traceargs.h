#pragma once
// What the trace commands share with the analysis commands (analysiscommands.cpp): the common
// loading options and loading the positional report paths (defined in tracecommands.cpp).

#include "app/cli/cliargs.h"
#include "core/trace/traceloader.h"

#include <ostream>
#include <vector>

namespace ps::cli {

// --cache-dir, --no-cache, --threads.
std::vector<OptionSpec> traceLoadOptions();
// Loads the positional paths; failures go to `err`. Returns false on bad usage (exit `status`
// 2); else `status` is 0, or 1 when some report failed to load.
bool loadTraceArgs(const ParsedArgs &a, std::ostream &err, core::trace::LoadResult &result, int &status);
// A CSV field, quoted when it holds a comma, quote or newline.
std::string csvField(const std::string &s);

} // namespace ps::cli
