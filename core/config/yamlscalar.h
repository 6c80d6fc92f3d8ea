#pragma once
// OmegaConf's implicit typing of plain YAML scalars: PyYAML's YAML 1.1 resolvers with timestamps
// removed and floats extended to accept "1e3" and "1e-6".

#include "core/config/node.h"

#include <string>

namespace ps::core::config {

// Types one plain (unquoted) YAML scalar as OmegaConf's loader does: "yes" -> Bool, "1e3" ->
// Float, "~"/"null"/"" -> Null, "0x1f" -> Int, else Node::text(). Marks are left empty.
Node typePlainScalar(const std::string &text);

} // namespace ps::core::config
