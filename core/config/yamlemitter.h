#pragma once
// YAML emission byte-identical to OmegaConf.to_yaml (PyYAML's safe dumper with
// default_flow_style=False, sort_keys=False, allow_unicode=True): block style, 2-space indent,
// lists not indented under their key, "{}" / "[]" for empty collections, PyYAML's quoting of
// strings that would read back as another type, floats as Python repr ("1.0e-06" style), null.

#include "core/config/node.h"

#include <string>

namespace ps::core {
class JsonWriter;
}

namespace ps::core::config {

// The whole tree as OmegaConf.to_yaml prints it (interpolations kept as written; resolve first
// with resolveAll() for `--resolve`). A scalar root prints as a one-document scalar.
std::string toYaml(const Node &root);

// One scalar as PyYAML writes it in a block mapping value: "'1'", "null", "1.0e-06", "abc".
std::string yamlScalar(const Node &scalar);

// The tree as JSON (Missing -> "???", interpolations as their text).
void writeJson(const Node &root, JsonWriter &json);

} // namespace ps::core::config
