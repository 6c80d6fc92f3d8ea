#pragma once
// nsys's -o as the frameworks pass it: whether it names each worker's rank, the fix that makes it
// do so, and the file name it predicts. Shared by the RLinf and verl rules and plans.

#include <string>
#include <utility>
#include <vector>

namespace ps::core::profiling {

// Whether `o` names a rank from the worker's environment (%q{RANK}, %q{OMPI_COMM_WORLD_RANK}, ...),
// in the file name or in a folder per rank.
bool namesRankVariable(const std::string &o);

// `o` with the rank each worker's environment holds (%q{RANK}) before its %p, or at its end.
std::string withRankVariable(const std::string &o);

// `o` as nsys expands it, with what is known at plan time: %p becomes <PID>, %h <hostname>,
// %q{VAR} the value `env` gives VAR, else <VAR>.
std::string expandNsysOutput(const std::string &o, const std::vector<std::pair<std::string, std::string>> &env);

} // namespace ps::core::profiling
