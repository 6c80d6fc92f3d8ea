#include "core/config/override.h"

#include "core/config/bigint.h"
#include "core/config/configerror.h"
#include "core/config/pythonfloat.h"

#include <cmath>
#include <cstdlib>

namespace ps::core::config {

namespace {

const char *const kOverrideFile = "<override>";

bool isIdStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

bool isIdChar(char c)
{
    return isIdStart(c) || (c >= '0' && c <= '9') || c == '-';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// The characters Hydra's ESC token escapes with a backslash (and escape_special_characters writes so).
constexpr std::string_view kEscapable = "\\()[]{}:=, \t";

// Characters Hydra's lexer accepts inside an unquoted value (ID, UNQUOTED_CHAR, COLON, WS).
bool isUnquotedChar(char c)
{
    return isIdChar(c) || std::string_view("/-\\+.$%*@?|: \t").find(c) != std::string_view::npos;
}

// Hydra's INT token: [+-]? ('0' | [1-9] (_? [0-9])*)
bool isHydraInt(const std::string &s)
{
    size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        ++i;
    if (i >= s.size())
        return false;
    if (s[i] == '0')
        return i + 1 == s.size();
    if (s[i] < '1' || s[i] > '9')
        return false;
    for (++i; i < s.size(); ++i) {
        if (s[i] == '_' && i + 1 < s.size() && isDigit(s[i + 1]))
            continue;
        if (!isDigit(s[i]))
            return false;
    }
    return true;
}

// Hydra's FLOAT token: [+-]? (POINT_FLOAT | EXPONENT_FLOAT | inf | nan), case-insensitive inf/nan.
bool isHydraFloat(const std::string &s)
{
    size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        ++i;
    std::string rest = s.substr(i);
    std::string lower;
    for (char c : rest)
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "inf" || lower == "nan")
        return true;
    size_t j = i;
    while (j < s.size() && isDigit(s[j]))
        ++j;
    bool intPart = j > i;
    bool point = false, fraction = false;
    if (j < s.size() && s[j] == '.') {
        point = true;
        size_t k = j + 1;
        while (k < s.size() && isDigit(s[k]))
            ++k;
        fraction = k > j + 1;
        j = k;
    }
    if (!intPart && !fraction)
        return false;
    bool exponent = false;
    if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
        size_t k = j + 1;
        if (k < s.size() && (s[k] == '+' || s[k] == '-'))
            ++k;
        size_t d = k;
        while (k < s.size() && isDigit(s[k]))
            ++k;
        if (k == d)
            return false;
        exponent = true;
        j = k;
    }
    if (j != s.size())
        return false;
    return point || exponent;
}

bool equalsNoCase(const std::string &a, const char *b)
{
    std::string_view bv(b);
    if (a.size() != bv.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != bv[i])
            return false;
    return true;
}

// A primitive of one token (no escape, no interpolation) typed as Hydra's lexer types it: INT,
// FLOAT, BOOL or NULL; anything else is text.
Node typedToken(const std::string &text)
{
    if (isHydraInt(text)) {
        std::string digits;
        for (char ch : text)
            if (ch != '_')
                digits += ch;
        errno = 0;
        long long v = std::strtoll(digits.c_str(), nullptr, 10);
        if (errno != ERANGE)
            return Node::integer(v);
        const bool negative = digits[0] == '-';
        const size_t sign = digits[0] == '-' || digits[0] == '+' ? 1 : 0;
        return Node::bigInteger(decimalFromDigits(std::string_view(digits).substr(sign), 10, negative));
    }
    if (isHydraFloat(text))
        return Node::floating(std::strtod(text.c_str(), nullptr));
    if (equalsNoCase(text, "true") || equalsNoCase(text, "false"))
        return Node::boolean(equalsNoCase(text, "true"));
    if (equalsNoCase(text, "null"))
        return Node::null();
    return Node::text(text);
}

class ValueParser
{
public:
    ValueParser(std::string_view text, std::string_view whole, size_t offset)
        : m_s(text), m_whole(whole), m_offset(offset)
    {
    }

