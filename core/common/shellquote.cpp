#include "core/common/shellquote.h"

#include "core/common/utf8.h"

namespace ps::core {

namespace {
bool isSafe(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '@' ||
           c == '%' || c == '+' || c == '=' || c == ':' || c == ',' || c == '.' || c == '/' || c == '-';
}
} // namespace

std::string shellQuote(std::string_view arg)
{
    if (arg.empty())
        return "''";
    bool safe = true;
    for (unsigned char c : arg)
        safe = safe && isSafe(c);
    if (safe)
        return std::string(arg);
    std::string out = "'";
    for (char c : arg) {
        if (c == '\'')
            out += "'\"'\"'";
        else
            out += c;
    }
    out += '\'';
    return out;
}

std::string shellJoin(const std::vector<std::string> &argv)
{
    std::string out;
    for (size_t i = 0; i < argv.size(); ++i) {
        if (i)
            out += ' ';
        out += shellQuote(argv[i]);
    }
    return out;
}

std::string commentText(std::string_view text)
{
    static const char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        char32_t cp = 0;
        const size_t n = decodeUtf8(text, i, cp);
        const auto c = static_cast<unsigned char>(text[i]);
        if (n > 1) { // well-formed non-ASCII text stays readable
            out.append(text.substr(i, n));
        } else if (c == '\\') {
            out += "\\\\";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (n == 0 || c < 0x20 || c == 0x7f) {
            out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
        } else {
            out += char(c);
        }
        i += n > 0 ? n : 1;
    }
    return out;
}

} // namespace ps::core
