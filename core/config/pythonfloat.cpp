#include "core/config/pythonfloat.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace ps::core::config {

std::string pythonFloatRepr(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v < 0 ? "-inf" : "inf";
    // Shortest round-trip digits in scientific form: "d.ddde±XX".
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    bool negative = !sci.empty() && sci[0] == '-';
    if (negative)
        sci.erase(0, 1);
    size_t e = sci.find('e');
    std::string mantissa = sci.substr(0, e);
    int exponent = std::atoi(sci.c_str() + e + 1);
    std::string digits;
    for (char c : mantissa)
        if (c != '.')
            digits += c;
    // Python's repr: decimal point position decpt = exponent + 1; exponent form when
    // decpt <= -4 or decpt > 16.
    int decpt = exponent + 1;
    // Built by appending only: GCC 12 at -O3 reports a false -Wrestrict on operator+ chains here.
    std::string out;
    out.reserve(digits.size() + 24);
    if (negative)
        out.push_back('-');
    if (decpt <= -4 || decpt > 16) {
        out.push_back(digits[0]);
        if (digits.size() > 1) {
            out.push_back('.');
            out.append(digits, 1, std::string::npos);
        }
        char expBuf[16];
        std::snprintf(expBuf, sizeof expBuf, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
        out.append(expBuf);
    } else if (decpt <= 0) {
        out.append("0.");
        out.append(static_cast<size_t>(-decpt), '0');
        out.append(digits);
    } else if (static_cast<size_t>(decpt) >= digits.size()) {
        out.append(digits);
        out.append(static_cast<size_t>(decpt) - digits.size(), '0');
        out.append(".0");
    } else {
        out.append(digits, 0, static_cast<size_t>(decpt));
        out.push_back('.');
        out.append(digits, static_cast<size_t>(decpt), std::string::npos);
    }
    return out;
}

std::string yamlFloat(double v)
{
    if (std::isnan(v))
        return ".nan";
    if (std::isinf(v))
        return v < 0 ? "-.inf" : ".inf";
    std::string s = pythonFloatRepr(v);
    size_t e = s.find('e');
    if (e == std::string::npos || s.find('.') != std::string::npos)
        return s;
    std::string out;
    out.reserve(s.size() + 2);
    out.append(s, 0, e);
    out.append(".0");
    out.append(s, e, std::string::npos);
    return out;
}

} // namespace ps::core::config
