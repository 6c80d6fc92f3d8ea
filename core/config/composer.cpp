#include "core/config/composer.h"

#include "core/config/configrepository.h"
#include "core/config/defaultsinterpolation.h"
#include "core/config/interpolation.h"
#include "core/config/keypath.h"
#include "core/config/merge.h"
#include "core/config/nodecount.h"
#include "core/config/override.h"
#include "core/config/pythonpackage.h"
#include "core/config/yamlemitter.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

namespace ps::core::config {

namespace {

// Command-line values have no file position; marks use this label, errors about them no location.
const SourceMark kOverrideMark{"<override>", 0, 0};
const SourceMark kNoMark{};

// A defaults entry from the command line has no file position to report.
SourceMark located(const SourceMark &m)
{
    return m.line > 0 ? m : kNoMark;
}

bool isHydraGroup(const std::string &group)
{
    return group == "hydra" || group.rfind("hydra/", 0) == 0;
}

bool isHydraKey(const std::string &key)
{
    return key == "hydra" || key.rfind("hydra.", 0) == 0;
}

std::string joinLines(const std::vector<std::string> &items, const std::string &prefix)
{
    std::string s;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i)
            s += "\n";
        s += prefix + items[i];
    }
    return s;
}

// Python == between two config values (1 == 1.0 == True), used by "~key=value".
bool pyEquals(const Node &a, const Node &b)
{
    auto numeric = [](const Node &n) {
        return n.kind() == Node::Kind::Bool || n.kind() == Node::Kind::Int || n.kind() == Node::Kind::Float;
    };
    auto asDouble = [](const Node &n) { return n.kind() == Node::Kind::Bool ? (n.asBool() ? 1.0 : 0.0) : n.asFloat(); };
    if (numeric(a) && numeric(b))
        return asDouble(a) == asDouble(b);
    if (a.isStringLike() && b.isStringLike())
        return a.asString() == b.asString();
    if (a.isNull() || b.isNull())
        return a.isNull() && b.isNull();
    if (a.isList() && b.isList()) {
        if (a.items().size() != b.items().size())
            return false;
        for (size_t i = 0; i < a.items().size(); ++i)
            if (!pyEquals(a.items()[i], b.items()[i]))
                return false;
        return true;
    }
    if (a.isDict() && b.isDict()) {
        if (a.size() != b.size())
            return false;
        for (size_t i = 0; i < a.size(); ++i) {
            const Node *other = b.findKeyOf(a, i);
            if (!other || !pyEquals(a.valueAt(i), *other))
                return false;
        }
        return true;
    }
    return false;
}

// Whether an override value holds a dict with a null key ({null: c}): Hydra's grammar reads
// one, but OmegaConf refuses it when the value is merged or compared with a config node.
bool hasNullKey(const Node &n)
{
    if (n.isDict())
        for (size_t i = 0; i < n.size(); ++i)
            if (n.keyKindAt(i) == Node::Kind::Null || hasNullKey(n.valueAt(i)))
                return true;
    if (n.isList())
        for (const Node &item : n.items())
            if (hasNullKey(item))
                return true;
    return false;
}

ConfigError nullKeyError(const Override &o)
{
    return ConfigError("Error merging override " + o.text, kNoMark, o.key);
}

std::string pyStr(const Node &n)
{
    return n.toPythonString();
}

struct OverrideChoice
{
    std::vector<std::string> options;
    bool isList = false;
    bool used = false;
    bool external = false;
    std::string containingConfig;
    std::string text;
    SourceMark mark;
};

struct Deletion
{
    std::optional<std::string> name;
    bool used = false;
};

struct TreeNode
{
    DefaultEntry entry;
    const LoadedConfig *loaded = nullptr;
    TreeNode *parent = nullptr;
    // Made from one item of an options list (`db: [a, b]`): Hydra turns those into plain config
    // entries, which record no group choice.
    bool fromOptionsList = false;
    // Children in order; nullptr stands for `_self_`.
    std::vector<std::unique_ptr<TreeNode>> children;
    bool hasChildren = false;
};

struct ResultDefault
{
    const TreeNode *node;
};

class Composition
{
public:
    explicit Composition(const ComposeOptions &options)
        : m_options(options), m_repo(options.configDirs, options.builtinPresets, options.reuseParsedFiles)
    {
        m_result.provenance.setEnabled(options.recordProvenance);
    }

