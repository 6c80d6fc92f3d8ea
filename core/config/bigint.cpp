#include "core/config/bigint.h"

namespace ps::core::config {

std::string decimalFromDigits(std::string_view digits, int base, bool negative)
{
    // Little-endian decimal digits; each input digit multiplies by the base and adds.
    std::string acc(1, 0);
    for (char c : digits) {
        int d = 99; // not a digit of any base
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        if (d >= base)
            return {};
        for (char &x : acc) {
            const int v = x * base + d;
            x = char(v % 10);
            d = v / 10;
        }
        for (; d > 0; d /= 10)
            acc.push_back(char(d % 10));
    }
    while (acc.size() > 1 && acc.back() == 0)
        acc.pop_back();
    std::string out;
    if (negative && !(acc.size() == 1 && acc[0] == 0))
        out = "-";
    for (auto it = acc.rbegin(); it != acc.rend(); ++it)
        out += char('0' + *it);
    return out;
}

} // namespace ps::core::config
