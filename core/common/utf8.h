#pragma once
// Strict UTF-8 decoding of one sequence, for the writers that must tell text from stray bytes
// (comment lines and Python literals of generated scripts: Python refuses a source file that is
// not UTF-8, even in a comment).

#include <cstddef>
#include <string_view>

namespace ps::core {

// The length (1-4) of the well-formed UTF-8 sequence at s[i], its code point in `cp`; 0 when the
// bytes there are not one (a stray continuation byte, a truncated, overlong or surrogate form, or
// a code point beyond U+10FFFF).
size_t decodeUtf8(std::string_view s, size_t i, char32_t &cp);

} // namespace ps::core