    ComposeResult run()
    {
        for (const std::string &dir : m_options.configDirs) {
            std::error_code ec;
            if (!std::filesystem::is_directory(dir, ec))
                throw ConfigError("Config directory not found: '" + dir + "'");
        }
        m_configName = m_options.configName;
        if (m_configName.size() > 5 && m_configName.compare(m_configName.size() - 5, 5, ".yaml") == 0)
            m_configName.resize(m_configName.size() - 5);
        if (m_configName.empty())
            throw ConfigError("No primary config name given (--config-name)");

        parseOverrides();
        applySearchPath();
        splitOverrides();
        buildTree();
        ensureOverridesUsed();
        flatten(*m_root);
        ensureNoDuplicates();
        mergeAll();
        applyConfigOverrides();
        if (m_result.config.erase("hydra"))
            m_result.provenance.eraseSubtree("hydra");
        m_result.searchPath = m_repo.describe();
        m_result.hydraSearchPath = m_repo.describeHydra();
        return std::move(m_result);
    }

private:
    // ---- command-line overrides ----

    void parseOverrides()
    {
        for (const std::string &text : m_options.overrides) {
            Override o = parseOverride(text);
            if (o.isSweep)
                throw ConfigError("Ambiguous value for argument '" + text +
                                      "'\n1. To use it as a list, use key=[value1,value2]\n2. To use it as string, "
                                      "quote the value: key='value1,value2'\n3. To sweep over it, add --multirun to "
                                      "your command line",
                                  kNoMark, o.key);
            m_parsed.push_back(std::move(o));
        }
    }

    void applySearchPath()
    {
        const LoadedConfig *primary = m_repo.load(m_configName);
        if (!primary)
            throw ConfigError("Cannot find primary config '" + m_configName +
                              "'. Check that it's in your config search path.\n\nConfig search path:\n" +
                              joinLines(m_repo.describeHydra(), "\t"));
        Node holder = Node::dict();
        const Node *searchPath = nullptr;
        std::string where = "hydra.searchpath";
        bool fromCommandLine = false;
        for (const Override &o : m_parsed) {
            if (o.key == "hydra.searchpath" && o.hasValue && o.type != Override::Type::Delete) {
                holder.set("v", o.value);
                searchPath = holder.find("v");
                fromCommandLine = true;
            }
        }
        // Interpolations in the primary's own searchpath resolve against the primary; `primary`
        // stays valid until appendSearchPathEntry() below.
        const Node emptyRoot;
        const Node *resolutionRoot = &emptyRoot;
        if (!searchPath) {
            searchPath = findPath(primary->content, "hydra.searchpath");
            resolutionRoot = &primary->content;
        }
        if (!searchPath || searchPath->isNull())
            return;
        if (!searchPath->isList())
            throw ConfigError("hydra.searchpath must be a list of strings. Got: " + searchPath->toPythonString(),
                              searchPath->mark, where);
        const std::string provider = std::string("hydra.searchpath in ") + (fromCommandLine ? "command-line" : "main");
        std::vector<std::string> entries; // appended after the loop: appending drops `primary`
        for (size_t i = 0; i < searchPath->items().size(); ++i) {
            const Node &item = searchPath->items()[i];
            std::string itemKey = where + "." + std::to_string(i);
            if (!item.isStringLike())
                throw ConfigError("hydra.searchpath must be a list of strings. Got: " + item.toPythonString(),
                                  item.mark, itemKey);
            std::string value = item.asString();
            if (item.isInterpolation()) {
                try {
                    Node r = resolveString(*resolutionRoot, itemKey, value, m_options.env);
                    value = r.toPythonString();
                } catch (const ConfigError &e) {
                    throw ConfigError("cannot resolve " + itemKey + " '" + item.asString() + "': " + e.message(),
                                      item.mark, itemKey);
                }
            }
            entries.push_back(std::move(value));
        }
        for (const std::string &entry : entries)
            appendSearchPathEntry(entry, provider);
    }

    // One hydra.searchpath entry, as Hydra's ConfigRepository takes it: "pkg://a.b" (a Python
    // package, found as Python would import it), "file://dir" or a plain dir. One that is not
    // available is listed in the search path and warned about, as Hydra does.
    void appendSearchPathEntry(const std::string &value, const std::string &provider)
    {
        const size_t scheme = value.find("://");
        if (scheme != std::string::npos && value.compare(0, scheme, "pkg") == 0) {
            std::string package = value.substr(scheme + 3);
            std::replace(package.begin(), package.end(), '/', '.');
            while (!package.empty() && package.back() == '.')
                package.pop_back();
            const std::string primaryDir = m_options.configDirs.empty() ? std::string() : m_options.configDirs.front();
            std::optional<PythonPackageDir> found = findPythonPackage(package, primaryDir, m_options.env);
            m_repo.appendRoot(found ? found->dir : std::string(), provider, "pkg://" + package);
            if (!found || !found->hasInit) // Hydra's available(): a package folder with an __init__.py
                warn("provider=" + provider + ", path=" + package + " is not available.");
            if (!found)
                return;
            m_result.searchPathNotes.push_back({package, found->dir, found->entry, found->foundVia});
            return;
        }
        std::string dir = scheme == std::string::npos ? value : value.substr(scheme + 3);
        const std::string hydraPath = (scheme == std::string::npos ? "file://" : value.substr(0, scheme + 3)) + dir;
        std::error_code ec;
        if (scheme != std::string::npos && value.compare(0, scheme, "file") != 0)
            dir.clear(); // a scheme Hydra has no source for here (structured://)
        else if (!std::filesystem::is_directory(dir, ec))
            warn("provider=" + provider + ", path=" + dir + " is not available.");
        while (dir.size() > 1 && dir.back() == '/')
            dir.pop_back();
        m_repo.appendRoot(dir, provider, hydraPath);
    }

