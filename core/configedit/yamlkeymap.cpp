#include "core/configedit/yamlkeymap.h"

#include "core/config/yamlemitter.h"
#include "core/configedit/linediff.h"

namespace ps::core::configedit {

using core::config::Node;

namespace {

class Walker
{
public:
    Walker(const std::vector<std::string> &lines, YamlKeyMap &map) : m_lines(lines), m_map(map) {}

    void dict(const Node &n, const std::string &path, int indent, bool firstOnDashLine)
    {
        for (size_t i = 0; i < n.size(); ++i) {
            const std::string &key = n.keyAt(i);
            const std::string child = path.empty() ? key : path + "." + key;
            // The first key of a dict that is a list item sits on the "- " line.
            const bool onDash = firstOnDashLine && i == 0;
            // Most keys are written plain; quoting them through the emitter costs more than the
            // whole search, so it is only the fallback.
            if (!onDash && !find(std::string(indent, ' ') + key + ":"))
                find(std::string(indent, ' ') + core::config::yamlScalar(Node::string(key)) + ":");
            mark(child);
            value(n.valueAt(i), child, indent);
        }
    }

    void value(const Node &v, const std::string &path, int indent)
    {
        if (v.isDict() && v.size() > 0) {
            dict(v, path, indent + 2, false);
        } else if (v.isList() && v.size() > 0) {
            // PyYAML does not indent a block list under its key.
            list(v, path, indent);
        }
    }

    void list(const Node &l, const std::string &path, int indent)
    {
        for (size_t i = 0; i < l.items().size(); ++i) {
            const std::string child = path + "." + std::to_string(i);
            find(std::string(indent, ' ') + "-");
            mark(child);
            const Node &item = l.items()[i];
            if (item.isDict() && item.size() > 0)
                dict(item, child, indent + 2, true);
            else if (item.isList() && item.size() > 0)
                list(item, child, indent + 2); // "- - x": nested lists; rare in configs
        }
    }

private:
    // The next line starting with `prefix`, searched only inside the current block: a line
    // indented less than the prefix has left it (so a key the emitter wrote differently costs a
    // few lines, not a scan to the end of the file).
    bool find(const std::string &prefix)
    {
        const size_t indent = prefix.find_first_not_of(' ');
        for (size_t k = m_next; k < m_lines.size(); ++k) {
            const std::string &line = m_lines[k];
            if (line.compare(0, prefix.size(), prefix) == 0) {
                m_line = static_cast<int>(k);
                m_next = k + 1;
                return true;
            }
            const size_t lead = line.find_first_not_of(' ');
            if (lead != std::string::npos && lead < indent)
                return false;
        }
        return false;
    }

    void mark(const std::string &path)
    {
        if (m_line < 0)
            return;
        m_map.keyLines.emplace(path, m_line);
        // Later entries overwrite: the innermost key on a line wins ("- name: x" -> lst.0.name).
        m_map.lineKeys[m_line] = path;
    }

    const std::vector<std::string> &m_lines;
    YamlKeyMap &m_map;
    size_t m_next = 0;
    int m_line = -1;
};

} // namespace

YamlKeyMap buildYamlKeyMap(const Node &root, const std::string &yaml)
{
    const std::vector<std::string> lines = splitLines(yaml);
    YamlKeyMap map;
    map.lineKeys.assign(lines.size(), std::string());
    Walker w(lines, map);
    if (root.isDict())
        w.dict(root, "", 0, false);
    // Continuation lines (folded scalars) belong to the entry above them.
    for (size_t k = 1; k < map.lineKeys.size(); ++k)
        if (map.lineKeys[k].empty())
            map.lineKeys[k] = map.lineKeys[k - 1];
    return map;
}

} // namespace ps::core::configedit
