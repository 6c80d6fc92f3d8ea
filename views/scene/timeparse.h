#pragma once
// Times as users type them on the command line and in fields: a number with an optional unit
// (ns, us, µs, ms, s; default ns), and START:END ranges of the shared time axis.

#include <QString>

#include <cstdint>
#include <optional>
#include <utility>

namespace ps::views {

// "1.5ms" -> 1500000, "-20us" -> -20000, "7" -> 7. nullopt when malformed (or fractional ns).
std::optional<int64_t> parseTimeValue(const QString &text);
// "0:50ms" -> {0, 50000000}; nullopt unless START < END.
std::optional<std::pair<int64_t, int64_t>> parseTimeRange(const QString &text);

} // namespace ps::views