    void warn(const std::string &message)
    {
        m_result.warnings.push_back(message);
        if (m_options.onWarning)
            m_options.onWarning(message);
    }

    // ---- defaults tree (Hydra's _create_defaults_tree) ----

    void buildTree()
    {
        m_root = std::make_unique<TreeNode>();
        m_root->entry.kind = DefaultEntry::Kind::Config;
        m_root->entry.path = m_configName;
        m_root->entry.text = m_configName;
        m_root->loaded = m_repo.load(m_configName);
        setHeader(*m_root);
        // A primary config in a sub-folder ("experiment/big") still composes at the root.
        if (!m_root->entry.hasPackageHeader)
            m_root->entry.package = std::string();
        m_stack.push_back(m_configName);
        build(*m_root, true);
        m_stack.pop_back();
    }

    void splitOverrides()
    {
        // Split the command-line overrides into group overrides and config overrides.
        for (const Override &o : m_parsed) {
            if (isHydraKey(o.key) || isHydraGroup(o.key))
                continue; // Hydra's own config: not part of the job config
            bool isGroup = m_repo.groupExists(o.key);
            if (!isGroup) {
                m_configOverrides.push_back(&o);
                continue;
            }
            std::string key = o.hasPackage ? o.key + "@" + o.package : o.key;
            if (o.type == Override::Type::ForceAdd && !o.value.isDict())
                throw ConfigError("force-add of config groups is not supported: '" + o.text + "'", kNoMark, o.key);
            if (o.type == Override::Type::Delete) {
                Deletion d;
                if (o.hasValue)
                    d.name = o.value.isStringLike() ? o.value.asString() : o.value.toPythonString();
                m_deletions[key] = d;
                continue;
            }
            if (o.value.isNull())
                throw ConfigError("Config group override must be a string or a list. Got NoneType (in '" + o.text +
                                      "'; use ~" + o.key + " to remove a group)",
                                  kNoMark, o.key);
            std::vector<std::string> options;
            bool isList = o.value.isList();
            if (isList) {
                for (const Node &n : o.value.items())
                    options.push_back(n.isStringLike() ? n.asString() : n.toPythonString());
            } else if (o.value.isContainer()) {
                throw ConfigError("Config group override must be a string or a list. Got dict", kNoMark, o.key);
            } else {
                options.push_back(o.value.isStringLike() ? o.value.asString() : o.value.toPythonString());
            }
            if (o.type == Override::Type::Add) {
                DefaultEntry e;
                e.kind = DefaultEntry::Kind::Group;
                e.path = o.key;
                if (o.hasPackage)
                    e.package = o.package;
                e.options = options;
                e.isList = isList;
                e.externalAppend = true;
                e.text = o.text;
                e.mark = kOverrideMark;
                m_appends.push_back(std::move(e));
            } else {
                OverrideChoice c;
                c.options = options;
                c.isList = isList;
                c.external = true;
                c.text = o.text;
                c.mark = kOverrideMark;
                m_choices[key] = c;
            }
        }
    }

    static void setHeader(TreeNode &node)
    {
        if (!node.loaded || !node.loaded->hasPackageHeader)
            return;
        std::string h = node.loaded->packageHeader;
        // A package header is always absolute.
        if (h != "_global_" && h.rfind("_global_.", 0) != 0)
            h = h.empty() ? "_global_" : "_global_." + h;
        // From version base 1.2 on (what `version_base=None` selects), `_group_` and `_name_` in
        // a package header are plain key names, no longer replaced.
        node.entry.hasPackageHeader = true;
        node.entry.packageHeader = h;
    }

    void validateSelf(const TreeNode &node, std::vector<DefaultEntry> &defaults, bool isPrimary)
    {
        bool hasSelf = false, hasNonOverride = false;
        for (const DefaultEntry &d : defaults) {
            if (!d.override)
                hasNonOverride = true;
            if (d.isSelf()) {
                if (hasSelf)
                    throw ConfigError("Duplicate _self_ defined in " + node.entry.configPath(), d.mark);
                hasSelf = true;
            }
        }
        if ((!hasSelf && hasNonOverride) || defaults.empty()) {
            if (isPrimary && node.loaded->content.size() > 0 && hasNonOverride)
                warn("In '" + node.entry.configPath() +
                     "': Defaults list is missing `_self_`. See "
                     "https://hydra.cc/docs/1.2/upgrades/1.0_to_1.1/default_composition_order "
                     "for more information");
            DefaultEntry self;
            self.kind = DefaultEntry::Kind::Self;
            self.text = "_self_";
            defaults.push_back(self);
        }
    }

