#pragma once
// Names that come from traces (NVTX ranges, Kineto ops, digest group names) printed as text or
// CSV: a control character in them must not reach the terminal, where it would set the title,
// clear the screen or forge lines. JSON stays exact (jsonwriter.h escapes for JSON itself).

#include <string>
#include <string_view>

namespace ps::core {

// `s` with every control character escaped: \n, \r and \t as such, other C0 controls and DEL as
// \xNN, C1 controls and the bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069,
// U+200E, U+200F, U+061C) as \uNNNN, and bytes that are not UTF-8 as \xNN. Everything else, a
// backslash included, as it is: names without control characters print byte for byte.
std::string terminalSafe(std::string_view s);

// True when terminalSafe(s) would change `s` (the common case is a name that needs nothing).
bool needsTerminalEscape(std::string_view s);

} // namespace ps::core
