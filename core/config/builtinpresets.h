#pragma once
// The YAML presets shipped in resources/presets, compiled into the library (a generated table)
// so that profstudio-cli needs no install. They form the last config root of every search path.

#include <string_view>
#include <vector>

namespace ps::core::config {

struct BuiltinPreset
{
    std::string_view path;    // relative to the presets root, e.g. "profile/default.yaml"
    std::string_view content; // the file's bytes
};

const std::vector<BuiltinPreset> &builtinPresets();
// nullptr when there is no such preset.
const BuiltinPreset *findBuiltinPreset(std::string_view path);

// The label used in marks and messages for built-in files: "<builtin>".
inline constexpr std::string_view kBuiltinRoot = "<builtin>";

} // namespace ps::core::config
