#include "core/config/yamlscalar.h"

#include "core/config/bigint.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>

namespace ps::core::config {

namespace {

// ---- OmegaConf's implicit typing of plain scalars (PyYAML's YAML 1.1 resolvers, timestamps
// removed, floats extended to accept "1e3" and "1e-6") ----

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// [0-9_]* from i; returns the end.
size_t skipDigitsUnderscore(const std::string &s, size_t i)
{
    while (i < s.size() && (isDigit(s[i]) || s[i] == '_'))
        ++i;
    return i;
}

// (:[0-5]?[0-9])+ from i; returns the end or npos when there is no such group.
size_t skipSexagesimal(const std::string &s, size_t i)
{
    size_t groups = 0;
    while (i < s.size() && s[i] == ':') {
        size_t j = i + 1;
        if (j + 1 < s.size() && s[j] >= '0' && s[j] <= '5' && isDigit(s[j + 1]))
            j += 2;
        else if (j < s.size() && isDigit(s[j]))
            j += 1;
        else
            break;
        i = j;
        ++groups;
    }
    return groups ? i : std::string::npos;
}

bool matchesBool(const std::string &s, bool &value)
{
    static const std::map<std::string, bool> k = {
        {"yes", true},  {"Yes", true},  {"YES", true},  {"no", false},    {"No", false},    {"NO", false},
        {"true", true}, {"True", true}, {"TRUE", true}, {"false", false}, {"False", false}, {"FALSE", false},
        {"on", true},   {"On", true},   {"ON", true},   {"off", false},   {"Off", false},   {"OFF", false}};
    auto it = k.find(s);
    if (it == k.end())
        return false;
    value = it->second;
    return true;
}

bool matchesInt(const std::string &s)
{
    size_t i = 0;
    if (i < s.size() && (s[i] == '-' || s[i] == '+'))
        ++i;
    std::string body = s.substr(i);
    if (body.empty())
        return false;
    auto allOf = [&](size_t from, auto pred) {
        if (from >= body.size())
            return false;
        for (size_t k = from; k < body.size(); ++k)
            if (!pred(body[k]))
                return false;
        return true;
    };
    if (body.rfind("0b", 0) == 0)
        return allOf(2, [](char c) { return c == '0' || c == '1' || c == '_'; });
    if (body.rfind("0x", 0) == 0)
        return allOf(2, [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) || c == '_'; });
    if (body[0] == '0')
        return body.size() == 1 || allOf(1, [](char c) { return (c >= '0' && c <= '7') || c == '_'; });
    if (body[0] < '1' || body[0] > '9')
        return false;
    size_t j = skipDigitsUnderscore(body, 1);
    if (j == body.size())
        return true;
    size_t k = skipSexagesimal(body, j);
    return k == body.size();
}

bool matchesFloat(const std::string &s)
{
    size_t i = 0;
    bool signedForm = i < s.size() && (s[i] == '-' || s[i] == '+');
    if (signedForm)
        ++i;
    auto exponentAt = [&](size_t j, bool signRequired) {
        if (j >= s.size() || (s[j] != 'e' && s[j] != 'E'))
            return std::string::npos;
        ++j;
        if (j < s.size() && (s[j] == '-' || s[j] == '+'))
            ++j;
        else if (signRequired)
            return std::string::npos;
        size_t k = j;
        while (k < s.size() && isDigit(s[k]))
            ++k;
        return k > j ? k : std::string::npos;
    };
    std::string rest = s.substr(i);
    if (rest == ".inf" || rest == ".Inf" || rest == ".INF")
        return true;
    if (!signedForm && (rest == ".nan" || rest == ".NaN" || rest == ".NAN"))
        return true;
    if (i < s.size() && s[i] == '.') {
        // \.[0-9_]+([eE][-+][0-9]+)?   (no sign allowed)
        if (signedForm)
            return false;
        size_t j = skipDigitsUnderscore(s, i + 1);
        if (j == i + 1)
            return false;
        if (j == s.size())
            return true;
        return exponentAt(j, true) == s.size();
    }
    if (i >= s.size() || !isDigit(s[i]))
        return false;
    size_t j = skipDigitsUnderscore(s, i + 1);
    if (j == s.size())
        return false; // an int
    if (s[j] == '.') {
        size_t k = skipDigitsUnderscore(s, j + 1);
        if (k == s.size())
            return true;
        return exponentAt(k, false) == s.size();
    }
    if (s[j] == 'e' || s[j] == 'E')
        return exponentAt(j, false) == s.size();
    if (s[j] == ':') {
        size_t k = skipSexagesimal(s, j);
        if (k == std::string::npos || k >= s.size() || s[k] != '.')
            return false;
        return skipDigitsUnderscore(s, k + 1) == s.size();
    }
    return false;
}

std::string withoutUnderscores(const std::string &s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s)
        if (c != '_')
            out += c;
    return out;
}