    // value: element (',' element)*  — more than one element is a sweep.
    Node parseTop(bool &isSweep)
    {
        isSweep = false;
        if (m_s.empty())
            return mark(Node::string(""));
        Node first = parseElement(true);
        if (m_pos < m_s.size() && m_s[m_pos] == ',') {
            isSweep = true;
            Node sweep = Node::list();
            sweep.append(std::move(first));
            while (m_pos < m_s.size() && m_s[m_pos] == ',') {
                ++m_pos;
                sweep.append(parseElement(true));
            }
            first = std::move(sweep);
        }
        if (m_pos != m_s.size())
            fail("extraneous input '" + std::string(m_s.substr(m_pos)) + "'");
        return first;
    }

private:
    [[noreturn]] void fail(const std::string &what) const
    {
        throw ConfigError("Error parsing override '" + std::string(m_whole) + "'\n" + what + " (at column " +
                              std::to_string(m_offset + m_pos + 1) + ")",
                          SourceMark{});
    }

    Node mark(Node n) const
    {
        n.mark = SourceMark{kOverrideFile, 1, static_cast<int>(m_offset + 1)};
        return n;
    }

    void skipWs()
    {
        while (m_pos < m_s.size() && (m_s[m_pos] == ' ' || m_s[m_pos] == '\t'))
            ++m_pos;
    }

    Node parseElement(bool topLevel)
    {
        // Nesting is bounded so that a hostile argument cannot exhaust the stack.
        if (++m_depth > kMaxNesting)
            fail("nesting deeper than " + std::to_string(kMaxNesting) + " levels");
        struct DepthGuard
        {
            int &d;
            ~DepthGuard() { --d; }
        } guard{m_depth};
        skipWs();
        if (m_pos >= m_s.size()) {
            if (topLevel)
                return mark(Node::string(""));
            fail("mismatched input '<EOF>'");
        }
        char c = m_s[m_pos];
        Node n;
        if (c == '[') {
            n = parseList();
        } else if (c == '{') {
            n = parseDict();
        } else if (c == '\'' || c == '"') {
            n = mark(Node::text(parseQuoted()));
        } else {
            n = parsePrimitive(false);
        }
        skipWs();
        return n;
    }

