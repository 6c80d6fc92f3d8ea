#pragma once
// Dotted key paths as Hydra and OmegaConf write them: "actor_rollout_ref.actor.optim.lr",
// "lst.1" or "lst[1]" for a list item. A key that itself contains dots cannot be addressed this
// way (OmegaConf has the same limit).

#include "core/config/node.h"

#include <string>
#include <string_view>
#include <vector>

namespace ps::core::config {

// "a.b[0].c" -> {"a","b","0","c"}. An empty path gives {}.
std::vector<std::string> splitKeyPath(std::string_view path);
std::string joinKeyPath(const std::vector<std::string> &parts);

// One step: a dict key, or a list index written in decimal; nullptr when absent or out of range.
const Node *childNode(const Node &container, std::string_view key);
Node *childNode(Node &container, std::string_view key);

// The node at `path`, or nullptr when any step is absent (list steps must be in range).
const Node *findPath(const Node &root, std::string_view path);
Node *findPath(Node &root, std::string_view path);
// findPath() for showing a key (explain): a step that names no string key also finds a key an
// override typed, by its str() text ("x.1" finds the int key 1 of {1: a}); provenance records
// such keys under that text. Config lookups (overrides, interpolations) use findPath(), as
// OmegaConf's "x.1" names only the string key '1'.
const Node *findPathForDisplay(const Node &root, std::string_view path);

} // namespace ps::core::config