    void updateOverrides(std::vector<DefaultEntry> &defaults, const TreeNode &node)
    {
        bool seenOverride = false;
        const DefaultEntry *last = nullptr;
        for (DefaultEntry &d : defaults) {
            if (d.isSelf())
                continue;
            d.parentBaseDir = node.entry.groupPath();
            d.parentPackage = node.entry.finalPackage();
            if (seenOverride && !(d.override || d.externalAppend)) {
                std::string name = d.kind == DefaultEntry::Kind::Group ? d.overrideKey() + ": " + d.name() : d.text;
                throw ConfigError("In " + node.entry.configPath() + ": Override '" + last->overrideKey() + " : " +
                                      last->name() + "' is defined before '" + name +
                                      "'.\nOverrides must be at the end of the defaults list",
                                  d.mark);
            }
            if (d.kind == DefaultEntry::Kind::Group && d.override) {
                seenOverride = true;
                last = &d;
                if (m_interpolatedDepth > 0)
                    // Interpolations are resolved once every group is chosen; too late for overrides.
                    throw ConfigError(node.entry.configPath() +
                                          ": Default List Overrides are not allowed in the subtree\nof an in "
                                          "interpolated config group (override " +
                                          d.overrideKey() + "=" + d.name() + ").",
                                      located(d.mark), d.overrideKey());
                if (isHydraGroup(d.groupPath()))
                    continue;
                std::string key = d.overrideKey();
                if (!m_choices.count(key)) {
                    OverrideChoice c;
                    c.options = d.options;
                    c.isList = d.isList;
                    c.containingConfig = node.entry.configPath();
                    c.text = d.text;
                    c.mark = d.mark;
                    if (d.isNull)
                        c.options.clear();
                    m_choices[key] = c;
                }
            }
        }
    }

    void build(TreeNode &node, bool isRoot)
    {
        std::vector<DefaultEntry> defaults = node.loaded->defaults;
        if (!defaults.empty() || (isRoot && !m_appends.empty()))
            validateSelf(node, defaults, isRoot);
        if (isRoot) {
            for (const DefaultEntry &a : m_appends)
                defaults.push_back(a);
        }
        updateOverrides(defaults, node);
        std::vector<std::unique_ptr<TreeNode>> children;
        std::vector<size_t> deferred; // children slots of interpolated entries, resolved last
        for (auto it = defaults.rbegin(); it != defaults.rend(); ++it) {
            DefaultEntry &d = *it;
            if (d.isSelf()) {
                children.push_back(nullptr);
                continue;
            }
            if (d.override)
                continue;
            d.parentBaseDir = node.entry.groupPath();
            d.parentPackage = node.entry.finalPackage();
            applyOverrideChoice(d);
            if (d.kind == DefaultEntry::Kind::Group && d.isList) {
                for (auto opt = d.options.rbegin(); opt != d.options.rend(); ++opt) {
                    if (isDefaultsInterpolation(*opt))
                        throw ConfigError("In '" + node.entry.configPath() +
                                              "': Defaults List interpolation is not supported in options list items",
                                          located(d.mark));
                    DefaultEntry one = d;
                    one.options = {*opt};
                    one.isList = false;
                    addChild(node, one, children, true);
                }
                continue;
            }
            if (isInterpolated(d)) {
                deferred.push_back(children.size());
                children.push_back(std::make_unique<TreeNode>());
                children.back()->entry = d;
                continue;
            }
            if (isDeleted(d))
                continue;
            addChild(node, d, children);
        }
        resolveDeferred(node, defaults, deferred, children);
        std::reverse(children.begin(), children.end());
        // As Hydra's has_children(): a list of only `override` entries leaves no children, and the
        // config then merges as a leaf (its own content included).
        node.hasChildren = !children.empty();
        node.children = std::move(children);
    }

    // A choice from the command line or an `override` entry replaces the entry's own option.
    void applyOverrideChoice(DefaultEntry &d)
    {
        if (d.kind != DefaultEntry::Kind::Group)
            return;
        auto ch = m_choices.find(d.overrideKey());
        if (ch == m_choices.end())
            return;
        d.options = ch->second.options;
        d.isList = ch->second.isList;
        d.isNull = d.options.empty() && !d.isList;
        d.isMissing = false;
        ch->second.used = true;
    }

