#include "core/common/terminaltext.h"

#include "core/common/utf8.h"

#include <cstdio>

namespace ps::core {

namespace {

bool isEscapedCodePoint(char32_t cp)
{
    return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

bool isPlainAscii(unsigned char c)
{
    return c >= 0x20 && c < 0x7f;
}

void appendHex(std::string &out, const char *format, unsigned value)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, format, value);
    out += buf;
}

void appendControl(std::string &out, unsigned char c)
{
    switch (c) {
    case '\n':
        out += "\\n";
        break;
    case '\r':
        out += "\\r";
        break;
    case '\t':
        out += "\\t";
        break;
    default:
        appendHex(out, "\\x%02x", c);
    }
}

} // namespace

bool needsTerminalEscape(std::string_view s)
{
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (isPlainAscii(c)) {
            ++i;
            continue;
        }
        char32_t cp = 0;
        const size_t n = c < 0x80 ? 0 : decodeUtf8(s, i, cp);
        if (n == 0 || isEscapedCodePoint(cp))
            return true;
        i += n;
    }
    return false;
}

std::string terminalSafe(std::string_view s)
{
    if (!needsTerminalEscape(s))
        return std::string(s);
    std::string out;
    out.reserve(s.size() + 16);
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (isPlainAscii(c)) {
            out += char(c);
            ++i;
            continue;
        }
        if (c < 0x80) {
            appendControl(out, c);
            ++i;
            continue;
        }
        char32_t cp = 0;
        const size_t n = decodeUtf8(s, i, cp);
        if (n == 0) {
            appendHex(out, "\\x%02x", c);
            ++i;
        } else if (isEscapedCodePoint(cp)) {
            appendHex(out, "\\u%04x", unsigned(cp));
            i += n;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

} // namespace ps::core
