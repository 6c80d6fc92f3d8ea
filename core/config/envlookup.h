#pragma once
// Environment lookups go through a function so that tests and the GUI can compose with a
// controlled environment (oc.env, hydra.searchpath's ${oc.env:EMBODIED_PATH}).

#include <functional>
#include <optional>
#include <string>

namespace ps::core::config {

using EnvLookup = std::function<std::optional<std::string>(const std::string &name)>;

// Reads the process environment (getenv).
EnvLookup processEnvironment();

} // namespace ps::core::config
