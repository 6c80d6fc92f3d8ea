#include "core/config/yamlemitter.h"

#include "core/common/jsonwriter.h"
#include "core/config/pythonfloat.h"
#include "core/config/yamlscalar.h"

#include <cstdio>

namespace ps::core::config {

namespace {

// ---- UTF-8 <-> code points: PyYAML measures columns and classifies characters per code point.

std::u32string decodeUtf8(const std::string &s)
{
    std::u32string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        char32_t cp = 0;
        size_t len = 1;
        if (c < 0x80) {
            cp = c;
        } else if ((c >> 5) == 0x6 && i + 1 < s.size()) {
            cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
            len = 2;
        } else if ((c >> 4) == 0xE && i + 2 < s.size()) {
            cp = ((c & 0x0Fu) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) |
                 (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
            len = 3;
        } else if ((c >> 3) == 0x1E && i + 3 < s.size()) {
            cp = ((c & 0x07u) << 18) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 12) |
                 ((static_cast<unsigned char>(s[i + 2]) & 0x3Fu) << 6) | (static_cast<unsigned char>(s[i + 3]) & 0x3Fu);
            len = 4;
        } else {
            cp = 0xFFFD; // invalid byte: shown as a replacement character
        }
        out += cp;
        i += len;
    }
    return out;
}

void appendUtf8(std::string &out, char32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

bool isBreak(char32_t c)
{
    return c == U'\n' || c == 0x85 || c == 0x2028 || c == 0x2029;
}

bool isSpaceOrBreakOrNul(char32_t c)
{
    return c == 0 || c == U' ' || c == U'\t' || c == U'\r' || isBreak(c);
}

// ---- Python's int() / float() acceptance, which OmegaConf's dumper uses to decide quoting ----

bool isPyWhitespace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view pyStrip(std::string_view s)
{
    size_t b = 0, e = s.size();
    while (b < e && isPyWhitespace(s[b]))
        ++b;
    while (e > b && isPyWhitespace(s[e - 1]))
        --e;
    return s.substr(b, e - b);
}

// Digits with single underscores between them, from i; returns the end (== i when none).
size_t pyDigits(std::string_view s, size_t i)
{
    size_t start = i;
    while (i < s.size()) {
        if (s[i] >= '0' && s[i] <= '9') {
            ++i;
        } else if (s[i] == '_' && i > start && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '9') {
            ++i;
        } else {
            break;
        }
    }
    return i;
}

bool pythonIntAccepts(const std::string &text)
{
    std::string_view s = pyStrip(text);
    size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        ++i;
    size_t end = pyDigits(s, i);
    return end > i && end == s.size();
}

bool pythonFloatAccepts(const std::string &text)
{
    std::string_view s = pyStrip(text);
    size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        ++i;
    if (s.size() - i <= 8) { // "infinity" is the longest word float() takes
        std::string rest;
        for (size_t k = i; k < s.size(); ++k)
            rest += static_cast<char>(std::tolower(static_cast<unsigned char>(s[k])));
        if (rest == "inf" || rest == "infinity" || rest == "nan")
            return true;
    }
    size_t intEnd = pyDigits(s, i);
    bool haveDigits = intEnd > i;
    size_t j = intEnd;
    if (j < s.size() && s[j] == '.') {
        size_t fracEnd = pyDigits(s, j + 1);
        haveDigits = haveDigits || fracEnd > j + 1;
        j = fracEnd;
    }
    if (!haveDigits)
        return false;
    if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
        size_t k = j + 1;
        if (k < s.size() && (s[k] == '+' || s[k] == '-'))
            ++k;
        size_t expEnd = pyDigits(s, k);
        if (expEnd == k)
            return false;
        j = expEnd;
    }
    return j == s.size();
}

bool isYamlBoolWord(const std::string &s)
{
    static const std::string_view kWords[] = {"y",  "Y",  "yes",  "Yes",  "YES",  "n",     "N",     "no",
                                              "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
                                              "on", "On", "ON",   "off",  "Off",  "OFF"};
    if (s.size() > 5)
        return false;
    for (std::string_view w : kWords)
        if (s == w)
            return true;
    return false;
}

// ---- PyYAML's default (dumper-side) resolver: would this plain text read back as a string? ----

bool isDigitChar(char c)
{
    return c >= '0' && c <= '9';
}

bool matchesTimestamp(const std::string &s)
{
    auto digitsAt = [&](size_t i, size_t n) {
        if (i + n > s.size())
            return false;
        for (size_t k = i; k < i + n; ++k)
            if (!isDigitChar(s[k]))
                return false;
        return true;
    };
    // YYYY-MM-DD
    if (s.size() == 10 && digitsAt(0, 4) && s[4] == '-' && digitsAt(5, 2) && s[7] == '-' && digitsAt(8, 2))
        return true;
    // YYYY-M(M)-D(D)(T|[ \t]+)H(H):MM:SS(.fff)?([ \t]*(Z|[-+]H(H)(:MM)?))?
    size_t i = 0;
    if (!digitsAt(0, 4) || s.size() < 5 || s[4] != '-')
        return false;
    i = 5;
    auto oneOrTwo = [&](size_t &pos) {
        if (!digitsAt(pos, 1))
            return false;
        pos += digitsAt(pos + 1, 1) ? 2 : 1;
        return true;
    };
    if (!oneOrTwo(i) || i >= s.size() || s[i] != '-')
        return false;
    ++i;
    if (!oneOrTwo(i) || i >= s.size())
        return false;
    if (s[i] == 'T' || s[i] == 't') {
        ++i;
    } else if (s[i] == ' ' || s[i] == '\t') {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
            ++i;
    } else {
        return false;
    }
    if (!oneOrTwo(i) || i >= s.size() || s[i] != ':' || !digitsAt(i + 1, 2))
        return false;
    i += 3;
    if (i >= s.size() || s[i] != ':' || !digitsAt(i + 1, 2))
        return false;
    i += 3;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && isDigitChar(s[i]))
            ++i;
    }
    if (i == s.size())
        return true;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
        ++i;
    if (i < s.size() && s[i] == 'Z')
        return i + 1 == s.size();
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) {
        ++i;
        if (!oneOrTwo(i))
            return false;
        if (i == s.size())
            return true;
        return s[i] == ':' && digitsAt(i + 1, 2) && i + 3 == s.size();
    }
    return false;
}