    static bool isInterpolated(const DefaultEntry &d)
    {
        if (d.kind == DefaultEntry::Kind::Group)
            return !d.isList && !d.isNull && isDefaultsInterpolation(d.name());
        return isDefaultsInterpolation(d.configPath());
    }

    // Hydra resolves a list's interpolated entries after its other entries (and their subtrees)
    // chose their options, against the choices known at that point; their own subtrees may not
    // override choices any more. `deferred` holds their placeholder slots in `children`.
    void resolveDeferred(TreeNode &node, const std::vector<DefaultEntry> &defaults, const std::vector<size_t> &deferred,
                         std::vector<std::unique_ptr<TreeNode>> &children)
    {
        const KnownChoices known = m_known;
        for (size_t slot : deferred) {
            DefaultEntry d = children[slot]->entry;
            children[slot].reset();
            const std::string resolved = resolveDefaultsInterpolation(d, known, defaults, m_options.env);
            if (d.kind == DefaultEntry::Kind::Group) {
                d.interpolatedFrom = d.name();
                d.options = {resolved};
            } else {
                d.interpolatedFrom = d.path;
                d.path = resolved;
            }
            if (isDeleted(d))
                continue;
            std::vector<std::unique_ptr<TreeNode>> added;
            ++m_interpolatedDepth;
            addChild(node, d, added);
            --m_interpolatedDepth;
            if (!added.empty())
                children[slot] = std::move(added.front());
        }
        // Deferred entries that added nothing (deleted, optional and missing, null) leave no slot;
        // a null slot that is not one of them stands for `_self_`.
        for (auto it = deferred.rbegin(); it != deferred.rend(); ++it)
            if (!children[*it])
                children.erase(children.begin() + static_cast<std::ptrdiff_t>(*it));
    }

    bool isDeleted(const DefaultEntry &d)
    {
        if (d.kind != DefaultEntry::Kind::Group)
            return false;
        auto it = m_deletions.find(d.overrideKey());
        if (it == m_deletions.end())
            return false;
        if (it->second.name && *it->second.name != d.name())
            return false;
        it->second.used = true;
        return true;
    }

    void addChild(TreeNode &parent, DefaultEntry d, std::vector<std::unique_ptr<TreeNode>> &children,
                  bool fromOptionsList = false)
    {
        if (d.kind == DefaultEntry::Kind::Group) {
            std::string group = d.groupPath();
            if (isHydraGroup(group))
                return;
            if (!fromOptionsList) {
                m_known.set(d.overrideKey(), d.isNull ? std::nullopt : std::optional<std::string>(d.name()),
                            located(d.mark));
                m_knownChoices[group].insert(d.overrideKey());
            }
            if (d.isNull) {
                m_result.choices.emplace_back(d.overrideKey(), "null");
                return;
            }
            if (d.isMissing) {
                std::string key = d.overrideKey();
                throw ConfigError("You must specify '" + key + "', e.g, " + key + "=<OPTION>\nAvailable options:\n" +
                                      joinLines(m_repo.options(group), "\t"),
                                  located(d.mark), key);
            }
        }
        std::string configPath = d.configPath();
        if (std::find(m_stack.begin(), m_stack.end(), configPath) != m_stack.end()) {
            std::string cycle;
            for (const std::string &s : m_stack)
                cycle += s + " -> ";
            throw ConfigError("Defaults cycle: " + cycle + configPath + " (entry '" + d.text + "' in '" +
                                  parent.entry.configPath() + "')",
                              located(d.mark));
        }
        const LoadedConfig *lc = m_repo.load(configPath);
        if (!lc) {
            if (d.optional)
                return;
            throwNotFound(parent, d);
        }
        // Configs that include each other several times fan out exponentially without a cycle.
        if (++m_treeSize > kMaxTreeSize)
            throw ConfigError("The defaults tree has more than " + std::to_string(kMaxTreeSize) +
                                  " entries (configs that include each other repeatedly?)",
                              located(d.mark));
        if (d.kind == DefaultEntry::Kind::Group)
            m_result.choices.emplace_back(d.overrideKey(), d.name());
        auto child = std::make_unique<TreeNode>();
        child->entry = std::move(d);
        child->loaded = lc;
        child->parent = &parent;
        child->fromOptionsList = fromOptionsList;
        setHeader(*child);
        m_stack.push_back(configPath);
        build(*child, false);
        m_stack.pop_back();
        children.push_back(std::move(child));
    }

    [[noreturn]] void throwNotFound(const TreeNode &parent, const DefaultEntry &d)
    {
        std::string msg;
        if (d.kind == DefaultEntry::Kind::Group) {
            msg = "Could not find '" + d.configPath() + "'\n";
            std::vector<std::string> options = m_repo.options(d.groupPath());
            if (!options.empty())
                msg += "\nAvailable options in '" + d.groupPath() + "':\n" + joinLines(options, "\t");
        } else {
            msg = "Could not load '" + d.configPath() + "'.\n";
        }
        msg = "In '" + parent.entry.configPath() + "': " + msg;
        msg += "\nConfig search path:\n" + joinLines(m_repo.describeHydra(), "\t");
        throw ConfigError(msg, located(d.mark), d.kind == DefaultEntry::Kind::Group ? d.groupPath() : std::string());
    }

