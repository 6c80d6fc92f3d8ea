#include "core/config/yamlloader.h"

#include "core/common/atomicfile.h"
#include "core/config/bigint.h"
#include "core/config/configerror.h"
#include "core/config/nodecount.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <cmath>
#include <cstdlib>
#include <istream>
#include <map>
#include <streambuf>
#include <unordered_set>

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

// ---- yaml-cpp event handler that builds Nodes ----

class StringViewBuf : public std::streambuf
{
public:
    explicit StringViewBuf(std::string_view s)
    {
        char *p = const_cast<char *>(s.data());
        setg(p, p, p + s.size());
    }
};

// Aliases are expanded into copies. A "billion laughs" document (ten levels of anchors, each a
// list of ten aliases of the one before) would expand to 10^10 values from a few hundred bytes;
// a file may hold at most this many values once expanded (real configs hold a few thousand).
constexpr size_t kMaxValuesPerFile = 100000;

class TreeBuilder : public YAML::EventHandler
{
public:
    explicit TreeBuilder(const std::string &file) : m_file(file) {}

    Node takeRoot() { return std::move(m_root); }
    bool hasRoot() const { return m_haveRoot; }

    void OnDocumentStart(const YAML::Mark &) override {}
    void OnDocumentEnd() override {}

    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        Node n = Node::null();
        add(std::move(n), mark, anchor, nullptr);
    }

    void OnAlias(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        auto it = m_anchors.find(anchor);
        if (it == m_anchors.end())
            throw ConfigError("found undefined alias", markOf(mark));
        const size_t size = countValues(it->second);
        if (m_values + size > kMaxValuesPerFile)
            throw ConfigError("YAML aliases expand to more than " + std::to_string(kMaxValuesPerFile) +
                                  " values (anchors that repeat each other, as in a 'billion laughs' document); "
                                  "refusing to load the file",
                              markOf(mark));
        m_values += size - 1; // add() counts the alias itself
        add(it->second, mark, 0, nullptr);
    }

    void OnScalar(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                  const std::string &value) override
    {
        Node n;
        if (tag == "?")
            n = typePlainScalar(value);
        else if (tag == "!" || tag == "tag:yaml.org,2002:str")
            n = Node::text(value);
        else if (tag == "tag:yaml.org,2002:int" || tag == "tag:yaml.org,2002:float" ||
                 tag == "tag:yaml.org,2002:bool" || tag == "tag:yaml.org,2002:null")
            n = typePlainScalar(value);
        else
            throw ConfigError("could not determine a constructor for the tag '" + tag + "'", markOf(mark));
        add(std::move(n), mark, anchor, &value);
    }

    void OnSequenceStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override
    {
        m_stack.push_back(Frame{Node::list(), markOf(mark), anchor, {}, {}, {}, false});
    }

    void OnSequenceEnd() override { finishContainer(); }

    void OnMapStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override
    {
        m_stack.push_back(Frame{Node::dict(), markOf(mark), anchor, {}, {}, {}, false});
    }

    void OnMapEnd() override { finishContainer(); }