bool plainResolvesToString(const std::string &s)
{
    if (s == "=" || s == "<<")
        return false;
    if (matchesTimestamp(s))
        return false;
    Node typed = typePlainScalar(s);
    if (!typed.isStringLike())
        return false;
    // The loader's float resolver accepts "1e3"; PyYAML's default resolver (used when dumping)
    // does not, so such text would still read back as a string in plain PyYAML. Quoting of those
    // is decided by OmegaConf's float() check anyway.
    return true;
}

// ---- The emitter: a port of the parts of PyYAML's Emitter that block-style dumps exercise ----

struct Analysis
{
    bool empty = false;
    bool multiline = false;
    bool allowFlowPlain = true;
    bool allowBlockPlain = true;
    bool allowSingleQuoted = true;
    bool allowDoubleQuoted = true;
    bool allowBlock = true;
};

// PyYAML's indicator sets (analyze_scalar), as switches: this runs on every key and value.
bool isLeadingIndicator(char32_t ch)
{
    switch (ch) {
    case U'#':
    case U',':
    case U'[':
    case U']':
    case U'{':
    case U'}':
    case U'&':
    case U'*':
    case U'!':
    case U'|':
    case U'>':
    case U'\'':
    case U'"':
    case U'%':
    case U'@':
    case U'`':
        return true;
    default:
        return false;
    }
}

bool isFlowIndicator(char32_t ch)
{
    switch (ch) {
    case U',':
    case U'?':
    case U'[':
    case U']':
    case U'{':
    case U'}':
        return true;
    default:
        return false;
    }
}

// A word of letters, digits and '_' (then also '.', '/'): no indicator, space, break or special
// character, so analyzeScalar would allow every style. Most keys and values are such words.
bool isPlainWord(const std::u32string &s)
{
    auto wordChar = [](char32_t c) {
        return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') || (c >= U'0' && c <= U'9') || c == U'_';
    };
    if (s.empty() || !wordChar(s[0]))
        return false;
    for (char32_t c : s)
        if (!wordChar(c) && c != U'.' && c != U'/')
            return false;
    return true;
}

// What PyYAML's analyze_scalar finds in a scalar's characters, before it turns that into the
// styles it allows.
struct ScalarFindings
{
    bool blockIndicators = false, flowIndicators = false, lineBreaks = false, specialCharacters = false;
    bool leadingSpace = false, leadingBreak = false, trailingSpace = false, trailingBreak = false;
    bool breakSpace = false, spaceBreak = false;
};

