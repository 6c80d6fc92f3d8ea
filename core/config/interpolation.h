#pragma once
// OmegaConf interpolation: ${a.b}, relative ${.x} / ${..x}, string interpolation "pre_${a}_post",
// nested ${a.${b}}, escapes "\${...}", and the resolvers oc.env, oc.select, oc.decode, oc.create.
// A whole-value interpolation ("${a.b}") takes the referenced node's type; an interpolation
// inside a longer string yields a string.

#include "core/config/configerror.h"
#include "core/config/envlookup.h"
#include "core/config/node.h"

#include <string>
#include <string_view>
#include <vector>

namespace ps::core::config {

// Resolves every interpolation in the tree (a copy is returned). A value that cannot be resolved
// (missing key, "???", unset variable without default, bad syntax) is left as written and one
// ConfigError per such value is appended to `problems`, carrying the value's key path and the
// mark of the node that wrote it. Missing ("???") values stay Missing.
Node resolveAll(const Node &root, std::vector<ConfigError> *problems, const EnvLookup &env = processEnvironment());

// Resolves the single value at `keyPath` (and anything it refers to). Throws ConfigError when
// the key is absent or the value cannot be resolved. Containers are resolved recursively.
Node resolveValue(const Node &root, std::string_view keyPath, const EnvLookup &env = processEnvironment());

// Resolves one interpolation string as if it were the value at `keyPath` (relative references
// are taken from there). Throws ConfigError.
Node resolveString(const Node &root, std::string_view keyPath, const std::string &text,
                   const EnvLookup &env = processEnvironment());

} // namespace ps::core::config
