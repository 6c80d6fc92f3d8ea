#include "views/common/namecolors.h"

#include <cstdint>

namespace ps::views {

namespace {
// FNV-1a: cheap, and stable across runs and platforms (std::hash is neither guaranteed).
uint32_t fnv1a(std::string_view s)
{
    uint32_t h = 2166136261u;
    for (unsigned char c : s) {
        h ^= c;
        h *= 16777619u;
    }
    return h;
}
} // namespace

QColor colorForName(std::string_view name)
{
    const uint32_t h = fnv1a(name);
    const int hue = int(h % 360);
    const int sat = 110 + int((h >> 9) % 90);  // 110..199: coloured but not garish
    const int val = 200 + int((h >> 17) % 46); // 200..245: light enough for black labels
    return QColor::fromHsv(hue, sat, val);
}

QColor textColorOn(const QColor &background)
{
    // Relative luminance (sRGB weights); 140 splits readable-with-black from readable-with-white.
    const int y = (background.red() * 299 + background.green() * 587 + background.blue() * 114) / 1000;
    return y >= 140 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace ps::views