// Base-60 value of "1:30:05" style digits (sign handled by the caller), in double so that a
// long chain of groups cannot overflow an integer.
bool sexagesimal(const std::string &body, double &out)
{
    double value = 0;
    size_t start = 0;
    while (start <= body.size()) {
        size_t colon = body.find(':', start);
        std::string part = body.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (part.empty())
            return false;
        value = value * 60 + std::strtod(part.c_str(), nullptr);
        if (colon == std::string::npos)
            break;
        start = colon + 1;
    }
    out = value;
    return true;
}

// PyYAML's int constructor: sign, then 0b / 0x / leading-0 octal / sexagesimal / decimal.
// Values beyond 64 bits are kept exactly as decimal text in `big` (Python ints are unbounded).
bool constructInt(const std::string &text, int64_t &out, std::string &big)
{
    std::string v = withoutUnderscores(text);
    bool negative = false;
    if (!v.empty() && (v[0] == '-' || v[0] == '+')) {
        negative = v[0] == '-';
        v.erase(0, 1);
    }
    if (v.empty())
        return false;
    std::string_view digits = v;
    int base = 10;
    if (v == "0") {
        out = 0;
        return true;
    }
    if (v.rfind("0b", 0) == 0) {
        base = 2;
        digits.remove_prefix(2);
    } else if (v.rfind("0x", 0) == 0) {
        base = 16;
        digits.remove_prefix(2);
    } else if (v[0] == '0') {
        base = 8;
    } else if (v.find(':') != std::string::npos) {
        double d = 0;
        // Sexagesimal beyond 64 bits keeps the text (it would need exact base-60 arithmetic).
        if (!sexagesimal(v, d) || d >= 9.2e18)
            return false;
        out = (negative ? -1 : 1) * static_cast<long long>(d);
        return true;
    }
    errno = 0;
    const long long value = std::strtoll(std::string(digits).c_str(), nullptr, base);
    if (errno != ERANGE) {
        out = negative ? -value : value;
        return true;
    }
    big = decimalFromDigits(digits, base, negative);
    if (big.empty())
        return false;
    if (big == "-9223372036854775808") { // INT64_MIN itself: overflowed only as a positive body
        big.clear();
        out = INT64_MIN;
    }
    return true;
}

bool constructFloat(const std::string &text, double &out)
{
    std::string v = withoutUnderscores(text);
    for (char &c : v)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    double sign = 1.0;
    if (!v.empty() && (v[0] == '-' || v[0] == '+')) {
        sign = v[0] == '-' ? -1.0 : 1.0;
        v.erase(0, 1);
    }
    if (v == ".inf") {
        out = sign * INFINITY;
        return true;
    }
    if (v == ".nan") {
        out = NAN;
        return true;
    }
    if (v.find(':') != std::string::npos) {
        double value = 0;
        if (!sexagesimal(v, value))
            return false;
        out = sign * value;
        return true;
    }
    if (v.empty() || v == ".")
        return false; // PyYAML would raise on "._"; keep the text instead of crashing
    char *end = nullptr;
    double value = std::strtod(v.c_str(), &end);
    if (end != v.c_str() + v.size())
        return false;
    out = sign * value;
    return true;
}

} // namespace

Node typePlainScalar(const std::string &text)
{
    if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL")
        return Node::null();
    bool b = false;
    if (matchesBool(text, b))
        return Node::boolean(b);
    char c = text[0];
    if (isDigit(c) || c == '-' || c == '+' || c == '.') {
        if (matchesInt(text)) {
            int64_t v = 0;
            std::string big;
            if (constructInt(text, v, big))
                return big.empty() ? Node::integer(v) : Node::bigInteger(std::move(big));
        } else if (matchesFloat(text)) {
            double d = 0;
            if (constructFloat(text, d))
                return Node::floating(d);
        }
    }
    return Node::text(text);
}

} // namespace ps::core::config