    Node parseList()
    {
        ++m_pos; // '['
        Node list = mark(Node::list());
        skipWs();
        if (m_pos < m_s.size() && m_s[m_pos] == ']') {
            ++m_pos;
            return list;
        }
        for (;;) {
            list.append(parseElement(false));
            if (m_pos >= m_s.size())
                fail("missing ']'");
            if (m_s[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_s[m_pos] == ']') {
                ++m_pos;
                return list;
            }
            fail("unexpected '" + std::string(1, m_s[m_pos]) + "' in a list");
        }
    }

    Node parseDict()
    {
        ++m_pos; // '{'
        Node dict = mark(Node::dict());
        skipWs();
        if (m_pos < m_s.size() && m_s[m_pos] == '}') {
            ++m_pos;
            return dict;
        }
        for (;;) {
            skipWs();
            bool plainKey = true;
            std::string key = scanUnquoted(true, plainKey);
            if (key.empty() || m_pos >= m_s.size() || m_s[m_pos] != ':')
                fail("a dict entry needs 'key: value'");
            ++m_pos; // ':'
            // Hydra types a one-token key as it types a value ({1: a} has an int key) and builds
            // a Python dict: a repeated key (or 1 after true) keeps its place and takes the value.
            // A null key is kept here; applying the override fails as OmegaConf refuses it.
            const Node typed = typedToken(key);
            dict.setKey(plainKey && !typed.isStringLike() ? typed : Node::string(key), parseElement(false));
            if (m_pos >= m_s.size())
                fail("missing '}'");
            if (m_s[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_s[m_pos] == '}') {
                ++m_pos;
                return dict;
            }
            fail("unexpected '" + std::string(1, m_s[m_pos]) + "' in a dict");
        }
    }

    // Hydra's ESC token: a backslash before one of kEscapable stands for that char.
    bool atEscape() const
    {
        return m_s[m_pos] == '\\' && m_pos + 1 < m_s.size() &&
               kEscapable.find(m_s[m_pos + 1]) != std::string_view::npos;
    }

    // An unquoted token, escapes unescaped and the whitespace around it (not escaped) dropped (the
    // leading whitespace was skipped before); `plainToken` turns false at an escape or an
    // interpolation (the token is then never typed). A dict key (Hydra's dictKey) ends at ':', at
    // an interpolation and at any character a value cannot hold; a value (Hydra's primitive) keeps
    // interpolations verbatim, ends at ',', ']' or '}' and refuses other characters.
    std::string scanUnquoted(bool dictKey, bool &plainToken)
    {
        std::string text;
        size_t keep = 0; // text.size() after the last character that is not unescaped whitespace
        while (m_pos < m_s.size()) {
            const char c = m_s[m_pos];
            const bool interpolation = c == '$' && m_pos + 1 < m_s.size() && m_s[m_pos + 1] == '{';
            if (c == ',' || c == ']' || c == '}' || (dictKey && (c == ':' || interpolation)))
                break;
            if (interpolation) {
                readInterpolation(text);
            } else if (atEscape()) {
                text += m_s[m_pos + 1];
                m_pos += 2;
            } else if (isUnquotedChar(c)) {
                text += c;
                ++m_pos;
                if (c != ' ' && c != '\t')
                    keep = text.size();
                continue;
            } else if (dictKey) {
                break;
            } else if (c == '(') {
                fail("functions (sweeps and casts such as choice(), range(), int()) are not supported by compose");
            } else {
                fail("token recognition error at: '" + std::string(1, c) + "'");
            }
            plainToken = false;
            keep = text.size();
        }
        text.resize(keep);
        return text;
    }

    std::string parseQuoted()
    {
        char q = m_s[m_pos++];
        std::string out;
        while (m_pos < m_s.size()) {
            char c = m_s[m_pos];
            if (c == '\\' && m_pos + 1 < m_s.size() && (m_s[m_pos + 1] == q || m_s[m_pos + 1] == '\\')) {
                // "\'" is a quote; "\\" right before the closing quote is one backslash.
                if (m_s[m_pos + 1] == '\\') {
                    size_t k = m_pos;
                    while (k < m_s.size() && m_s[k] == '\\')
                        ++k;
                    if (k < m_s.size() && m_s[k] == q && (k - m_pos) % 2 == 0) {
                        out.append((k - m_pos) / 2, '\\');
                        m_pos = k;
                        continue;
                    }
                    out += c;
                    ++m_pos;
                    continue;
                }
                out += q;
                m_pos += 2;
                continue;
            }
            if (c == q) {
                ++m_pos;
                return out;
            }
            out += c;
            ++m_pos;
        }
        fail("unterminated quoted string");
    }

    // An interpolation "${...}" with nested braces; appended verbatim.
    void readInterpolation(std::string &out)
    {
        int depth = 0;
        size_t start = m_pos;
        while (m_pos < m_s.size()) {
            char c = m_s[m_pos];
            if (c == '{')
                ++depth;
            else if (c == '}') {
                --depth;
                if (depth == 0) {
                    ++m_pos;
                    out.append(m_s.substr(start, m_pos - start));
                    return;
                }
            }
            ++m_pos;
        }
        fail("unterminated interpolation");
    }

    Node parsePrimitive(bool)
    {
        bool plainToken = true;
        const std::string text = scanUnquoted(false, plainToken);
        return mark(plainToken ? typedToken(text) : Node::text(text));
    }

    static constexpr int kMaxNesting = 200;
    std::string_view m_s;
    std::string_view m_whole;
    size_t m_offset;
    size_t m_pos = 0;
    int m_depth = 0;
};

bool validKey(std::string_view key, bool allowSlash)
{
    if (key.empty())
        return false;
    for (char c : key) {
        if (isIdChar(c) || c == '.')
            continue;
        if (c == '/' && allowSlash)
            continue;
        return false;
    }
    return true;
}

// A dict key as the override grammar reads it back: Hydra's escape_special_characters.
std::string escapeDictKey(const std::string &key)
{
    std::string out;
    for (char c : key) {
        if (kEscapable.find(c) != std::string_view::npos)
            out += '\\';
        out += c;
    }
    return out;
}

} // namespace

Override parseOverride(std::string_view text)
{
    Override o;
    o.text = std::string(text);
    auto fail = [&](const std::string &what, size_t col) -> void {
        throw ConfigError("Error parsing override '" + o.text + "'\n" + what + " (at column " +
                          std::to_string(col + 1) + ")");
    };
    size_t pos = 0;
    if (text.rfind("++", 0) == 0) {
        o.type = Override::Type::ForceAdd;
        pos = 2;
    } else if (text.rfind('+', 0) == 0) {
        o.type = Override::Type::Add;
        pos = 1;
    } else if (text.rfind('~', 0) == 0) {
        o.type = Override::Type::Delete;
        pos = 1;
    }
    size_t eq = text.find('=', pos);
    std::string_view keyPart = text.substr(pos, eq == std::string_view::npos ? std::string_view::npos : eq - pos);
    if (eq == std::string_view::npos && o.type != Override::Type::Delete)
        fail("missing '=': an override is key=value, +key=value, ++key=value or ~key", text.size());
    size_t at = keyPart.find('@');
    std::string_view key = keyPart.substr(0, at);
    if (at != std::string_view::npos) {
        o.hasPackage = true;
        o.package = std::string(keyPart.substr(at + 1));
        if (!o.package.empty() && !validKey(o.package, false))
            fail("invalid package '" + o.package + "'", pos + at + 1);
    }
    if (!validKey(key, true))
        fail(key.empty() ? "missing key" : "invalid key '" + std::string(key) + "'", pos);
    o.key = std::string(key);
    if (eq == std::string_view::npos)
        return o;
    o.hasValue = true;
    o.valueText = std::string(text.substr(eq + 1));
    ValueParser vp(o.valueText, text, eq + 1);
    o.value = vp.parseTop(o.isSweep);
    return o;
}

Node parseOverrideValue(std::string_view text)
{
    bool sweep = false;
    ValueParser vp(text, text, 0);
    Node n = vp.parseTop(sweep);
    if (sweep)
        throw ConfigError("Ambiguous value '" + std::string(text) + "': quote it or use [a,b] for a list");
    return n;
}

std::string toOverrideValue(const Node &value)
{
    switch (value.kind()) {
    case Node::Kind::Null:
        return "null";
    case Node::Kind::Bool:
        return value.asBool() ? "true" : "false";
    case Node::Kind::Int:
        return value.intText();
    case Node::Kind::Float:
        return pythonFloatRepr(value.asFloat());
    case Node::Kind::Dict: {
        std::string s = "{";
        for (size_t i = 0; i < value.size(); ++i) {
            if (i)
                s += ",";
            // A typed key is written as its token (1, 1.5, true); a string key as its escaped text.
            const bool typed = value.keyKindAt(i) != Node::Kind::String;
            s += (typed ? toOverrideValue(value.keyNodeAt(i)) : escapeDictKey(value.keyAt(i))) + ":" +
                 toOverrideValue(value.valueAt(i));
        }
        return s + "}";
    }
    case Node::Kind::List: {
        std::string s = "[";
        for (size_t i = 0; i < value.items().size(); ++i) {
            if (i)
                s += ",";
            s += toOverrideValue(value.items()[i]);
        }
        return s + "]";
    }
    default:
        break;
    }
    const std::string &text = value.asString();
    // Unquoted when it reads back as the same string; quoted otherwise.
    bool plainOk = !text.empty();
    for (char c : text)
        if (!isUnquotedChar(c) || c == ' ' || c == '\t' || c == '\\')
            plainOk = false;
    if (plainOk) {
        try {
            Node back = parseOverrideValue(text);
            if (back.isStringLike() && back.asString() == text)
                return text;
        } catch (const ConfigError &) {
        }
    }
    std::string q = "'";
    for (char c : text) {
        if (c == '\'')
            q += "\\'";
        else
            q += c;
    }
    // A backslash right before the closing quote must be doubled to stay literal.
    size_t trailing = 0;
    while (trailing < text.size() && text[text.size() - 1 - trailing] == '\\')
        ++trailing;
    q.append(trailing, '\\');
    return q + "'";
}

} // namespace ps::core::config