bool isSpecialCharacter(char32_t ch)
{
    if (ch == U'\n' || (ch >= 0x20 && ch <= 0x7E))
        return false;
    const bool unicodeOk = (ch == 0x85 || (ch >= 0xA0 && ch <= 0xD7FF) || (ch >= 0xE000 && ch <= 0xFFFD) ||
                            (ch >= 0x10000 && ch < 0x10FFFF)) &&
                           ch != 0xFEFF;
    return !unicodeOk; // allow_unicode=True: other non-ASCII is fine
}

// The indicator checks of one character (PyYAML treats the first character apart).
void findIndicators(char32_t ch, size_t index, bool precededByWhitespace, bool followedByWhitespace, ScalarFindings &f)
{
    if (index == 0) {
        if (isLeadingIndicator(ch))
            f.flowIndicators = f.blockIndicators = true;
        if (ch == U'?' || ch == U':') {
            f.flowIndicators = true;
            if (followedByWhitespace)
                f.blockIndicators = true;
        }
        if (ch == U'-' && followedByWhitespace)
            f.flowIndicators = f.blockIndicators = true;
        return;
    }
    if (isFlowIndicator(ch))
        f.flowIndicators = true;
    if (ch == U':') {
        f.flowIndicators = true;
        if (followedByWhitespace)
            f.blockIndicators = true;
    }
    if (ch == U'#' && precededByWhitespace)
        f.flowIndicators = f.blockIndicators = true;
}

ScalarFindings scanScalar(const std::u32string &s)
{
    ScalarFindings f;
    auto startsWith = [&](const char32_t *p) { return s.compare(0, 3, p) == 0; };
    if (s.size() >= 3 && (startsWith(U"---") || startsWith(U"...")))
        f.blockIndicators = f.flowIndicators = true;
    bool precededByWhitespace = true;
    bool followedByWhitespace = s.size() == 1 || isSpaceOrBreakOrNul(s[1]);
    bool previousSpace = false, previousBreak = false;
    for (size_t index = 0; index < s.size(); ++index) {
        const char32_t ch = s[index];
        findIndicators(ch, index, precededByWhitespace, followedByWhitespace, f);
        if (isBreak(ch))
            f.lineBreaks = true;
        if (isSpecialCharacter(ch))
            f.specialCharacters = true;
        const bool first = index == 0, last = index == s.size() - 1;
        if (ch == U' ') {
            f.leadingSpace = f.leadingSpace || first;
            f.trailingSpace = f.trailingSpace || last;
            f.breakSpace = f.breakSpace || previousBreak;
            previousSpace = true;
            previousBreak = false;
        } else if (isBreak(ch)) {
            f.leadingBreak = f.leadingBreak || first;
            f.trailingBreak = f.trailingBreak || last;
            f.spaceBreak = f.spaceBreak || previousSpace;
            previousSpace = false;
            previousBreak = true;
        } else {
            previousSpace = previousBreak = false;
        }
        precededByWhitespace = isSpaceOrBreakOrNul(ch);
        followedByWhitespace = index + 2 >= s.size() || isSpaceOrBreakOrNul(s[index + 2]);
    }
    return f;
}

Analysis analyzeScalar(const std::u32string &s)
{
    Analysis a;
    if (isPlainWord(s))
        return a;
    if (s.empty()) {
        a.empty = true;
        a.allowFlowPlain = false;
        a.allowBlock = false;
        return a;
    }
    const ScalarFindings f = scanScalar(s);
    if (f.leadingSpace || f.leadingBreak || f.trailingSpace || f.trailingBreak)
        a.allowFlowPlain = a.allowBlockPlain = false;
    if (f.trailingSpace)
        a.allowBlock = false;
    if (f.breakSpace)
        a.allowFlowPlain = a.allowBlockPlain = a.allowSingleQuoted = false;
    if (f.spaceBreak || f.specialCharacters)
        a.allowFlowPlain = a.allowBlockPlain = a.allowSingleQuoted = a.allowBlock = false;
    if (f.lineBreaks)
        a.allowFlowPlain = a.allowBlockPlain = false;
    if (f.flowIndicators)
        a.allowFlowPlain = false;
    if (f.blockIndicators)
        a.allowBlockPlain = false;
    a.multiline = f.lineBreaks;
    return a;
}

struct Scalar
{
    std::u32string text;
    bool implicitPlain = true; // PyYAML's implicit[0]: plain text reads back with the same tag
    bool forceSingle = false;  // OmegaConf's str representer asked for style "'"
};