private:
    struct Frame
    {
        Node node;
        SourceMark mark;
        YAML::anchor_t anchor;
        std::string pendingKey;
        SourceMark pendingKeyMark;
        std::unordered_set<std::string> seenKeys;
        bool haveKey;
    };

    SourceMark markOf(const YAML::Mark &m) const { return SourceMark{m_file, m.line + 1, m.column + 1}; }

    void finishContainer()
    {
        Frame f = std::move(m_stack.back());
        m_stack.pop_back();
        f.node.mark = f.mark;
        placeValue(std::move(f.node), f.mark, f.anchor);
    }

    void add(Node n, const YAML::Mark &mark, YAML::anchor_t anchor, const std::string *rawKeyText)
    {
        SourceMark sm = markOf(mark);
        if (++m_values > kMaxValuesPerFile)
            throw ConfigError("the file holds more than " + std::to_string(kMaxValuesPerFile) + " values", sm);
        n.mark = sm;
        // A scalar in key position of a mapping becomes the pending key.
        if (!m_stack.empty() && m_stack.back().node.isDict() && !m_stack.back().haveKey) {
            Frame &f = m_stack.back();
            if (n.isContainer())
                throw ConfigError("complex (non-scalar) mapping keys are not supported", sm);
            // Keys keep the text as written (OmegaConf would type `1:` as an int key; configs
            // do not use such keys).
            std::string key = rawKeyText ? *rawKeyText : std::string("null");
            if (!f.seenKeys.insert(key).second)
                throw ConfigError("found duplicate key " + key + " (while constructing a mapping at line " +
                                      std::to_string(f.mark.line) + ", column " + std::to_string(f.mark.column) + ")",
                                  sm);
            f.pendingKey = key;
            f.pendingKeyMark = sm;
            f.haveKey = true;
            if (anchor)
                m_anchors[anchor] = n;
            return;
        }
        placeValue(std::move(n), sm, anchor);
    }

    void placeValue(Node n, const SourceMark &mark, YAML::anchor_t anchor)
    {
        if (anchor)
            m_anchors[anchor] = n;
        if (m_stack.empty()) {
            m_root = std::move(n);
            m_haveRoot = true;
            return;
        }
        Frame &f = m_stack.back();
        if (f.node.isList()) {
            n.mark = mark;
            f.node.append(std::move(n));
            return;
        }
        if (!f.haveKey) {
            // A container in key position.
            throw ConfigError("complex (non-scalar) mapping keys are not supported", mark);
        }
        // A scalar value is marked at its own token (a diagnostic points at the offending value);
        // a nested dict or list at its key, the line a reader looks for (yaml-cpp would give the
        // position of its first child instead).
        n.mark = n.isContainer() ? f.pendingKeyMark : mark;
        f.node.set(f.pendingKey, std::move(n));
        f.haveKey = false;
    }

    std::string m_file;
    std::vector<Frame> m_stack;
    std::map<YAML::anchor_t, Node> m_anchors;
    size_t m_values = 0; // values built so far, alias copies included
    Node m_root;
    bool m_haveRoot = false;
};

// Hydra's header: leading "# @key value" lines (blank lines skipped) up to the first other line.
void parseHeader(std::string_view text, LoadedYaml &out, const std::string &fileName)
{
    size_t pos = 0;
    int lineNo = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        size_t b = line.find_first_not_of(" \t\r");
        if (b == std::string_view::npos)
            continue;
        line = line.substr(b);
        size_t e = line.find_last_not_of(" \t\r");
        line = line.substr(0, e + 1);
        // Hydra's header line is `^\s*#\s*@`: one '#', then blanks, then '@' ("## @package x" is a
        // plain comment, and it ends the header).
        if (line[0] != '#')
            break;
        size_t at = line.find_first_not_of(" \t\f\v", 1);
        if (at == std::string_view::npos || line[at] != '@')
            break;
        std::vector<std::string> words;
        std::string cur;
        for (char c : line.substr(at)) {
            if (c == ' ') {
                if (!cur.empty())
                    words.push_back(cur);
                cur.clear();
            } else {
                cur += c;
            }
        }
        if (!cur.empty())
            words.push_back(cur);
        if (words.size() != 2)
            throw ConfigError(words.size() < 2
                                  ? "Expected header format: KEY VALUE, got '" + std::string(line.substr(at)) + "'"
                                  : "Too many components in '" + std::string(line.substr(at)) + "'",
                              SourceMark{fileName, lineNo, 1});
        if (words[0] == "@package") {
            out.hasPackageHeader = true;
            out.packageHeader = words[1];
        }
    }
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

LoadedYaml loadYamlText(std::string_view text, const std::string &fileName)
{
    LoadedYaml out;
    parseHeader(text, out, fileName);
    StringViewBuf buf(text);
    std::istream in(&buf);
    TreeBuilder builder(fileName);
    try {
        YAML::Parser parser(in);
        parser.HandleNextDocument(builder);
        TreeBuilder second(fileName);
        if (parser.HandleNextDocument(second))
            throw ConfigError("expected a single document in the stream, but found another document", {fileName, 0, 0});
    } catch (const YAML::Exception &e) {
        throw ConfigError("malformed YAML: " + e.msg, SourceMark{fileName, e.mark.line + 1, e.mark.column + 1});
    }
    if (builder.hasRoot())
        out.root = builder.takeRoot();
    return out;
}

LoadedYaml loadYamlFile(const std::string &path)
{
    std::string content;
    std::string error;
    if (!readWholeFile(path, content, error))
        throw ConfigError(error, SourceMark{path, 0, 0});
    return loadYamlText(content, path);
}

} // namespace ps::core::config
