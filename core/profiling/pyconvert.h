#pragma once
// Python conversions RLinf applies to config values: bool(v), int(v), lower() and split(sep) + strip().

#include "core/config/node.h"

#include <optional>
#include <string>
#include <vector>

namespace ps::core::profiling {

bool pythonTruthy(const config::Node &value);

// int(v): ints as is, bools 0/1, floats truncated, strings by Python's int() grammar.
// nullopt with `error` set to Python's exception message when int() raises.
std::optional<long long> pythonInt(const config::Node &value, std::string &error);

std::string toLower(std::string text);

// [part.strip() for part in text.split(sep)] (ASCII whitespace).
std::vector<std::string> splitStripped(const std::string &text, char sep);

} // namespace ps::core::profiling