Scalar representScalar(const Node &n)
{
    Scalar s;
    std::string text;
    switch (n.kind()) {
    case Node::Kind::Null:
        text = "null";
        break;
    case Node::Kind::Bool:
        text = n.asBool() ? "true" : "false";
        break;
    case Node::Kind::Int:
        text = n.intText();
        break;
    case Node::Kind::Float:
        text = yamlFloat(n.asFloat());
        break;
    default:
        text = n.asString();
        s.forceSingle = isYamlBoolWord(text) || pythonIntAccepts(text) || pythonFloatAccepts(text);
        s.implicitPlain = plainResolvesToString(text);
        break;
    }
    s.text = decodeUtf8(text);
    return s;
}

class Emitter
{
public:
    std::string take() { return std::move(m_out); }

    void document(const Node &root)
    {
        emitNode(root, true, false, false, false);
        writeIndent();
    }

private:
    static constexpr int kBestIndent = 2;
    static constexpr int kBestWidth = 80;

    void increaseIndent(bool flow, bool indentless)
    {
        m_indents.push_back(m_indent);
        if (m_indent < 0)
            m_indent = flow ? kBestIndent : 0;
        else if (!indentless)
            m_indent += kBestIndent;
    }

    void popIndent()
    {
        m_indent = m_indents.back();
        m_indents.pop_back();
    }

    void write(const std::u32string &data, size_t from, size_t to)
    {
        for (size_t i = from; i < to; ++i)
            appendUtf8(m_out, data[i]);
        m_column += static_cast<int>(to - from);
    }

    void writeAscii(const char *data)
    {
        std::string d(data);
        m_out += d;
        m_column += static_cast<int>(d.size());
    }

    void writeIndicator(const char *indicator, bool needWhitespace, bool whitespace = false, bool indention = false)
    {
        if (!(m_whitespace || !needWhitespace))
            writeAscii(" ");
        writeAscii(indicator);
        m_whitespace = whitespace;
        m_indention = m_indention && indention;
    }

    void writeLineBreak()
    {
        m_whitespace = true;
        m_indention = true;
        m_column = 0;
        m_out += '\n';
    }

    void writeIndent()
    {
        int indent = m_indent < 0 ? 0 : m_indent;
        if (!m_indention || m_column > indent || (m_column == indent && !m_whitespace))
            writeLineBreak();
        if (m_column < indent) {
            m_whitespace = true;
            m_out.append(static_cast<size_t>(indent - m_column), ' ');
            m_column = indent;
        }
    }

    void emitNode(const Node &n, bool root, bool sequence, bool mapping, bool simpleKey)
    {
        m_rootContext = root;
        m_sequenceContext = sequence;
        m_mappingContext = mapping;
        m_simpleKeyContext = simpleKey;
        if (n.isDict()) {
            if (m_flowLevel || n.size() == 0)
                emitFlowEmpty("{", "}");
            else
                emitBlockMapping(n);
        } else if (n.isList()) {
            if (m_flowLevel || n.size() == 0)
                emitFlowEmpty("[", "]");
            else
                emitBlockSequence(n);
        } else {
            Scalar s = representScalar(n);
            emitScalar(s);
        }
    }

    void emitFlowEmpty(const char *open, const char *close)
    {
        writeIndicator(open, true, true);
        ++m_flowLevel;
        increaseIndent(true, false);
        popIndent();
        --m_flowLevel;
        writeIndicator(close, false);
    }

    void emitBlockSequence(const Node &n)
    {
        bool indentless = m_mappingContext && !m_indention;
        increaseIndent(false, indentless);
        for (const Node &item : n.items()) {
            writeIndent();
            writeIndicator("-", true, false, true);
            emitNode(item, false, true, false, false);
        }
        popIndent();
    }

    void emitBlockMapping(const Node &n)
    {
        increaseIndent(false, false);
        for (size_t i = 0; i < n.size(); ++i) {
            writeIndent();
            Scalar key = representScalar(n.keyNodeAt(i)); // an override's int key 1 prints as 1
            Analysis ka = analyzeScalar(key.text);
            // check_simple_key: the "!!str" tag counts towards the 128-character limit.
            bool simple = key.text.size() + 5 < 128 && !ka.empty && !ka.multiline;
            if (simple) {
                m_rootContext = false;
                m_sequenceContext = false;
                m_mappingContext = true;
                m_simpleKeyContext = true;
                emitScalar(key, ka);
                writeIndicator(":", false);
            } else {
                writeIndicator("?", true, false, true);
                m_rootContext = false;
                m_sequenceContext = false;
                m_mappingContext = true;
                m_simpleKeyContext = false;
                emitScalar(key, ka);
                writeIndent();
                writeIndicator(":", true, false, true);
            }
            emitNode(n.valueAt(i), false, false, true, false);
        }
        popIndent();
    }

