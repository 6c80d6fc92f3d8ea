#include "core/common/naturalorder.h"

namespace ps::core {

namespace {
bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// The digit run starting at `i`, without leading zeros; advances `i` past it.
std::string_view digitRun(std::string_view s, size_t &i)
{
    size_t begin = i;
    while (i < s.size() && isDigit(s[i]))
        ++i;
    while (begin + 1 < i && s[begin] == '0')
        ++begin;
    return s.substr(begin, i - begin);
}
} // namespace

bool naturalLess(std::string_view a, std::string_view b)
{
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            const std::string_view x = digitRun(a, i), y = digitRun(b, j);
            if (x.size() != y.size())
                return x.size() < y.size(); // more digits, larger value
            if (x != y)
                return x < y;
            continue;
        }
        if (a[i] != b[j])
            return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
        ++i;
        ++j;
    }
    if ((i < a.size()) != (j < b.size()))
        return j < b.size(); // a is a prefix of b
    return a < b;            // equal up to zero padding
}

} // namespace ps::core
