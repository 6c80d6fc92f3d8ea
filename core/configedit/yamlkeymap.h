#pragma once
// Which key path each line of an emitted YAML text shows, so that hovering a line can show that
// key's provenance and a diagnostic's key can scroll the YAML pane to its line. The map is built
// by walking the tree in emission order and finding each entry's line by its indentation and key
// text; lines in between (a long scalar folded by the emitter) belong to the entry above.

#include "core/config/node.h"

#include <map>
#include <string>
#include <vector>

namespace ps::core::configedit {

struct YamlKeyMap
{
    std::vector<std::string> lineKeys;   // 0-based line -> dotted key path ("" = none)
    std::map<std::string, int> keyLines; // key path -> 0-based line of its entry
};

YamlKeyMap buildYamlKeyMap(const core::config::Node &root, const std::string &yaml);

} // namespace ps::core::configedit
