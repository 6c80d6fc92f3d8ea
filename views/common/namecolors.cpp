#include "views/common/namecolors.h"

#include <cmath>
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
    const int sat = 60 + int((h >> 9) % 80);   // 60..139: coloured but not garish
    const int val = 225 + int((h >> 17) % 26); // 225..250: light enough for black labels
    return QColor::fromHsv(hue, sat, val);
}

QColor textColorOn(const QColor &background)
{
    // WCAG relative luminance; pick the label colour with the higher contrast ratio.
    auto channel = [](int v) {
        const double c = v / 255.0;
        return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    const double l =
        0.2126 * channel(background.red()) + 0.7152 * channel(background.green()) + 0.0722 * channel(background.blue());
    const double contrastBlack = (l + 0.05) / 0.05;
    const double contrastWhite = 1.05 / (l + 0.05);
    return contrastBlack >= contrastWhite ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace ps::views
