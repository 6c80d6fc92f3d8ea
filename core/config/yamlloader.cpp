#include "core/config/yamlloader.h"

#include "core/common/atomicfile.h"
#include "core/config/configerror.h"
#include "core/config/nodecount.h"
#include "core/config/yamlscalar.h"

#include <yaml.h>

#include <unordered_map>
#include <unordered_set>

namespace ps::core::config {

namespace {

// Aliases are expanded into copies. A "billion laughs" document (ten levels of anchors, each a
// list of ten aliases of the one before) would expand to 10^10 values from a few hundred bytes;
// a file may hold at most this many values once expanded (real configs hold a few thousand).
constexpr size_t kMaxValuesPerFile = 100000;
// Containers nested deeper than this are refused (PyYAML would hit Python's recursion limit;
// Node's destructor recurses).
constexpr size_t kMaxNesting = 1000;

const char *const kStrTag = "tag:yaml.org,2002:str";

std::string tagOf(const yaml_char_t *tag)
{
    return tag ? std::string(reinterpret_cast<const char *>(tag)) : std::string();
}

// Builds Nodes from libyaml's events (libyaml is PyYAML's own C scanner and parser, so what
// fails to parse here fails in OmegaConf too, at the same place).
class TreeBuilder
{
public:
    explicit TreeBuilder(const std::string &file) : m_file(file) {}

    Node takeRoot() { return std::move(m_root); }
    bool hasRoot() const { return m_haveRoot; }

    void onEvent(const yaml_event_t &e)
    {
        switch (e.type) {
        case YAML_SCALAR_EVENT:
            onScalar(e);
            break;
        case YAML_ALIAS_EVENT:
            onAlias(e);
            break;
        case YAML_SEQUENCE_START_EVENT:
            openContainer(Node::list(), e.start_mark, e.data.sequence_start.anchor);
            break;
        case YAML_MAPPING_START_EVENT:
            openContainer(Node::dict(), e.start_mark, e.data.mapping_start.anchor);
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            finishContainer();
            break;
        default:
            break;
        }
    }

private:
    struct Frame
    {
        Node node;
        SourceMark mark;
        std::string anchor;
        Node pendingKey; // a String node, or the Int / Float / Bool a plain key resolved to
        SourceMark pendingKeyMark;
        std::unordered_set<std::string> seenKeys;
        bool haveKey = false;
    };

    SourceMark markOf(const yaml_mark_t &m) const
    {
        return SourceMark{m_file, static_cast<int>(m.line) + 1, static_cast<int>(m.column) + 1};
    }

    static std::string anchorOf(const yaml_char_t *anchor)
    {
        return anchor ? std::string(reinterpret_cast<const char *>(anchor)) : std::string();
    }

    void onScalar(const yaml_event_t &e)
    {
        const auto &s = e.data.scalar;
        std::string value(reinterpret_cast<const char *>(s.value), s.length);
        const std::string tag = tagOf(s.tag);
        Node n;
        if (tag.empty())
            n = s.style == YAML_PLAIN_SCALAR_STYLE ? typePlainScalar(value) : Node::text(value);
        else if (tag == "!" || tag == kStrTag)
            n = Node::text(value);
        else if (tag == "tag:yaml.org,2002:int" || tag == "tag:yaml.org,2002:float" ||
                 tag == "tag:yaml.org,2002:bool" || tag == "tag:yaml.org,2002:null")
            n = typePlainScalar(value);
        else
            throw ConfigError("could not determine a constructor for the tag '" + tag + "'", markOf(e.start_mark));
        add(std::move(n), markOf(e.start_mark), anchorOf(s.anchor), &value);
    }

    void onAlias(const yaml_event_t &e)
    {
        const SourceMark mark = markOf(e.start_mark);
        const std::string anchor = anchorOf(e.data.alias.anchor);
        auto it = m_anchors.find(anchor);
        if (it == m_anchors.end())
            throw ConfigError("found undefined alias '" + anchor + "'", mark);
        const size_t size = countValues(it->second);
        if (m_values + size > kMaxValuesPerFile)
            throw ConfigError("YAML aliases expand to more than " + std::to_string(kMaxValuesPerFile) +
                                  " values (anchors that repeat each other, as in a 'billion laughs' document); "
                                  "refusing to load the file",
                              mark);
        m_values += size - 1; // add() counts the alias itself
        add(it->second, mark, {}, nullptr);
    }

    void openContainer(Node node, const yaml_mark_t &mark, const yaml_char_t *anchor)
    {
        if (m_stack.size() >= kMaxNesting)
            throw ConfigError("YAML nested deeper than " + std::to_string(kMaxNesting) + " levels", markOf(mark));
        Frame f;
        f.node = std::move(node);
        f.mark = markOf(mark);
        f.anchor = anchorOf(anchor);
        m_stack.push_back(std::move(f));
    }

    void finishContainer()
    {
        Frame f = std::move(m_stack.back());
        m_stack.pop_back();
        f.node.mark = f.mark;
        f.node.shrinkToFit();
        placeValue(std::move(f.node), f.mark, f.anchor);
    }

