#include "core/config/keypath.h"

#include <charconv>

namespace ps::core::config {

std::vector<std::string> splitKeyPath(std::string_view path)
{
    // "a[0][1].b" is "a.0.1.b": brackets are another spelling of a dot step.
    std::vector<std::string> parts;
    if (path.empty())
        return parts;
    std::string cur;
    for (char c : path) {
        if (c == '.' || c == '[') {
            parts.push_back(cur);
            cur.clear();
        } else if (c != ']') {
            cur += c;
        }
    }
    parts.push_back(cur);
    return parts;
}

std::string joinKeyPath(const std::vector<std::string> &parts)
{
    std::string s;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i)
            s += '.';
        s += parts[i];
    }
    return s;
}

namespace {

bool parseIndex(std::string_view s, size_t &out)
{
    if (s.empty())
        return false;
    auto res = std::from_chars(s.data(), s.data() + s.size(), out);
    return res.ec == std::errc() && res.ptr == s.data() + s.size();
}

} // namespace

const Node *childNode(const Node &container, std::string_view key)
{
    if (container.isDict())
        return container.find(key);
    size_t idx = 0;
    if (container.isList() && parseIndex(key, idx) && idx < container.items().size())
        return &container.items()[idx];
    return nullptr;
}

Node *childNode(Node &container, std::string_view key)
{
    return const_cast<Node *>(childNode(static_cast<const Node &>(container), key));
}

const Node *findPath(const Node &root, std::string_view path)
{
    const Node *cur = &root;
    for (const std::string &part : splitKeyPath(path)) {
        cur = childNode(*cur, part);
        if (!cur)
            return nullptr;
    }
    return cur;
}

Node *findPath(Node &root, std::string_view path)
{
    return const_cast<Node *>(findPath(static_cast<const Node &>(root), path));
}

const Node *findPathForDisplay(const Node &root, std::string_view path)
{
    const Node *cur = &root;
    for (const std::string &part : splitKeyPath(path)) {
        const Node *next = childNode(*cur, part);
        for (size_t i = 0; !next && cur->isDict() && i < cur->size(); ++i)
            if (cur->keyKindAt(i) != Node::Kind::String && cur->keyAt(i) == part)
                next = &cur->valueAt(i);
        if (!next)
            return nullptr;
        cur = next;
    }
    return cur;
}

} // namespace ps::core::config
