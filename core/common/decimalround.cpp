#include "core/common/decimalround.h"

#include <charconv>
#include <cmath>

namespace ps::core {

namespace {

// Adds one unit at the last digit of `digits` (ASCII digits only), carrying to the left (a new
// leading 1 when every digit was 9).
void incrementDigits(std::string &digits)
{
    for (size_t i = digits.size(); i-- > 0;) {
        if (digits[i] != '9') {
            ++digits[i];
            return;
        }
        digits[i] = '0';
    }
    digits.insert(digits.begin(), '1');
}

} // namespace

std::string fixedHalfAwayFromZero(double value, int decimals)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value < 0 ? "-inf" : "inf";
    char buf[400];
    // The shortest fixed-point text that reads back as `value` ("12.25", "0.15", "1e+300" in full).
    const auto res = std::to_chars(buf, buf + sizeof buf, std::fabs(value), std::chars_format::fixed);
    const std::string text(buf, res.ptr);
    const size_t point = text.find('.');
    std::string whole = text.substr(0, point);
    std::string frac = point == std::string::npos ? std::string() : text.substr(point + 1);
    const bool roundUp = int(frac.size()) > decimals && frac[size_t(decimals)] >= '5';
    frac.resize(size_t(decimals), '0');
    std::string digits = whole + frac;
    if (roundUp)
        incrementDigits(digits);
    std::string out = digits.substr(0, digits.size() - size_t(decimals));
    if (decimals > 0)
        out += '.' + digits.substr(digits.size() - size_t(decimals));
    const bool zero = digits.find_first_not_of('0') == std::string::npos;
    return (value < 0 && !zero ? "-" : "") + out;
}

} // namespace ps::core