    void ensureOverridesUsed()
    {
        for (const auto &[key, c] : m_choices) {
            if (c.used)
                continue;
            std::string group = key.substr(0, key.find('@'));
            const std::set<std::string> &choices = m_knownChoices[group];
            std::string msg;
            if (choices.size() > 1) {
                std::string list;
                for (const std::string &s : choices)
                    list += (list.empty() ? "" : ", ") + s;
                msg = "Could not override '" + key + "'.\nDid you mean to override one of " + list + "?";
            } else if (choices.size() == 1) {
                msg = "Could not override '" + key + "'.\nDid you mean to override " + *choices.begin() + "?";
            } else {
                msg = "Could not override '" + key + "'. No match in the defaults list.";
            }
            if (!c.containingConfig.empty())
                msg = "In '" + c.containingConfig + "': " + msg;
            if (c.external) {
                std::string value = c.text.substr(c.text.find('=') + 1);
                msg += "\nTo append to your default list use +" + key + "=" + value;
            }
            throw ConfigError(msg, located(c.mark), key);
        }
        for (const auto &[key, d] : m_deletions) {
            if (d.used)
                continue;
            std::string desc = d.name ? key + "=" + *d.name : key;
            throw ConfigError("Could not delete '" + desc + "'. No match in the defaults list", kNoMark, key);
        }
    }

    // ---- flatten and merge ----

    // Hydra's ensure_no_duplicates_in_list(): a group merged twice at one package ("+db=mysql"
    // with `db: mysql` in the defaults list) is an error. Only leaves carry their group's key.
    void ensureNoDuplicates() const
    {
        std::set<std::string> keys;
        for (const TreeNode *n : m_flat) {
            if (n->hasChildren || n->fromOptionsList || n->entry.kind != DefaultEntry::Kind::Group || !n->parent)
                continue;
            const std::string key = n->entry.overrideKey();
            if (!keys.insert(key).second)
                throw ConfigError(key + " appears more than once in the final defaults list", located(n->entry.mark),
                                  key);
        }
    }

    void flatten(const TreeNode &node)
    {
        if (!node.hasChildren) {
            m_flat.push_back(&node);
            return;
        }
        for (const auto &child : node.children) {
            if (child)
                flatten(*child);
            else
                m_flat.push_back(&node);
        }
    }

    // The composed tree stays under kMaxMergedValues: checked on the flattened list before any
    // merge, so a hostile defaults list fails at once instead of after building most of it.
    void ensureMergedSizeBounded() const
    {
        size_t mergedValues = 0;
        for (const TreeNode *n : m_flat) {
            mergedValues += countValues(n->loaded->content);
            if (mergedValues > kMaxMergedValues)
                throw ConfigError("The composed config would hold more than " + std::to_string(kMaxMergedValues) +
                                      " values (config '" + n->loaded->configPath + "' merged many times?)",
                                  located(n->entry.mark));
        }
    }

    void mergeAll()
    {
        Node &cfg = m_result.config;
        cfg = Node::dict();
        std::map<const TreeNode *, int> indexOf;
        for (size_t i = 0; i < m_flat.size(); ++i)
            indexOf[m_flat[i]] = static_cast<int>(i);
        ensureMergedSizeBounded();
        for (size_t i = 0; i < m_flat.size(); ++i) {
            const TreeNode &n = *m_flat[i];
            ConfigSource src;
            src.configPath = n.loaded->configPath;
            src.file = n.loaded->file;
            src.package = n.entry.finalPackage();
            src.defaultsEntry = n.parent ? n.entry.text : std::string();
            src.entryMark = n.entry.mark;
            src.interpolatedOption = n.entry.interpolatedFrom;
            if (n.parent) {
                auto it = indexOf.find(n.parent);
                src.parent = it == indexOf.end() ? -1 : it->second;
            }
            ProvenanceStep step;
            step.origin = ProvenanceStep::Origin::File;
            step.mark = SourceMark{src.file, 0, 0};
            step.source = static_cast<int>(i);
            Merger merger(m_result.provenance, step, true);
            Node *dest = &cfg;
            std::string path;
            if (!src.package.empty()) {
                for (const std::string &seg : splitKeyPath(src.package)) {
                    std::string cp = childPath(path, seg);
                    Node *next = dest->find(seg);
                    if (!next || !next->isDict()) {
                        Node d = Node::dict();
                        d.mark = n.loaded->content.mark;
                        merger.assign(*dest, seg, d, cp);
                        next = dest->find(seg);
                    }
                    dest = next;
                    path = cp;
                }
            }
            merger.mergeDict(*dest, n.loaded->content, path);
            m_result.sources.push_back(std::move(src));
        }
    }

