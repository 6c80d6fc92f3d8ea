#pragma once
// What the trace commands (info, stats, align) share: the load options, and loading the reports
// their positionals name with failures reported on `err`.

#include "app/cli/cliargs.h"
#include "core/trace/read/traceloader.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ps::cli {

// --cache-dir, --no-cache, --threads.
std::vector<OptionSpec> traceLoadOptions();
// A whole decimal integer, or nothing ("12x", "" and overflow are nothing).
std::optional<long long> parseInt(const std::string &s);
// Option --NAME as a count (a whole number >= 0), `fallback` when not given; nullopt when it is
// not one, reported on `err` (callers exit with 2).
std::optional<size_t> countArg(const ParsedArgs &a, const std::string &name, size_t fallback, std::ostream &err);
// The load options the arguments give (--cache-dir, --no-cache, --threads); false on bad usage,
// reported, with `status` 2.
bool loadOptionsFromArgs(const ParsedArgs &a, std::ostream &err, core::trace::LoadOptions &opt, int &status);
// Loads `paths`. Failures go to `err`; `status` is 1 when any failed or none was found, else 0.
void loadPaths(const std::vector<std::string> &paths, const core::trace::LoadOptions &opt, std::ostream &err,
               core::trace::LoadResult &result, int &status);
// Loads the positional paths. Failures go to `err` and make `status` 1; returns false on bad
// usage (no report given, a bad --threads), with `status` 2.
// `digestOutlines`: digests open as outlines (LoadOptions::digestOutlines).
bool loadFromArgs(const ParsedArgs &a, std::ostream &err, core::trace::LoadResult &result, int &status,
                  bool digestOutlines = false);

} // namespace ps::cli
