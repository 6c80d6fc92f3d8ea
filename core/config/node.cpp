#include "core/config/node.h"

#include <cstdlib>

#include "core/config/pythonfloat.h"

#include <cassert>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <utility>

namespace ps::core::config {

namespace {

const std::string kEmpty;

// A dict key's identity under Python's ==, from its str() text and kind: bool, int and float
// keys compare by value (True == 1 == 1.0), strings by text, and the two never meet. Empty for
// nan, which equals nothing.
std::string dictKeyIdentity(const std::string &text, Node::Kind kind)
{
    switch (kind) {
    case Node::Kind::Bool:
        return text == "True" ? "#1" : "#0";
    case Node::Kind::Int:
        return "#" + text;
    case Node::Kind::Float: {
        const double v = std::strtod(text.c_str(), nullptr);
        if (std::isnan(v))
            return {};
        if (v == 0)
            return "#0";
        if (std::isfinite(v) && std::trunc(v) == v) {
            char digits[400];
            std::snprintf(digits, sizeof digits, "%.0f", v);
            return std::string("#") + digits;
        }
        return "f" + text;
    }
    case Node::Kind::Null:
        return "n";
    default:
        return "s" + text;
    }
}

} // namespace

Node Node::boolean(bool v)
{
    Node n;
    n.m_kind = Kind::Bool;
    n.m_bool = v;
    return n;
}

Node Node::integer(int64_t v)
{
    Node n;
    n.m_kind = Kind::Int;
    n.m_int = v;
    return n;
}

Node Node::bigInteger(std::string decimal)
{
    Node n;
    n.m_kind = Kind::Int;
    const bool negative = !decimal.empty() && decimal[0] == '-';
    n.m_int = negative ? INT64_MIN : INT64_MAX;
    n.m_string = std::move(decimal);
    return n;
}

std::string Node::intText() const
{
    assert(m_kind == Kind::Int);
    return m_string.empty() ? std::to_string(m_int) : m_string;
}

Node Node::floating(double v)
{
    Node n;
    n.m_kind = Kind::Float;
    n.m_float = v;
    return n;
}

Node Node::string(std::string v)
{
    Node n;
    n.m_kind = Kind::String;
    n.m_string = std::move(v);
    return n;
}

Node Node::text(std::string v)
{
    if (v == "???")
        return missing();
    if (v.find("${") != std::string::npos)
        return interpolation(std::move(v));
    return string(std::move(v));
}

Node Node::missing()
{
    Node n;
    n.m_kind = Kind::Missing;
    n.m_string = "???";
    return n;
}

Node Node::interpolation(std::string v)
{
    Node n;
    n.m_kind = Kind::Interpolation;
    n.m_string = std::move(v);
    return n;
}

Node Node::dict()
{
    Node n;
    n.m_kind = Kind::Dict;
    return n;
}

Node Node::list()
{
    Node n;
    n.m_kind = Kind::List;
    return n;
}

bool Node::asBool() const
{
    assert(m_kind == Kind::Bool);
    return m_bool;
}

int64_t Node::asInt() const
{
    assert(m_kind == Kind::Int);
    return m_int;
}

double Node::asFloat() const
{
    assert(m_kind == Kind::Float || m_kind == Kind::Int);
    if (m_kind == Kind::Int)
        return m_string.empty() ? static_cast<double>(m_int) : std::strtod(m_string.c_str(), nullptr);
    return m_float;
}

const std::string &Node::asString() const
{
    assert(isStringLike());
    return isStringLike() ? m_string : kEmpty;
}

std::string Node::toPythonString() const
{
    switch (m_kind) {
    case Kind::Null:
        return "None";
    case Kind::Bool:
        return m_bool ? "True" : "False";
    case Kind::Int:
        return intText();
    case Kind::Float:
        return pythonFloatRepr(m_float);
    case Kind::String:
    case Kind::Missing:
    case Kind::Interpolation:
        return m_string;
    case Kind::Dict:
    case Kind::List:
        break;
    }
    // Containers inside a string interpolation: Python would print a repr; a compact form is
    // enough for the rare config that does this.
    std::string s = m_kind == Kind::Dict ? "{" : "[";
    for (size_t i = 0; i < m_items.size(); ++i) {
        if (i)
            s += ", ";
        if (m_kind == Kind::Dict)
            s += (keyKindAt(i) == Kind::String ? "'" + m_keys[i] + "'" : m_keys[i]) + ": ";
        const Node &v = m_items[i];
        s += v.isStringLike() ? "'" + v.m_string + "'" : v.toPythonString();
    }
    return s + (m_kind == Kind::Dict ? "}" : "]");
}

size_t Node::size() const
{
    return isContainer() ? m_items.size() : 0;
}

const std::string &Node::keyAt(size_t i) const
{
    assert(isDict() && i < m_keys.size());
    return m_keys[i];
}

const Node &Node::valueAt(size_t i) const
{
    assert(i < m_items.size());
    return m_items[i];
}

Node &Node::valueAt(size_t i)
{
    assert(i < m_items.size());
    return m_items[i];
}

const Node *Node::find(std::string_view key) const
{
    if (m_kind != Kind::Dict)
        return nullptr;
    for (size_t i = 0; i < m_keys.size(); ++i)
        if (m_keys[i] == key && keyKindAt(i) == Kind::String)
            return &m_items[i];
    return nullptr;
}

Node *Node::find(std::string_view key)
{
    return const_cast<Node *>(static_cast<const Node *>(this)->find(key));
}

Node &Node::set(const std::string &key, Node value)
{
    return setKeyText(key, Kind::String, std::move(value));
}

bool Node::erase(std::string_view key)
{
    if (m_kind != Kind::Dict)
        return false;
    for (size_t i = 0; i < m_keys.size(); ++i) {
        if (m_keys[i] == key && keyKindAt(i) == Kind::String) {
            m_keys.erase(m_keys.begin() + static_cast<std::ptrdiff_t>(i));
            if (!m_keyKinds.empty())
                m_keyKinds.erase(m_keyKinds.begin() + static_cast<std::ptrdiff_t>(i));
            m_items.erase(m_items.begin() + static_cast<std::ptrdiff_t>(i));
            return true;
        }
    }
    return false;
}

Node Node::keyNodeAt(size_t i) const
{
    assert(isDict() && i < m_keys.size());
    const std::string &text = m_keys[i];
    switch (keyKindAt(i)) {
    case Kind::Int: {
        errno = 0;
        const long long v = std::strtoll(text.c_str(), nullptr, 10);
        return errno == ERANGE ? bigInteger(text) : integer(v);
    }
    case Kind::Float:
        return floating(std::strtod(text.c_str(), nullptr));
    case Kind::Bool:
        return boolean(text == "True");
    case Kind::Null:
        return null();
    default:
        return string(text);
    }
}

namespace {

// A key node's str() text and key kind (text-like nodes are String keys).
std::pair<std::string, Node::Kind> keyTextAndKind(const Node &key)
{
    if (key.isStringLike())
        return {key.asString(), Node::Kind::String};
    return {key.toPythonString(), key.kind()};
}

} // namespace

const Node *Node::findKey(const Node &key) const
{
    const auto [text, kind] = keyTextAndKind(key);
    const size_t i = indexOfKey(text, kind);
    return i < m_keys.size() ? &m_items[i] : nullptr;
}

Node &Node::setKey(const Node &key, Node value)
{
    const auto [text, kind] = keyTextAndKind(key);
    return setKeyText(text, kind, std::move(value));
}

size_t Node::keyIndexOf(const Node &dict, size_t i) const
{
    return indexOfKey(dict.keyAt(i), dict.keyKindAt(i));
}

const Node *Node::findKeyOf(const Node &dict, size_t i) const
{
    const size_t j = keyIndexOf(dict, i);
    return j < m_keys.size() ? &m_items[j] : nullptr;
}

Node &Node::setKeyOf(const Node &dict, size_t i, Node value)
{
    return setKeyText(dict.keyAt(i), dict.keyKindAt(i), std::move(value));
}

Node &Node::setKeyText(const std::string &text, Kind kind, Node value)
{
    assert(isDict());
    const size_t i = indexOfKey(text, kind);
    if (i < m_keys.size()) {
        m_items[i] = std::move(value);
        return m_items[i];
    }
    appendKey(text, kind);
    m_items.push_back(std::move(value));
    return m_items.back();
}

size_t Node::indexOfKey(const std::string &text, Kind kind) const
{
    if (m_kind != Kind::Dict)
        return m_keys.size();
    if (kind == Kind::String) {
        for (size_t i = 0; i < m_keys.size(); ++i)
            if (m_keys[i] == text && keyKindAt(i) == Kind::String)
                return i;
        return m_keys.size();
    }
    const std::string wanted = dictKeyIdentity(text, kind);
    if (wanted.empty())
        return m_keys.size(); // nan equals no other key
    for (size_t i = 0; i < m_keyKinds.size(); ++i)
        if (m_keyKinds[i] != Kind::String && dictKeyIdentity(m_keys[i], m_keyKinds[i]) == wanted)
            return i;
    return m_keys.size();
}

void Node::appendKey(std::string text, Kind kind)
{
    if (kind != Kind::String || !m_keyKinds.empty()) {
        m_keyKinds.resize(m_keys.size(), Kind::String); // the first typed key: earlier ones are strings
        m_keyKinds.push_back(kind);
    }
    m_keys.push_back(std::move(text));
}

void Node::append(Node value)
{
    assert(isList());
    m_items.push_back(std::move(value));
}

bool Node::operator==(const Node &other) const
{
    if (m_kind != other.m_kind)
        return false;
    switch (m_kind) {
    case Kind::Null:
        return true;
    case Kind::Bool:
        return m_bool == other.m_bool;
    case Kind::Int:
        return m_int == other.m_int && m_string == other.m_string;
    case Kind::Float:
        return m_float == other.m_float || (m_float != m_float && other.m_float != other.m_float);
    case Kind::String:
    case Kind::Missing:
    case Kind::Interpolation:
        return m_string == other.m_string;
    case Kind::Dict:
        if (m_keys != other.m_keys || m_items != other.m_items)
            return false;
        for (size_t i = 0; i < m_keys.size(); ++i)
            if (keyKindAt(i) != other.keyKindAt(i))
                return false;
        return true;
    case Kind::List:
        return m_items == other.m_items;
    }
    return false;
}

const char *kindName(Node::Kind kind)
{
    switch (kind) {
    case Node::Kind::Null:
        return "null";
    case Node::Kind::Bool:
        return "bool";
    case Node::Kind::Int:
        return "int";
    case Node::Kind::Float:
        return "float";
    case Node::Kind::String:
        return "str";
    case Node::Kind::Missing:
        return "missing";
    case Node::Kind::Interpolation:
        return "interpolation";
    case Node::Kind::Dict:
        return "dict";
    case Node::Kind::List:
        return "list";
    }
    return "?";
}

} // namespace ps::core::config