    char chooseStyle(const Scalar &s, const Analysis &a) const
    {
        if (!s.forceSingle && s.implicitPlain) {
            if (!(m_simpleKeyContext && (a.empty || a.multiline)) &&
                ((m_flowLevel && a.allowFlowPlain) || (!m_flowLevel && a.allowBlockPlain)))
                return 0;
        }
        if (a.allowSingleQuoted && !(m_simpleKeyContext && a.multiline))
            return '\'';
        return '"';
    }

    void emitScalar(const Scalar &s) { emitScalar(s, analyzeScalar(s.text)); }

    void emitScalar(const Scalar &s, const Analysis &a)
    {
        increaseIndent(true, false);
        char style = chooseStyle(s, a);
        bool split = !m_simpleKeyContext;
        if (style == '"')
            writeDoubleQuoted(s.text, split);
        else if (style == '\'')
            writeSingleQuoted(s.text, split);
        else
            writePlain(s.text, split);
        popIndent();
    }

    void writePlain(const std::u32string &text, bool split)
    {
        if (text.empty())
            return;
        if (!m_whitespace)
            writeAscii(" ");
        m_whitespace = false;
        m_indention = false;
        bool spaces = false, breaks = false;
        size_t start = 0, end = 0;
        while (end <= text.size()) {
            bool atEnd = end == text.size();
            char32_t ch = atEnd ? 0 : text[end];
            if (spaces) {
                if (atEnd || ch != U' ') {
                    if (start + 1 == end && m_column > kBestWidth && split) {
                        writeIndent();
                        m_whitespace = false;
                        m_indention = false;
                    } else {
                        write(text, start, end);
                    }
                    start = end;
                }
            } else if (breaks) {
                if (atEnd || !isBreak(ch)) {
                    writeBreakRun(text, start, end);
                    m_whitespace = false;
                    m_indention = false;
                    start = end;
                }
            } else {
                if (atEnd || ch == U' ' || isBreak(ch)) {
                    write(text, start, end);
                    start = end;
                }
            }
            if (!atEnd) {
                spaces = ch == U' ';
                breaks = isBreak(ch);
            }
            ++end;
        }
    }

    // A run of line breaks inside a plain or single-quoted scalar: YAML folding needs one extra
    // break before a "\n" run, then the continuation indent.
    void writeBreakRun(const std::u32string &text, size_t start, size_t end)
    {
        if (text[start] == U'\n')
            writeLineBreak();
        for (size_t k = start; k < end; ++k)
            writeBreakChar(text[k]);
        writeIndent();
    }

    void writeBreakChar(char32_t br)
    {
        if (br == U'\n') {
            writeLineBreak();
        } else {
            m_whitespace = true;
            m_indention = true;
            m_column = 0;
            appendUtf8(m_out, br);
        }
    }

    void writeSingleQuoted(const std::u32string &text, bool split)
    {
        writeIndicator("'", true);
        bool spaces = false, breaks = false;
        size_t start = 0, end = 0;
        while (end <= text.size()) {
            bool atEnd = end == text.size();
            char32_t ch = atEnd ? 0 : text[end];
            if (spaces) {
                if (atEnd || ch != U' ') {
                    if (start + 1 == end && m_column > kBestWidth && split && start != 0 && end != text.size())
                        writeIndent();
                    else
                        write(text, start, end);
                    start = end;
                }
            } else if (breaks) {
                if (atEnd || !isBreak(ch)) {
                    writeBreakRun(text, start, end);
                    start = end;
                }
            } else {
                if (atEnd || ch == U' ' || isBreak(ch) || ch == U'\'') {
                    if (start < end) {
                        write(text, start, end);
                        start = end;
                    }
                }
            }
            if (ch == U'\'') {
                writeAscii("''");
                start = end + 1;
            }
            if (!atEnd) {
                spaces = ch == U' ';
                breaks = isBreak(ch);
            }
            ++end;
        }
        writeIndicator("'", false);
    }

