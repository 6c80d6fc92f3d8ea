#include "core/configedit/rangelist.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace ps::core::configedit {

namespace {

bool parseNumber(std::string_view s, long long &out)
{
    if (s.empty())
        return false;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size();
}

std::string trimmed(std::string_view s)
{
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return std::string(s.substr(b, e - b));
}

} // namespace

IntListParse parseIntList(std::string_view text, long long minValue, long long maxRangeSize)
{
    IntListParse r;
    // "[2, 4]": the YAML flow list the composed config shows; its brackets are the list's, once.
    const std::string whole = trimmed(text);
    if (!whole.empty() && (whole.front() == '[' || whole.back() == ']')) {
        if (whole.size() < 2 || whole.front() != '[' || whole.back() != ']' ||
            whole.find_first_of("[]", 1) != whole.size() - 1) {
            r.error = "'" + whole + "' is not a list: write 2,4 or [2, 4]";
            return r;
        }
        return parseIntList(whole.substr(1, whole.size() - 2), minValue, maxRangeSize);
    }
    // Split on commas and whitespace; "4 - 7" is not supported (ambiguous with "4 -7").
    std::vector<std::string> items;
    std::string cur;
    for (char c : text) {
        if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
            if (!cur.empty())
                items.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty())
        items.push_back(cur);

    const auto belowMin = [&](long long v) {
        // Built by append: GCC 12 at -O3 reports a false -Wrestrict for "'" + std::string&&.
        std::string m = "'";
        m.append(std::to_string(v)).append("' is below ").append(std::to_string(minValue));
        if (minValue == 1)
            m.append(" (counting starts at 1)");
        return m;
    };
    for (const std::string &raw : items) {
        const std::string item = trimmed(raw);
        const size_t dash = item.find('-', 1); // a leading '-' is a sign, reported as below min
        long long a = 0, b = 0;
        if (dash == std::string::npos) {
            if (!parseNumber(item, a)) {
                r.error = "'" + item + "' is not a whole number";
                return r;
            }
            b = a;
        } else if (!parseNumber(item.substr(0, dash), a) || !parseNumber(item.substr(dash + 1), b)) {
            r.error = "'" + item + "' is not a number or a range A-B";
            return r;
        } else if (b < a) {
            r.error = "range '" + item + "' ends before it starts";
            return r;
        }
        if (a < minValue) {
            r.error = belowMin(a);
            return r;
        }
        if (b - a + 1 > maxRangeSize) {
            r.error = "range '" + item + "' has more than " + std::to_string(maxRangeSize) + " values";
            return r;
        }
        for (long long v = a; v <= b; ++v)
            r.values.push_back(v);
    }
    std::sort(r.values.begin(), r.values.end());
    r.values.erase(std::unique(r.values.begin(), r.values.end()), r.values.end());
    return r;
}

std::string formatIntList(const std::vector<long long> &values)
{
    std::string s;
    for (size_t i = 0; i < values.size();) {
        size_t j = i;
        while (j + 1 < values.size() && values[j + 1] == values[j] + 1)
            ++j;
        const auto add = [&](const std::string &part) { s += (s.empty() ? "" : ",") + part; };
        if (j - i >= 2) {
            add(std::to_string(values[i]) + "-" + std::to_string(values[j]));
        } else {
            for (size_t k = i; k <= j; ++k)
                add(std::to_string(values[k]));
        }
        i = j + 1;
    }
    return s;
}

} // namespace ps::core::configedit
