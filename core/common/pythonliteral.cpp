#include "core/common/pythonliteral.h"

#include "core/common/utf8.h"

#include <cstdio>

namespace ps::core {

namespace {

std::string hexEscape(const char *prefix, unsigned value, int digits)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%s%0*x", prefix, digits, value);
    return buf;
}

} // namespace

std::string pythonStringLiteral(std::string_view bytes)
{
    std::string out = "\"";
    for (size_t i = 0; i < bytes.size();) {
        char32_t cp = 0;
        const size_t n = decodeUtf8(bytes, i, cp);
        if (n == 0) { // os.fsdecode's surrogateescape of a byte that is not UTF-8
            out += hexEscape("\\u", 0xDC00u + static_cast<unsigned char>(bytes[i]), 4);
            ++i;
            continue;
        }
        i += n;
        if (cp == '\\' || cp == '"')
            out += '\\' + std::string(1, char(cp));
        else if (cp == '\n')
            out += "\\n";
        else if (cp == '\r')
            out += "\\r";
        else if (cp == '\t')
            out += "\\t";
        else if (cp < 0x20 || cp == 0x7F)
            out += hexEscape("\\x", unsigned(cp), 2);
        else if (cp < 0x80)
            out += char(cp);
        else
            out += cp <= 0xFFFF ? hexEscape("\\u", unsigned(cp), 4) : hexEscape("\\U", unsigned(cp), 8);
    }
    return out + "\"";
}

std::string pythonStringListLiteral(const std::vector<std::string> &items)
{
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i)
        out += (i ? ", " : "") + pythonStringLiteral(items[i]);
    return out + "]";
}

} // namespace ps::core
