#pragma once
// The config tree: what OmegaConf holds after loading YAML, plus a source mark on every node.
//
// Scalars keep OmegaConf's types: Int, Float, Bool, Null and String ('1' quoted in YAML stays a
// String). Two string-shaped kinds are told apart because composition treats them specially:
// Missing is the literal "???" (OmegaConf's MISSING) and Interpolation is any string containing
// "${" (OmegaConf resolves those lazily; an escaped "\${" is still stored as written). Dicts
// keep key order (insertion order, which is what Hydra prints); lists keep their items.
//
// Dict keys are strings except where YAML or an override typed them: OmegaConf's loader reads a
// plain `1:` as an int key and Hydra's grammar reads `{1: a}` so too; OmegaConf keeps int, float
// and bool keys (a null key it refuses).
// A typed key is stored as its Python str() ("1", "1000.0", "True") with its kind beside it; the
// string lookups (find, set, erase) see only String keys, as OmegaConf's "x.1" never finds int 1.
//
// Nodes are values: copying a Node copies its subtree. Dict lookups are linear; config dicts
// are small (tens of keys), and order matters more than lookup speed here.

#include "core/config/sourcemark.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::config {

class Node
{
public:
    enum class Kind { Null, Bool, Int, Float, String, Missing, Interpolation, Dict, List };

    Node() = default; // Null
    static Node null() { return Node(); }
    static Node boolean(bool v);
    static Node integer(int64_t v);
    // An int beyond 64 bits (Python's are unbounded): its decimal text, e.g. "-123456789012345678901".
    // asInt() saturates; intText(), the emitters and interpolation use the exact digits.
    static Node bigInteger(std::string decimal);
    static Node floating(double v);
    // A plain string, never classified: stays String even if it reads "???" or contains "${".
    static Node string(std::string v);
    // Classifies as OmegaConf does: "???" -> Missing, contains "${" -> Interpolation, else String.
    static Node text(std::string v);
    static Node missing();
    static Node interpolation(std::string v);
    static Node dict();
    static Node list();

    Kind kind() const { return m_kind; }
    bool isNull() const { return m_kind == Kind::Null; }
    bool isDict() const { return m_kind == Kind::Dict; }
    bool isList() const { return m_kind == Kind::List; }
    bool isMissing() const { return m_kind == Kind::Missing; }
    bool isInterpolation() const { return m_kind == Kind::Interpolation; }
    bool isContainer() const { return isDict() || isList(); }
    bool isScalar() const { return !isContainer(); }
    // String, Missing or Interpolation: the value is text.
    bool isStringLike() const
    {
        return m_kind == Kind::String || m_kind == Kind::Missing || m_kind == Kind::Interpolation;
    }

    // Accessors; calling one on the wrong kind is a programming error (asserted, returns a default).
    bool asBool() const;
    int64_t asInt() const;
    bool isBigInt() const { return m_kind == Kind::Int && !m_string.empty(); }
    // Python str() of an Int: its decimal digits, exact also beyond 64 bits.
    std::string intText() const;
    double asFloat() const; // Int converts
    // The text of a String, Missing ("???") or Interpolation node.
    const std::string &asString() const;

    // Python str() of a scalar as OmegaConf would give it when interpolated into a string:
    // "True", "None", "1.5", "1e-06", the text itself.
    std::string toPythonString() const;

    // ---- Dict ----
    size_t size() const; // dict entries or list items; 0 for scalars
    const std::string &keyAt(size_t i) const;
    const Node &valueAt(size_t i) const;
    Node &valueAt(size_t i);
    const std::vector<std::string> &keys() const { return m_keys; }
    // The kind of key i: String, or Int / Float / Bool / Null for a key an override typed.
    Kind keyKindAt(size_t i) const { return m_keyKinds.empty() ? Kind::String : m_keyKinds[i]; }
    // Key i as a scalar node of its kind (a String node for a string key).
    Node keyNodeAt(size_t i) const;
    // Python dict semantics for a key of any kind: 1, 1.0 and true are one key; "1" is another.
    // An existing key keeps its own kind and position; only its value is replaced.
    const Node *findKey(const Node &key) const;
    Node &setKey(const Node &key, Node value);
    // The same for key i of `dict` (copying entries between dicts without building key nodes).
    // The index of the key equal to key i of `dict`; size() when there is none.
    size_t keyIndexOf(const Node &dict, size_t i) const;
    const Node *findKeyOf(const Node &dict, size_t i) const;
    Node &setKeyOf(const Node &dict, size_t i, Node value);
    // nullptr when the key is absent (or this is not a dict).
    const Node *find(std::string_view key) const;
    Node *find(std::string_view key);
    // Replaces the value in place (keeping the key's position) or appends a new key.
    Node &set(const std::string &key, Node value);
    // Returns false when the key was absent.
    bool erase(std::string_view key);

    // ---- List ----
    const std::vector<Node> &items() const { return m_items; }
    std::vector<Node> &items() { return m_items; }
    void append(Node value);
    // Drops spare capacity (a loaded file's containers are final once parsed).
    void shrinkToFit()
    {
        m_keys.shrink_to_fit();
        m_keyKinds.shrink_to_fit();
        m_items.shrink_to_fit();
    }

    // Where this node was written: a scalar at its own token, a nested dict or list at its key.
    SourceMark mark;

    // Structural equality of kind and value (marks ignored); Int 1 != Float 1.0, as to_yaml differs.
    bool operator==(const Node &other) const;
    bool operator!=(const Node &other) const { return !(*this == other); }

private:
    size_t indexOfKey(const std::string &text, Kind kind) const; // m_keys.size() when absent
    Node &setKeyText(const std::string &text, Kind kind, Node value);
    void appendKey(std::string text, Kind kind);

    Kind m_kind = Kind::Null;
    bool m_bool = false;
    int64_t m_int = 0;
    double m_float = 0.0;
    std::string m_string;
    std::vector<std::string> m_keys; // Dict: keys, parallel to m_items
    std::vector<Kind> m_keyKinds;    // Dict: kinds of m_keys; empty while every key is a String
    std::vector<Node> m_items;       // Dict: values; List: items
};

const char *kindName(Node::Kind kind);

} // namespace ps::core::config