    static const char *escapeFor(char32_t ch)
    {
        switch (ch) {
        case 0:
            return "0";
        case 0x07:
            return "a";
        case 0x08:
            return "b";
        case 0x09:
            return "t";
        case 0x0A:
            return "n";
        case 0x0B:
            return "v";
        case 0x0C:
            return "f";
        case 0x0D:
            return "r";
        case 0x1B:
            return "e";
        case U'"':
            return "\"";
        case U'\\':
            return "\\";
        case 0x85:
            return "N";
        case 0xA0:
            return "_";
        case 0x2028:
            return "L";
        case 0x2029:
            return "P";
        default:
            return nullptr;
        }
    }

    void writeDoubleQuoted(const std::u32string &text, bool split)
    {
        writeIndicator("\"", true);
        size_t start = 0, end = 0;
        while (end <= text.size()) {
            bool atEnd = end == text.size();
            char32_t ch = atEnd ? 0 : text[end];
            bool printable =
                (ch >= 0x20 && ch <= 0x7E) || (ch >= 0xA0 && ch <= 0xD7FF) || (ch >= 0xE000 && ch <= 0xFFFD);
            if (atEnd || ch == U'"' || ch == U'\\' || ch == 0x85 || ch == 0x2028 || ch == 0x2029 || ch == 0xFEFF ||
                !printable) {
                if (start < end) {
                    write(text, start, end);
                    start = end;
                }
                if (!atEnd) {
                    char buf[16];
                    if (const char *e = escapeFor(ch))
                        std::snprintf(buf, sizeof buf, "\\%s", e);
                    else if (ch <= 0xFF)
                        std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(ch));
                    else if (ch <= 0xFFFF)
                        std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(ch));
                    else
                        std::snprintf(buf, sizeof buf, "\\U%08X", static_cast<unsigned>(ch));
                    writeAscii(buf);
                    start = end + 1;
                }
            }
            if (end > 0 && end + 1 < text.size() && (ch == U' ' || start >= end) &&
                m_column + static_cast<int>(end - start) > kBestWidth && split) {
                write(text, start, end);
                writeAscii("\\");
                if (start < end)
                    start = end;
                writeIndent();
                m_whitespace = false;
                m_indention = false;
                if (text[start] == U' ')
                    writeAscii("\\");
            }
            ++end;
        }
        writeIndicator("\"", false);
    }

    std::string m_out;
    int m_indent = -1; // PyYAML's None
    std::vector<int> m_indents;
    int m_column = 0;
    int m_flowLevel = 0;
    bool m_whitespace = true;
    bool m_indention = true;
    bool m_rootContext = false;
    bool m_sequenceContext = false;
    bool m_mappingContext = false;
    bool m_simpleKeyContext = false;
};

void writeJsonNode(const Node &n, JsonWriter &json)
{
    switch (n.kind()) {
    case Node::Kind::Null:
        json.null();
        break;
    case Node::Kind::Bool:
        json.value(n.asBool());
        break;
    case Node::Kind::Int:
        if (n.isBigInt())
            json.integerText(n.intText());
        else
            json.value(static_cast<int64_t>(n.asInt()));
        break;
    case Node::Kind::Float:
        json.value(n.asFloat());
        break;
    case Node::Kind::String:
    case Node::Kind::Missing:
    case Node::Kind::Interpolation:
        json.value(n.asString());
        break;
    case Node::Kind::Dict:
        json.beginObject();
        for (size_t i = 0; i < n.size(); ++i) {
            json.key(n.keyAt(i));
            writeJsonNode(n.valueAt(i), json);
        }
        json.endObject();
        break;
    case Node::Kind::List:
        json.beginArray();
        for (const Node &item : n.items())
            writeJsonNode(item, json);
        json.endArray();
        break;
    }
}

} // namespace

std::string toYaml(const Node &root)
{
    Emitter e;
    e.document(root);
    return e.take();
}

std::string yamlScalar(const Node &scalar)
{
    if (scalar.isContainer())
        return scalar.isDict() ? "{}" : "[]";
    Node wrapper = Node::dict();
    wrapper.set("k", scalar);
    std::string y = toYaml(wrapper);
    // "k: VALUE\n" -> "VALUE"
    std::string v = y.substr(3);
    while (!v.empty() && v.back() == '\n')
        v.pop_back();
    return v;
}

void writeJson(const Node &root, JsonWriter &json)
{
    writeJsonNode(root, json);
}

} // namespace ps::core::config
