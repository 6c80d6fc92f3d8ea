#pragma once
// Hydra's command-line override grammar: key=value, +key=value, ++key=value, ~key, ~key=value,
// group=option, group@pkg=option, +group@pkg=option, ~group. Values follow Hydra's grammar, not
// YAML: numbers, true/false (any case), null, quoted strings, [lists], {dicts}, interpolations;
// "yes"/"off" stay strings. Whether a key names a config group is decided at composition time.

#include "core/config/node.h"

#include <string>
#include <string_view>
#include <vector>

namespace ps::core::config {

struct Override
{
    enum class Type { Change, Add, ForceAdd, Delete }; // key=, +key=, ++key=, ~key
    Type type = Type::Change;
    std::string key;     // "a.b" or a group path "db", "env/train"
    std::string package; // the "@pkg" part (group overrides only); empty when absent
    bool hasPackage = false;
    bool hasValue = false; // false only for "~key"
    Node value;            // the parsed value (marks: "<override>")
    std::string valueText; // the value as written after '=' (unparsed)
    std::string text;      // the whole override as given
    bool isSweep = false;  // an unquoted top-level comma list (a,b): rejected by compose
};

// Throws ConfigError with Hydra's "Error parsing override '...'" wording and the column.
Override parseOverride(std::string_view text);

// Parses an override value alone ("[1,2]", "'a b'", "3.5"); throws ConfigError.
Node parseOverrideValue(std::string_view text);

// A value written in override syntax so that parseOverrideValue gives it back:
// 3, 1.5, true, null, abc, 'a b', [1,2], {a: 1}. For `export --as overrides`.
std::string toOverrideValue(const Node &value);

} // namespace ps::core::config
