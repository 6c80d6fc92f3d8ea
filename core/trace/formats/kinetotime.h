#pragma once
// Exact conversion of Chrome-trace microsecond numbers to integer nanoseconds.
//
// Kineto writes ts/dur in µs: integers (older), or decimals carrying a nanosecond fraction
// ("1713466870123456.789", or relative "4203669603187.439"). A double holds ~16 significant
// digits, so epoch-µs values with a fraction lose their ns digits when parsed as a double;
// the number's text is converted digit by digit instead.

#include <cstdint>
#include <optional>
#include <string_view>

namespace ps::core::trace::formats {

// "123", "-4.5", "1713466870123456.789", "1.5e3" -> ns (µs * 1000), rounded half away from
// zero at the ns digit. Leading/trailing JSON whitespace is ignored. nullopt when the text is not
// a number or the value does not fit int64 ns.
std::optional<int64_t> microsTextToNs(std::string_view text);

} // namespace ps::core::trace::formats
