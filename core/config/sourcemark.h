#pragma once
// Where a piece of configuration text came from. Lines and columns are 1-based, as editors and
// the CLI's "FILE:LINE:COL: error:" convention count them; 0 means "unknown".

#include <string>

namespace ps::core::config {

struct SourceMark
{
    std::string file; // absolute or as given; "<builtin>/profile/default.yaml" for presets,
                      // "<override>" for command-line values
    int line = 0;
    int column = 0;

    bool isKnown() const { return !file.empty(); }
    // "file:line:col", "file:line" or "file"; empty when unknown.
    std::string toString() const;
};

} // namespace ps::core::config
