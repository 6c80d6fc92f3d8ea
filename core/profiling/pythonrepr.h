#pragma once
// How Python prints config values, for messages that quote upstream errors ("But got {type}:
// {value}") and for values the frameworks pass through str() (RLinf nsight options, Ray's
// nsight rendering). Containers are OmegaConf's DictConfig/ListConfig, as upstream sees them.

#include "core/config/node.h"

#include <string>
#include <vector>

namespace ps::core::profiling {

// type(v) as Python prints it: "<class 'int'>", "<class 'omegaconf.listconfig.ListConfig'>".
std::string pythonTypeName(const config::Node &value);
// str(v): scalars as OmegaConf gives them ("True", "None", "1.5", text); containers as repr.
std::string pythonStr(const config::Node &value);
// repr(v): strings single-quoted ("'a'"), containers "[1, 'a']" / "{'k': 1}".
std::string pythonRepr(const config::Node &value);
// repr of a string: 'x', or "x" when it holds a ' but no ".
std::string pythonReprString(const std::string &text);
// repr of a list of strings / ints, e.g. ['nsight', 'rocprof_sys'] or [3, 4].
std::string pythonListRepr(const std::vector<std::string> &items);
std::string pythonListRepr(const std::vector<long long> &items);

} // namespace ps::core::profiling
