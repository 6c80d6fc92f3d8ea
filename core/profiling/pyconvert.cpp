#include "core/profiling/pyconvert.h"

#include "core/profiling/pythonrepr.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace ps::core::profiling {

using config::Node;

bool pythonTruthy(const Node &v)
{
    switch (v.kind()) {
    case Node::Kind::Null:
        return false;
    case Node::Kind::Bool:
        return v.asBool();
    case Node::Kind::Int:
        return v.asInt() != 0;
    case Node::Kind::Float:
        return v.asFloat() != 0.0;
    case Node::Kind::String:
    case Node::Kind::Missing:
    case Node::Kind::Interpolation:
        return !v.asString().empty();
    case Node::Kind::Dict:
    case Node::Kind::List:
        return v.size() > 0;
    }
    return false;
}

std::optional<long long> pythonInt(const Node &v, std::string &error)
{
    switch (v.kind()) {
    case Node::Kind::Int:
        return v.asInt();
    case Node::Kind::Bool:
        return v.asBool() ? 1 : 0;
    case Node::Kind::Float: {
        const double d = v.asFloat();
        if (std::isnan(d) || std::isinf(d)) {
            error = std::isnan(d) ? "cannot convert float NaN to integer" : "cannot convert float infinity to integer";
            return std::nullopt;
        }
        return static_cast<long long>(std::trunc(d));
    }
    case Node::Kind::String:
    case Node::Kind::Missing:
    case Node::Kind::Interpolation: {
        const std::string &s = v.asString();
        size_t b = 0, e = s.size();
        while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
            ++b;
        while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
            --e;
        std::string digits;
        bool negative = false;
        size_t i = b;
        if (i < e && (s[i] == '+' || s[i] == '-'))
            negative = s[i++] == '-';
        bool ok = i < e;
        bool lastUnderscore = true; // no leading underscore
        for (; ok && i < e; ++i) {
            if (std::isdigit(static_cast<unsigned char>(s[i]))) {
                digits += s[i];
                lastUnderscore = false;
            } else if (s[i] == '_' && !lastUnderscore) {
                lastUnderscore = true;
            } else {
                ok = false;
            }
        }
        if (!ok || lastUnderscore || digits.size() > 18) {
            error = "invalid literal for int() with base 10: " + pythonReprString(s);
            return std::nullopt;
        }
        const long long n = std::stoll(digits);
        return negative ? -n : n;
    }
    case Node::Kind::Null:
        error = "int() argument must be a string, a bytes-like object or a real number, not 'NoneType'";
        return std::nullopt;
    case Node::Kind::Dict:
        error = "int() argument must be a string, a bytes-like object or a real number, not 'DictConfig'";
        return std::nullopt;
    case Node::Kind::List:
        error = "int() argument must be a string, a bytes-like object or a real number, not 'ListConfig'";
        return std::nullopt;
    }
    return std::nullopt;
}

std::string toLower(std::string text)
{
    for (char &c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::vector<std::string> splitStripped(const std::string &text, char sep)
{
    const auto isSpace = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    std::vector<std::string> out;
    for (size_t i = 0;;) {
        const size_t j = std::min(text.find(sep, i), text.size());
        size_t b = i, e = j;
        while (b < e && isSpace(text[b]))
            ++b;
        while (e > b && isSpace(text[e - 1]))
            --e;
        out.push_back(text.substr(b, e - b));
        if (j == text.size())
            return out;
        i = j + 1;
    }
}

} // namespace ps::core::profiling
