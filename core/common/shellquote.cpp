#include "core/common/shellquote.h"

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

} // namespace ps::core
