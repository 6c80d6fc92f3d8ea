#pragma once
// What the ruler says: its duration, and where it starts and ends on the axis, in the axis's own
// terms (relative times, or wall-clock times on an axis in UTC), so that a measurement can be
// written down or compared with another tool's without reading the axis by eye.

#include <QString>

#include <cstdint>
#include <optional>

namespace ps::views {

// "12.3 ms: 44.0012 s → 44.0135 s"; the ends have the decimals a hundredth of the duration needs.
QString rulerLabel(int64_t start, int64_t end, std::optional<int64_t> wallClockOrigin);

} // namespace ps::views