    // ---- config overrides (Hydra's _apply_overrides_to_config) ----

    void update(const Override &o, bool forceAdd)
    {
        bool structMode = !forceAdd;
        ProvenanceStep step;
        step.origin = ProvenanceStep::Origin::Override;
        step.mark = kOverrideMark;
        step.overrideText = o.text;
        Merger merger(m_result.provenance, step, false);
        std::vector<std::string> parts = splitKeyPath(o.key);
        Node *root = &m_result.config;
        std::string path;
        for (size_t i = 0; i + 1 < parts.size(); ++i) {
            const std::string &k = parts[i];
            std::string cp = childPath(path, k);
            Node *next = childNode(*root, k);
            if (!next || !next->isContainer()) {
                if (root->isDict()) {
                    if (!next && structMode)
                        throw StructKeyError(cp);
                    merger.assign(*root, k, Node::dict(), cp);
                } else if (next) {
                    merger.assignItem(*root, static_cast<size_t>(std::stol(k)), Node::dict(), cp);
                } else {
                    throw ConfigError("Could not override '" + o.key + "': list index '" + k + "' is out of range",
                                      kNoMark, o.key);
                }
                next = childNode(*root, k);
            }
            root = next;
            path = cp;
        }
        const std::string &last = parts.back();
        std::string cp = childPath(path, last);
        Node *existing = childNode(*root, last);
        if ((existing || (root->isDict() && !structMode)) && hasNullKey(o.value))
            throw nullKeyError(o);
        if (o.value.isContainer() && existing && existing->isContainer()) {
            if (existing->isDict() && o.value.isDict()) {
                merger.recordOne(o.value, cp);
                merger.mergeDict(*existing, o.value, cp, structMode);
                return;
            }
            if (existing->isList() && o.value.isList()) {
                if (root->isDict())
                    merger.assign(*root, last, o.value, cp);
                else
                    merger.assignItem(*root, static_cast<size_t>(std::stol(last)), o.value, cp);
                return;
            }
            throw ConfigError("Error merging override " + o.text + ": cannot merge " + kindName(o.value.kind()) +
                                  " into " + kindName(existing->kind()),
                              kNoMark, o.key);
        }
        if (root->isDict()) {
            if (!existing && structMode)
                throw StructKeyError(cp);
            merger.assign(*root, last, o.value, cp);
        } else if (root->isList()) {
            if (!existing)
                throw ConfigError("Could not override '" + o.key + "': list index '" + last + "' is out of range",
                                  kNoMark, o.key);
            merger.assignItem(*root, static_cast<size_t>(std::stol(last)), o.value, cp);
        }
    }

    // Where the value at `keyPath` (or its nearest existing ancestor) was last set in a file, so
    // an override error can point at the config line it concerns.
    SourceMark whereSet(const std::string &keyPath) const
    {
        std::vector<std::string> parts = splitKeyPath(keyPath);
        if (!m_result.provenance.isEnabled())
            return nearestFileMark(parts);
        while (!parts.empty()) {
            if (const auto *chain = m_result.provenance.find(joinKeyPath(parts))) {
                for (auto it = chain->rbegin(); it != chain->rend(); ++it)
                    if (it->origin == ProvenanceStep::Origin::File && it->mark.line > 0)
                        return it->mark;
                return {};
            }
            parts.pop_back();
        }
        return {};
    }

    // whereSet() without provenance: the mark the nearest existing node carries from its file.
    SourceMark nearestFileMark(std::vector<std::string> parts) const
    {
        while (!parts.empty()) {
            if (const Node *n = findPath(m_result.config, joinKeyPath(parts)))
                return n->mark.line > 0 ? n->mark : SourceMark{};
            parts.pop_back();
        }
        return {};
    }

