#include "core/trace/formats/kinetotime.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace ps::core::trace::formats {

std::optional<int64_t> microsTextToNs(std::string_view t)
{
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t' || t.front() == '\n' || t.front() == '\r'))
        t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\n' || t.back() == '\r'))
        t.remove_suffix(1);
    if (t.empty())
        return std::nullopt;
    size_t i = 0;
    const bool neg = t[0] == '-';
    if (neg)
        ++i;
    const size_t intBegin = i;
    uint64_t whole = 0;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
        if (whole > (uint64_t(INT64_MAX) / 1000 - 9) / 10)
            return std::nullopt;
        whole = whole * 10 + uint64_t(t[i] - '0');
    }
    if (i == intBegin)
        return std::nullopt;
    uint64_t frac = 0; // ns digits
    int fracDigits = 0;
    bool roundUp = false;
    if (i < t.size() && t[i] == '.') {
        ++i;
        const size_t fracBegin = i;
        for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
            if (fracDigits < 3) {
                frac = frac * 10 + uint64_t(t[i] - '0');
                ++fracDigits;
            } else if (i == fracBegin + 3) {
                roundUp = t[i] >= '5';
            }
        }
        if (i == fracBegin)
            return std::nullopt;
    }
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        // Rare in traces: fall back to a double, which is exact enough at these magnitudes.
        const std::string s(t);
        char *end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (end != s.c_str() + s.size() || !std::isfinite(v) || std::fabs(v) * 1000.0 > 9.2e18)
            return std::nullopt;
        return int64_t(std::llround(v * 1000.0));
    }
    if (i != t.size())
        return std::nullopt;
    for (; fracDigits < 3; ++fracDigits)
        frac *= 10;
    const int64_t ns = int64_t(whole * 1000 + frac + (roundUp ? 1 : 0));
    return neg ? -ns : ns;
}

} // namespace ps::core::trace::formats
