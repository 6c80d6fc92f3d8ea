#pragma once
// Every profstudio-cli subcommand has this shape: it gets its arguments (without the program and
// subcommand words), writes results to `out` and diagnostics to `err`, and returns the exit
// status of ../shared/spec/cli.md: 0 success, 1 the input has errors, 2 bad usage.

#include <ostream>
#include <string>
#include <vector>

namespace ps::cli {

using Args = std::vector<std::string>;

// Config (configcommands.cpp)
int cmdCompose(const Args &args, std::ostream &out, std::ostream &err);
int cmdExplain(const Args &args, std::ostream &out, std::ostream &err);
// Profiling (profilingcommands.cpp)
int cmdValidate(const Args &args, std::ostream &out, std::ostream &err);
int cmdPlan(const Args &args, std::ostream &out, std::ostream &err);
int cmdExport(const Args &args, std::ostream &out, std::ostream &err);
// Traces (tracecommands.cpp)
int cmdTraceInfo(const Args &args, std::ostream &out, std::ostream &err);
int cmdTraceStats(const Args &args, std::ostream &out, std::ostream &err);
int cmdTraceAlign(const Args &args, std::ostream &out, std::ostream &err);
int cmdTraceCache(const Args &args, std::ostream &out, std::ostream &err);  // cachecommands.cpp
int cmdTraceDigest(const Args &args, std::ostream &out, std::ostream &err); // digestcommand.cpp
// GPU time analyses (analysiscommands.cpp)
int cmdTraceBreakdown(const Args &args, std::ostream &out, std::ostream &err);
int cmdTraceProjection(const Args &args, std::ostream &out, std::ostream &err);
int cmdTracePhases(const Args &args, std::ostream &out, std::ostream &err);
int cmdTraceCompare(const Args &args, std::ostream &out, std::ostream &err);
int cmdTraceMemory(const Args &args, std::ostream &out, std::ostream &err);      // memorycommands.cpp
int cmdTraceCollectives(const Args &args, std::ostream &out, std::ostream &err); // collectivecommands.cpp
// Demo run generator (democommand.cpp)
int cmdDemo(const Args &args, std::ostream &out, std::ostream &err);

} // namespace ps::cli