    void applyConfigOverrides()
    {
        for (const Override *op : m_configOverrides) {
            const Override &o = *op;
            if (o.hasPackage)
                throw ConfigError("Override " + o.text + " looks like a config group override, but config group '" +
                                      o.key + "' does not exist.",
                                  kNoMark, o.key);
            const Node *current = findPath(m_result.config, o.key);
            try {
                switch (o.type) {
                case Override::Type::Delete: {
                    if (!current || current->isNull())
                        throw ConfigError("Could not delete from config. '" + o.key + "' does not exist.",
                                          whereSet(o.key), o.key);
                    if (o.hasValue && current->isContainer() && hasNullKey(o.value))
                        throw nullKeyError(o);
                    if (o.hasValue && !pyEquals(*current, o.value))
                        throw ConfigError("Could not delete from config. The value of '" + o.key + "' is " +
                                              pyStr(*current) + " and not " + pyStr(o.value) + ".",
                                          whereSet(o.key), o.key);
                    size_t dot = o.key.rfind('.');
                    Node *parent =
                        dot == std::string::npos ? &m_result.config : findPath(m_result.config, o.key.substr(0, dot));
                    std::string last = dot == std::string::npos ? o.key : o.key.substr(dot + 1);
                    if (parent && parent->isDict()) {
                        parent->erase(last);
                    } else if (parent && parent->isList()) {
                        auto &items = parent->items();
                        items.erase(items.begin() + std::stol(last));
                    }
                    m_result.provenance.eraseSubtree(o.key);
                    break;
                }
                case Override::Type::Add:
                    if (current && !current->isNull() && !o.value.isContainer())
                        throw ConfigError("Could not append to config. An item is already at '" + o.key +
                                              "'.\nEither remove + prefix: '" + o.text.substr(1) +
                                              "'\nOr add a second + to add or override '" + o.key + "': '+" + o.text +
                                              "'",
                                          whereSet(o.key), o.key);
                    update(o, true);
                    break;
                case Override::Type::ForceAdd:
                    update(o, true);
                    break;
                case Override::Type::Change:
                    update(o, false);
                    break;
                }
            } catch (const StructKeyError &) {
                throw ConfigError("Could not override '" + o.key + "'.\nTo append to your config use +" + o.text,
                                  whereSet(o.key), o.key);
            }
        }
    }

    static constexpr int kMaxTreeSize = 10000;
    // Every merged file holds at most yamlloader's per-file bound; the sum is bounded too.
    static constexpr size_t kMaxMergedValues = 500000;
    KnownChoices m_known;
    int m_interpolatedDepth = 0; // > 0 while building the subtree of an interpolated entry
    const ComposeOptions &m_options;
    ConfigRepository m_repo;
    int m_treeSize = 0;
    std::string m_configName;
    std::vector<Override> m_parsed;
    std::vector<const Override *> m_configOverrides;
    std::map<std::string, OverrideChoice> m_choices;
    std::map<std::string, Deletion> m_deletions;
    std::map<std::string, std::set<std::string>> m_knownChoices;
    std::vector<DefaultEntry> m_appends;
    std::unique_ptr<TreeNode> m_root;
    std::vector<std::string> m_stack;
    std::vector<const TreeNode *> m_flat;
    ComposeResult m_result;
};

} // namespace

ComposeResult compose(const ComposeOptions &options)
{
    Composition c(options);
    return c.run();
}

namespace {
std::string optionOf(const std::string &configPath)
{
    const size_t slash = configPath.rfind('/');
    return slash == std::string::npos ? configPath : configPath.substr(slash + 1);
}
} // namespace

std::string explainKey(const ComposeResult &result, const std::string &keyPath)
{
    const Node *value = findPathForDisplay(result.config, keyPath);
    const std::vector<ProvenanceStep> *chain = result.provenance.find(keyPath);
    if (!value && !chain)
        return {};
    std::string out = keyPath + ": ";
    if (!value)
        out += "(deleted)\n";
    else if (value->isDict())
        out += value->size() ? "(dict, " + std::to_string(value->size()) + " keys)\n" : "{}\n";
    else if (value->isList())
        out += value->size() ? "(list, " + std::to_string(value->size()) + " items)\n" : "[]\n";
    else
        out += yamlScalar(*value) + "\n";
    if (!chain)
        return out;
    for (size_t i = 0; i < chain->size(); ++i) {
        const ProvenanceStep &s = (*chain)[i];
        out += "  " + std::to_string(i + 1) + ". ";
        if (s.origin == ProvenanceStep::Origin::Override) {
            out += "override '" + s.overrideText + "' (command line)";
        } else {
            out += s.mark.toString();
            if (s.source >= 0 && static_cast<size_t>(s.source) < result.sources.size()) {
                const ConfigSource &src = result.sources[static_cast<size_t>(s.source)];
                out += "  config '" + src.configPath + "'";
                if (!src.package.empty())
                    out += " at '" + src.package + "'";
                if (src.defaultsEntry.empty()) {
                    out += ", the primary config";
                } else if (src.entryMark.file == "<override>") {
                    out += ", from command-line override '" + src.defaultsEntry + "'";
                } else {
                    out += ", from defaults entry '" + src.defaultsEntry + "'";
                    if (src.entryMark.isKnown())
                        out += " at " + src.entryMark.toString();
                    if (!src.interpolatedOption.empty())
                        out += " (" + src.interpolatedOption + " resolved to '" + optionOf(src.configPath) + "')";
                }
            }
        }
        if (i + 1 == chain->size())
            out += "  <- wins";
        out += "\n";
    }
    return out;
}

} // namespace ps::core::config