    void add(Node n, const SourceMark &sm, const std::string &anchor, const std::string *rawKeyText)
    {
        if (++m_values > kMaxValuesPerFile)
            throw ConfigError("the file holds more than " + std::to_string(kMaxValuesPerFile) + " values", sm);
        n.mark = sm;
        // A scalar in key position of a mapping becomes the pending key.
        if (!m_stack.empty() && m_stack.back().node.isDict() && !m_stack.back().haveKey) {
            Frame &f = m_stack.back();
            if (n.isContainer())
                throw ConfigError("complex (non-scalar) mapping keys are not supported", sm);
            // Keys are typed as OmegaConf's loader types them: a plain `1:` is the int key 1,
            // `yes:` the bool True (and equal to 1, as in a Python dict). Its duplicate-key check
            // looks only at string-tagged keys, by their text; typed keys that compare equal
            // simply merge, the later value winning.
            Node key = n.isStringLike() ? Node::string(n.asString()) : n; // an alias key: the anchored scalar
            key.mark = {};
            if (key.isNull())
                throw ConfigError("Incompatible key type 'NoneType': the key `" +
                                      (rawKeyText ? *rawKeyText : std::string("*alias")) +
                                      "` is null; OmegaConf keys are strings, ints, floats or bools",
                                  sm);
            if (key.kind() == Node::Kind::String && !f.seenKeys.insert(key.asString()).second)
                throw ConfigError("found duplicate key " + key.asString() + " (while constructing a mapping at line " +
                                      std::to_string(f.mark.line) + ", column " + std::to_string(f.mark.column) + ")",
                                  sm);
            f.pendingKey = std::move(key);
            f.pendingKeyMark = sm;
            f.haveKey = true;
            if (!anchor.empty())
                m_anchors[anchor] = n;
            return;
        }
        placeValue(std::move(n), sm, anchor);
    }

    void placeValue(Node n, const SourceMark &mark, const std::string &anchor)
    {
        if (!anchor.empty())
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
        // a nested dict or list at its key, the line a reader looks for.
        n.mark = n.isContainer() ? f.pendingKeyMark : mark;
        f.node.setKey(f.pendingKey, std::move(n));
        f.haveKey = false;
    }

    FileName m_file; // interned once: every node's mark shares it
    std::vector<Frame> m_stack;
    std::unordered_map<std::string, Node> m_anchors;
    size_t m_values = 0; // values built so far, alias copies included
    Node m_root;
    bool m_haveRoot = false;
};

// One libyaml parser over a string; frees what libyaml allocated on every path.
class EventReader
{
public:
    EventReader(std::string_view text, const std::string &file) : m_text(text), m_file(file)
    {
        if (!yaml_parser_initialize(&m_parser))
            throw ConfigError("out of memory initialising the YAML parser", SourceMark{file, 0, 0});
        yaml_parser_set_input_string(&m_parser, reinterpret_cast<const unsigned char *>(text.data()), text.size());
    }
    ~EventReader() { yaml_parser_delete(&m_parser); }
    EventReader(const EventReader &) = delete;
    EventReader &operator=(const EventReader &) = delete;

    // Reads the next event into `event` (which the caller deletes); throws on malformed YAML.
    void next(yaml_event_t &event)
    {
        if (!yaml_parser_parse(&m_parser, &event))
            throw parseError();
    }

private:
    ConfigError parseError() const
    {
        std::string what = m_parser.problem ? m_parser.problem : "cannot parse";
        if (m_parser.context)
            what = std::string(m_parser.context) + ": " + what;
        if (m_parser.error == YAML_READER_ERROR)
            return ConfigError("malformed YAML: " + what, markAtOffset(m_parser.problem_offset));
        const yaml_mark_t &m = m_parser.problem_mark;
        return ConfigError("malformed YAML: " + what,
                           SourceMark{m_file, static_cast<int>(m.line) + 1, static_cast<int>(m.column) + 1});
    }

    // Reader errors (bad UTF-8, control characters) carry a byte offset only.
    SourceMark markAtOffset(size_t offset) const
    {
        int line = 1, column = 1;
        for (size_t i = 0; i < offset && i < m_text.size(); ++i) {
            if (m_text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        return SourceMark{m_file, line, column};
    }

    yaml_parser_t m_parser{};
    std::string_view m_text;
    const std::string &m_file;
};

struct EventGuard
{
    yaml_event_t event{};
    ~EventGuard() { yaml_event_delete(&event); }
};

// Feeds the first document's events to `builder`; a second document is PyYAML's error.
void buildSingleDocument(std::string_view text, const std::string &fileName, TreeBuilder &builder)
{
    EventReader reader(text, fileName);
    int documents = 0;
    for (;;) {
        EventGuard g;
        reader.next(g.event);
        const yaml_event_type_t type = g.event.type;
        if (type == YAML_STREAM_END_EVENT)
            return;
        if (type == YAML_DOCUMENT_START_EVENT && ++documents > 1)
            throw ConfigError("expected a single document in the stream, but found another document",
                              SourceMark{fileName, static_cast<int>(g.event.start_mark.line) + 1,
                                         static_cast<int>(g.event.start_mark.column) + 1});
        builder.onEvent(g.event);
    }
}

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

LoadedYaml loadYamlText(std::string_view text, const std::string &fileName)
{
    LoadedYaml out;
    parseHeader(text, out, fileName);
    TreeBuilder builder(fileName);
    buildSingleDocument(text, fileName, builder);
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
