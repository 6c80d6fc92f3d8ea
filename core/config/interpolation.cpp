#include "core/config/interpolation.h"

#include "core/config/keypath.h"
#include "core/config/override.h"
#include "core/config/yamlloader.h"

#include <set>

namespace ps::core::config {

namespace {

using Path = std::vector<std::string>;

constexpr int kMaxDepth = 64;
// Work bounds per resolved value: references that fan out ("a: ${b}${b}", "b: ${c}${c}", ...)
// grow exponentially; they become an error instead of a hang.
constexpr int kMaxEvaluations = 5000;
// And for a whole resolveAll(), so that many such values cannot add up to a hang either.
constexpr int kMaxTotalEvaluations = 200000;
constexpr size_t kMaxStringBytes = 1 << 20;
// Whole-value interpolations copy the subtree they reference; many references to a big subtree
// would build a tree far larger than the config. Bounded per resolveAll() (and per single call).
constexpr size_t kMaxResolvedNodes = 1000000;

std::string trim(const std::string &s)
{
    size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
        return {};
    size_t e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

bool isIdChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

class Resolver
{
public:
    Resolver(const Node &root, const EnvLookup &env, int *totalEvaluations = nullptr, size_t *nodesBuilt = nullptr)
        : m_root(root), m_env(env), m_total(totalEvaluations), m_nodes(nodesBuilt ? nodesBuilt : &m_ownNodes)
    {
    }

    // The resolved copy of `n`, which sits at `path`.
    Node resolveNode(const Node &n, const Path &path)
    {
        if (++*m_nodes > kMaxResolvedNodes)
            throw ConfigError("Resolving interpolations builds more than " + std::to_string(kMaxResolvedNodes) +
                              " values (references that copy a large subtree many times)");
        if (n.isInterpolation()) {
            Node r = resolveText(n.asString(), path);
            r.mark = n.mark;
            return r;
        }
        if (n.isDict()) {
            Node out = Node::dict();
            out.mark = n.mark;
            for (size_t i = 0; i < n.size(); ++i) {
                Path p = path;
                p.push_back(n.keyAt(i));
                out.setKeyOf(n, i, resolveNode(n.valueAt(i), p));
            }
            return out;
        }
        if (n.isList()) {
            Node out = Node::list();
            out.mark = n.mark;
            for (size_t i = 0; i < n.items().size(); ++i) {
                Path p = path;
                p.push_back(std::to_string(i));
                out.append(resolveNode(n.items()[i], p));
            }
            return out;
        }
        return n;
    }

    // A string value that may hold interpolations. A value that is exactly one interpolation
    // keeps the referenced type; anything else concatenates to a string.
    Node resolveText(const std::string &text, const Path &path)
    {
        if (++m_depth > kMaxDepth)
            throw ConfigError("Interpolation nesting too deep (a reference cycle?) in '" + text + "'");
        struct DepthGuard
        {
            int &d;
            ~DepthGuard() { --d; }
        } guard{m_depth};
        std::vector<Node> pieces;
        std::string literal;
        bool onlyOneInterpolation = true;
        size_t pos = 0;
        while (pos < text.size()) {
            if (text.compare(pos, 3, "\\${") == 0) {
                literal += "${";
                pos += 3;
                onlyOneInterpolation = false;
                continue;
            }
            if (text.compare(pos, 4, "\\\\${") == 0) {
                literal += "\\";
                pos += 2;
                onlyOneInterpolation = false;
                continue;
            }
            if (text.compare(pos, 2, "${") == 0) {
                if (!literal.empty()) {
                    pieces.push_back(Node::string(literal));
                    literal.clear();
                }
                size_t end = matchingBrace(text, pos + 1);
                if (end == std::string::npos)
                    throw ConfigError("Unclosed interpolation '" + text.substr(pos) + "' in '" + text + "'");
                pieces.push_back(evalInterpolation(text.substr(pos + 2, end - pos - 2), path));
                pos = end + 1;
                continue;
            }
            literal += text[pos++];
            onlyOneInterpolation = false;
        }
        if (!literal.empty())
            pieces.push_back(Node::string(literal));
        if (pieces.size() == 1 && onlyOneInterpolation)
            return pieces.front();
        std::string s;
        for (const Node &p : pieces) {
            s += p.toPythonString();
            if (s.size() > kMaxStringBytes)
                throw ConfigError("Interpolation result longer than 1 MiB");
        }
        return Node::string(s);
    }

private:
    // Index of the '}' that closes the '{' at `open`, skipping nested braces and quotes.
    static size_t matchingBrace(const std::string &s, size_t open)
    {
        int depth = 0;
        char quote = 0;
        for (size_t i = open; i < s.size(); ++i) {
            char c = s[i];
            if (quote) {
                if (c == '\\')
                    ++i;
                else if (c == quote)
                    quote = 0;
                continue;
            }
            if (c == '\'' || c == '"') {
                if (depth > 0 && i > open && s[open] == '{')
                    quote = c;
                continue;
            }
            if (c == '{')
                ++depth;
            else if (c == '}' && --depth == 0)
                return i;
        }
        return std::string::npos;
    }

    Node evalInterpolation(const std::string &inner, const Path &path)
    {
        if (++m_evaluations > kMaxEvaluations)
            throw ConfigError("Interpolation too complex (more than " + std::to_string(kMaxEvaluations) +
                              " references to resolve one value)");
        if (m_total && ++*m_total > kMaxTotalEvaluations)
            throw ConfigError("Interpolation too complex (more than " + std::to_string(kMaxTotalEvaluations) +
                              " references to resolve the config)");
        std::string body = trim(inner);
        // Resolver call: NAME(.NAME)* ':' args
        size_t i = 0;
        while (i < body.size() && (isIdChar(body[i]) || body[i] == '.'))
            ++i;
        if (i > 0 && i < body.size() && body[i] == ':' && body[0] != '.') {
            std::string name = body.substr(0, i);
            return callResolver(name, splitArgs(body.substr(i + 1)), path);
        }
        // Node reference; the key may itself contain interpolations (${a.${b}}).
        std::string key;
        if (body.find("${") != std::string::npos)
            key = resolveText(body, path).toPythonString();
        else
            key = body;
        return select(key, path, true, nullptr);
    }

    static std::vector<std::string> splitArgs(const std::string &s)
    {
        std::vector<std::string> args;
        std::string cur;
        int depth = 0;
        char quote = 0;
        for (size_t i = 0; i < s.size(); ++i) {
            char c = s[i];
            if (quote) {
                cur += c;
                if (c == '\\' && i + 1 < s.size())
                    cur += s[++i];
                else if (c == quote)
                    quote = 0;
                continue;
            }
            if (c == '\'' || c == '"')
                quote = c;
            else if (c == '{' || c == '[')
                ++depth;
            else if (c == '}' || c == ']')
                --depth;
            else if (c == ',' && depth == 0) {
                args.push_back(cur);
                cur.clear();
                continue;
            }
            cur += c;
        }
        if (!s.empty() || !args.empty())
            args.push_back(cur);
        return args;
    }

    Node evalArg(const std::string &raw, const Path &path)
    {
        std::string t = trim(raw);
        if (t.find("${") != std::string::npos && t[0] != '\'' && t[0] != '"' && t[0] != '[' && t[0] != '{')
            return resolveText(t, path);
        Node v = parseOverrideValue(t);
        if (v.isInterpolation())
            return resolveText(v.asString(), path);
        return v;
    }

    Node callResolver(const std::string &name, const std::vector<std::string> &rawArgs, const Path &path)
    {
        std::vector<Node> args;
        // oc.select needs its default unevaluated only in the sense of laziness; evaluating it is fine.
        for (const std::string &a : rawArgs)
            args.push_back(evalArg(a, path));
        if (name == "oc.env")
            return ocEnv(args);
        if (name == "oc.select") {
            if (args.empty() || args.size() > 2)
                throw ConfigError("oc.select takes a key and an optional default");
            Node fallback = args.size() == 2 ? args[1] : Node::null();
            return select(args[0].toPythonString(), path, false, &fallback);
        }
        if (name == "oc.decode")
            return ocDecode(args, path);
        if (name == "oc.create") {
            if (args.size() != 1)
                throw ConfigError("oc.create takes one argument");
            if (args[0].isStringLike()) {
                LoadedYaml y = loadYamlText(args[0].asString(), "<oc.create>");
                return resolveNode(y.root.isNull() ? Node::dict() : y.root, path);
            }
            return args[0];
        }
        if (name == "oc.dict.keys" || name == "oc.dict.values")
            return ocDictKeysOrValues(name, args, path);
        if (name == "oc.deprecated") {
            // The value of the new key; OmegaConf also warns, which a composed config cannot carry.
            if (args.empty() || args.size() > 2 || !args[0].isStringLike())
                throw ConfigError("oc.deprecated takes the new key and an optional message");
            Path target;
            if (!lookup(args[0].asString(), path, target))
                throw ConfigError("In oc.deprecated resolver at '" + joinKeyPath(path) + "': Key not found: '" +
                                  args[0].asString() + "'");
            return select(args[0].asString(), path, false, nullptr);
        }
        throw ConfigError("Unsupported interpolation type " + name);
    }

    Node ocEnv(const std::vector<Node> &args)
    {
        if (args.empty() || args.size() > 2)
            throw ConfigError("oc.env takes a variable name and an optional default");
        std::string var = args[0].toPythonString();
        if (auto v = m_env ? m_env(var) : std::nullopt)
            return Node::string(*v);
        if (args.size() == 2) {
            // OmegaConf 2.2 returns str(default): `${oc.env:UNSET,10}` is the string '10'.
            if (args[1].isNull())
                return Node::null();
            return Node::string(args[1].isStringLike() ? args[1].asString() : args[1].toPythonString());
        }
        throw ConfigError("Environment variable '" + var + "' not found");
    }

    Node ocDecode(const std::vector<Node> &args, const Path &path)
    {
        if (args.size() != 1)
            throw ConfigError("oc.decode takes one argument");
        if (args[0].isNull())
            return Node::null();
        if (!args[0].isStringLike())
            throw ConfigError("`oc.decode` can only take strings or None as input, but `" + args[0].toPythonString() +
                              "` is of type " + kindName(args[0].kind()));
        Node v = parseOverrideValue(args[0].asString());
        if (v.isInterpolation())
            return resolveText(v.asString(), path);
        return resolveNode(v, path);
    }

    // OmegaConf 2.2 resolvers/oc/dict.py: the argument is a key (absolute, or relative with
    // leading dots) naming a dict; keys gives its keys, values its values resolved.
    Node ocDictKeysOrValues(const std::string &name, const std::vector<Node> &args, const Path &path)
    {
        if (args.size() != 1)
            throw ConfigError(name + " takes one argument");
        if (!args[0].isStringLike())
            throw ConfigError("`" + name + "` requires a string as input, but obtained `" + args[0].toPythonString() +
                              "` of type: " + kindName(args[0].kind()));
        const std::string key = args[0].asString();
        Path target;
        const Node *dict = lookup(key, path, target);
        if (!dict)
            throw ConfigError("Key not found: '" + key + "'");
        if (dict->isMissing())
            throw ConfigError("Missing mandatory value: " + joinKeyPath(target));
        Node resolved;
        if (dict->isInterpolation()) {
            resolved = select(key, path, false, nullptr);
            dict = &resolved;
        }
        if (!dict->isDict())
            throw ConfigError("`" + name + "` cannot be applied to objects of type: " +
                              (dict->isList() ? std::string("ListConfig") : std::string(kindName(dict->kind()))));
        Node out = Node::list();
        for (size_t i = 0; i < dict->size(); ++i)
            out.append(name == "oc.dict.keys" ? dict->keyNodeAt(i)
                                              : select(key + "." + dict->keyAt(i), path, false, nullptr));
        return out;
    }

    // The node `key` names, unresolved, or nullptr; `target` gets its path.
    const Node *lookup(const std::string &key, const Path &path, Path &target)
    {
        std::string rest = key;
        if (!key.empty() && key[0] == '.') {
            size_t dots = 0;
            while (dots < key.size() && key[dots] == '.')
                ++dots;
            target = path;
            // One dot is the parent container of this value; each further dot goes up one more.
            for (size_t k = 0; k < dots; ++k) {
                if (target.empty())
                    throw ConfigError("Interpolation key '" + key + "' goes above the config root");
                target.pop_back();
            }
            rest = key.substr(dots);
        }
        const Node *cur = &m_root;
        for (const std::string &p : target) {
            cur = childNode(*cur, p);
            if (!cur)
                break;
        }
        if (cur && !rest.empty()) {
            for (const std::string &p : splitKeyPath(rest)) {
                target.push_back(p);
                cur = childNode(*cur, p);
                if (!cur)
                    break;
            }
        }
        return cur;
    }

    // OmegaConf's select from the node at `path`: "a.b" from the root, ".x" from the parent,
    // "..x" from the grandparent. With `fallback`, a missing key or "???" gives the fallback.
    Node select(const std::string &key, const Path &path, bool strict, const Node *fallback)
    {
        Path target;
        const Node *cur = lookup(key, path, target);
        if (!cur || cur->isMissing()) {
            if (fallback)
                return *fallback;
            if (!cur)
                throw ConfigError("Interpolation key '" + key + "' not found");
            throw ConfigError("Missing mandatory value: " + joinKeyPath(target));
        }
        (void)strict;
        std::string id = joinKeyPath(target);
        if (!m_active.insert(id).second)
            throw ConfigError("Interpolation cycle at '" + id + "'");
        struct ActiveGuard
        {
            std::set<std::string> &s;
            std::string id;
            ~ActiveGuard() { s.erase(id); }
        } guard{m_active, id};
        return resolveNode(*cur, target);
    }

    const Node &m_root;
    const EnvLookup &m_env;
    int m_depth = 0;
    int m_evaluations = 0;
    int *m_total = nullptr;
    size_t m_ownNodes = 0;
    size_t *m_nodes;
    std::set<std::string> m_active;
};

void resolveInto(Node &out, const Node &root, const Node &n, Path &path, std::vector<ConfigError> *problems,
                 const EnvLookup &env, int &total, size_t &nodes)
{
    if (n.isInterpolation()) {
        try {
            Resolver r(root, env, &total, &nodes);
            Node v = r.resolveText(n.asString(), path);
            v.mark = n.mark;
            out = std::move(v);
        } catch (const ConfigError &e) {
            out = n;
            if (problems) {
                std::string key = joinKeyPath(path);
                problems->emplace_back("cannot resolve '" + key + "': " + n.asString() + ": " + e.message(), n.mark,
                                       key);
            }
        }
        return;
    }
    if (n.isDict()) {
        out = Node::dict();
        out.mark = n.mark;
        for (size_t i = 0; i < n.size(); ++i) {
            path.push_back(n.keyAt(i));
            Node child;
            resolveInto(child, root, n.valueAt(i), path, problems, env, total, nodes);
            out.setKeyOf(n, i, std::move(child));
            path.pop_back();
        }
        return;
    }
    if (n.isList()) {
        out = Node::list();
        out.mark = n.mark;
        for (size_t i = 0; i < n.items().size(); ++i) {
            path.push_back(std::to_string(i));
            Node child;
            resolveInto(child, root, n.items()[i], path, problems, env, total, nodes);
            out.append(std::move(child));
            path.pop_back();
        }
        return;
    }
    out = n;
}

} // namespace

Node resolveAll(const Node &root, std::vector<ConfigError> *problems, const EnvLookup &env)
{
    Node out;
    Path path;
    int total = 0;
    size_t nodes = 0;
    resolveInto(out, root, root, path, problems, env, total, nodes);
    return out;
}

Node resolveValue(const Node &root, std::string_view keyPath, const EnvLookup &env)
{
    const Node *n = findPath(root, keyPath);
    if (!n)
        throw ConfigError("Key '" + std::string(keyPath) + "' not found", {}, std::string(keyPath));
    Resolver r(root, env);
    try {
        return r.resolveNode(*n, splitKeyPath(keyPath));
    } catch (const ConfigError &e) {
        throw ConfigError("cannot resolve '" + std::string(keyPath) + "': " + e.message(), n->mark,
                          std::string(keyPath));
    }
}

Node resolveString(const Node &root, std::string_view keyPath, const std::string &text, const EnvLookup &env)
{
    Resolver r(root, env);
    return r.resolveText(text, splitKeyPath(keyPath));
}

} // namespace ps::core::config
