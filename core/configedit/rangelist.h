#pragma once
// Integer lists as people type them: "0,1,4-7" (ranks) and "3, 10, 50" (steps). Plain C++ so the
// parsing rules are table-tested without widgets. The result is sorted and deduplicated, because
// RLinf and verl only test membership (`step in steps`, `rank in ranks`).

#include <string>
#include <string_view>
#include <vector>

namespace ps::core::configedit {

struct IntListParse
{
    std::vector<long long> values; // ascending, unique
    std::string error;             // empty when the text is valid
    bool ok() const { return error.empty(); }
};

// Items are separated by commas and/or whitespace; an item is N or A-B (inclusive, A <= B). The
// list may also be written as YAML writes it, in brackets: "[2, 4]", as the YAML pane shows it.
// Values below `minValue` are rejected with a message naming it (verl steps count from 1, RLinf
// steps and ranks from 0). A range may expand to at most `maxRangeSize` values, so a typo such as
// "0-1000000000" cannot freeze the editor. Empty text is an empty list.
IntListParse parseIntList(std::string_view text, long long minValue = 0, long long maxRangeSize = 100000);

// The shortest form that parses back to `values`: runs of three or more become "A-B",
// "0,1,4-7". `values` must be ascending and unique.
std::string formatIntList(const std::vector<long long> &values);

} // namespace ps::core::configedit
