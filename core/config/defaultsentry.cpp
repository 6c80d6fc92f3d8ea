#include "core/config/defaultsentry.h"

#include "core/config/configerror.h"
#include "core/config/configrepository.h"

namespace ps::core::config {

namespace {

std::string replaceAll(std::string s, const std::string &what, const std::string &with)
{
    size_t pos = 0;
    while ((pos = s.find(what, pos)) != std::string::npos) {
        s.replace(pos, what.size(), with);
        pos += with.size();
    }
    return s;
}

std::string dotted(const std::string &path)
{
    return replaceAll(path, "/", ".");
}

// Hydra's _split_group: "group@pkg" (a legacy "pkg1:pkg2" rename is not supported).
void splitGroup(const std::string &s, std::string &group, std::optional<std::string> &package)
{
    size_t at = s.find('@');
    if (at == std::string::npos) {
        group = s;
        return;
    }
    group = s.substr(0, at);
    package = s.substr(at + 1);
}

} // namespace

std::string DefaultEntry::relativeGroupPath() const
{
    std::string p = path;
    if (!p.empty() && p[0] == '/')
        p.erase(0, 1);
    if (kind == Kind::Group)
        return p;
    size_t slash = p.rfind('/');
    return slash == std::string::npos ? std::string() : p.substr(0, slash);
}

std::string DefaultEntry::groupPath() const
{
    bool absolute = !path.empty() && path[0] == '/';
    std::string rel = relativeGroupPath();
    std::string full;
    if (absolute || parentBaseDir.empty())
        full = rel;
    else if (rel.empty())
        full = parentBaseDir;
    else
        full = parentBaseDir + "/" + rel;
    return normalizeConfigPath(full);
}

std::string DefaultEntry::configPath() const
{
    if (kind == Kind::Group)
        return normalizeConfigPath(groupPath() + "/" + name());
    bool absolute = !path.empty() && path[0] == '/';
    if (absolute || parentBaseDir.empty())
        return normalizeConfigPath(path);
    return normalizeConfigPath(parentBaseDir + "/" + path);
}

std::string DefaultEntry::finalPackage(bool useHeader) const
{
    std::optional<std::string> pkg = package;
    // Hydra's update_parent(): `_group_` in an entry's own package is the group's full path, and
    // makes the package absolute (unlike `_name_`, and unlike either in a `# @package` header).
    if (pkg && pkg->find("_group_") != std::string::npos)
        pkg = "_global_." + replaceAll(*pkg, "_group_", dotted(groupPath()));
    if (!pkg && useHeader && hasPackageHeader)
        pkg = packageHeader;
    std::string p;
    if (!pkg)
        p = dotted(relativeGroupPath());
    else
        p = *pkg;
    if (p == "_here_")
        p = "";
    // Version base 1.2 on (`version_base=None`) keeps `_group_` / `_name_` as plain key names.
    std::string ret;
    if (parentPackage.empty())
        ret = p;
    else if (p.empty())
        ret = parentPackage;
    else
        ret = parentPackage + "." + p;
    size_t g = ret.rfind("_global_");
    if (g == std::string::npos)
        return ret;
    size_t from = g + std::string("_global_").size() + 1;
    return from >= ret.size() ? std::string() : ret.substr(from);
}

std::string DefaultEntry::overrideKey() const
{
    std::string key = groupPath();
    std::string defaultPkg = dotted(key);
    std::string finalPkg = finalPackage(false);
    if (defaultPkg != finalPkg && !finalPkg.empty())
        key += "@" + finalPkg;
    return key;
}

namespace {

// Strips the keywords before a group ("optional group", "override group") into `e`.
std::string stripKeywords(std::string group, const std::string &key, const std::string &configPath,
                          const SourceMark &mark, DefaultEntry &e)
{
    for (;;) {
        size_t sp = group.find(' ');
        if (sp == std::string::npos)
            return group;
        std::string word = group.substr(0, sp);
        std::string rest = group.substr(sp + 1);
        while (!rest.empty() && rest[0] == ' ')
            rest.erase(0, 1);
        if (word == "optional")
            e.optional = true;
        else if (word == "override")
            e.override = true;
        else
            throw ConfigError("In " + configPath + ": invalid keyword '" + word + "' in defaults entry '" + key +
                                  "' (expected optional or override)",
                              mark);
        group = rest;
    }
}

// The option(s) of a group entry: null, a list, ???, or one name. Returns the value as the
// entry's text shows it.
std::string readGroupOptions(const Node &value, DefaultEntry &e)
{
    if (value.isNull()) {
        e.isNull = true;
        return "null";
    }
    if (value.isList()) {
        e.isList = true;
        for (const Node &opt : value.items()) {
            if (!opt.isStringLike())
                throw ConfigError(std::string("Unsupported item value in defaults : ") + kindName(opt.kind()) +
                                      ". Supported: string or list",
                                  opt.mark);
            e.options.push_back(opt.asString());
        }
        return "[...]";
    }
    if (value.isMissing()) {
        e.isMissing = true;
        return "???";
    }
    if (value.isStringLike()) {
        e.options.push_back(value.asString());
        return value.asString();
    }
    throw ConfigError(std::string("Unsupported item value in defaults : ") + kindName(value.kind()) +
                          ". Supported: string or list",
                      value.mark);
}

// `group@package: option` (with keywords).
void readGroupEntry(const Node &item, const std::string &configPath, DefaultEntry &e)
{
    if (item.size() == 0)
        throw ConfigError("In " + configPath + ": Missing group name in {}", item.mark);
    if (item.size() > 1)
        throw ConfigError("In " + configPath + ": Too many keys in default item", item.mark);
    const std::string key = item.keyAt(0);
    std::string group;
    splitGroup(key, group, e.package);
    e.kind = DefaultEntry::Kind::Group;
    e.path = stripKeywords(group, key, configPath, item.mark, e);
    e.text = key + ": " + readGroupOptions(item.valueAt(0), e);
}

} // namespace

std::vector<DefaultEntry> parseDefaultsList(const Node &defaults, const std::string &configPath)
{
    std::vector<DefaultEntry> out;
    if (defaults.isNull())
        return out;
    if (!defaults.isList()) {
        std::string type = defaults.isDict() ? "mapping" : kindName(defaults.kind());
        throw ConfigError("Invalid defaults list in '" + configPath + "', defaults must be a list (got " + type + ")",
                          defaults.mark);
    }
    for (const Node &item : defaults.items()) {
        DefaultEntry e;
        e.mark = item.mark;
        if (item.isDict()) {
            readGroupEntry(item, configPath, e);
        } else if (item.isStringLike()) {
            const std::string &s = item.asString();
            e.text = s;
            if (s == "_self_") {
                e.kind = DefaultEntry::Kind::Self;
            } else {
                e.kind = DefaultEntry::Kind::Config;
                splitGroup(s, e.path, e.package);
            }
        } else {
            throw ConfigError(std::string("Unsupported type in defaults : ") + kindName(item.kind()), item.mark);
        }
        out.push_back(std::move(e));
    }
    return out;
}

} // namespace ps::core::config
