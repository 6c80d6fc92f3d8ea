#pragma once
// YAML loading on libyaml (the C twin of the PyYAML parser OmegaConf uses, so a file fails to
// parse here where it fails in Hydra) with OmegaConf's typing (yamlscalar.h: YAML 1.1 bools such
// as yes/off, 1e3 as a float, '1' quoted stays a string) and a source mark on every node.
// Duplicate keys and malformed YAML are errors located at file:line:col.

#include "core/config/node.h"

#include <string>
#include <string_view>

namespace ps::core::config {

struct LoadedYaml
{
    Node root; // Dict for a mapping document; Null for an empty file
    bool hasPackageHeader = false;
    std::string packageHeader; // the value of a "# @package X" header line, when present
};

// Throws ConfigError. `fileName` only labels marks and messages.
LoadedYaml loadYamlText(std::string_view text, const std::string &fileName);
// Throws ConfigError (also when the file cannot be read).
LoadedYaml loadYamlFile(const std::string &path);

} // namespace ps::core::config
