#include "core/config/defaultsinterpolation.h"

#include "core/config/configerror.h"
#include "core/config/interpolation.h"

namespace ps::core::config {

namespace {

// Hydra's _create_interpolation_map(): {override key: option, ..., defaults: [...]}, where
// `defaults` lists the containing defaults list (config paths, and {key: option} for groups).
Node interpolationMap(const KnownChoices &known, const std::vector<DefaultEntry> &defaults)
{
    Node map = Node::dict();
    for (const auto &[key, option] : known.entries())
        map.set(key, option ? Node::string(*option) : Node::null());
    Node list = Node::list();
    for (const DefaultEntry &d : defaults) {
        if (d.isSelf())
            continue;
        if (d.kind == DefaultEntry::Kind::Config) {
            list.append(Node::string(d.configPath()));
            continue;
        }
        Node value;
        if (d.isList) {
            value = Node::list();
            for (const std::string &o : d.options)
                value.append(Node::string(o));
        } else if (!d.isNull) {
            value = Node::string(d.name());
        }
        Node item = Node::dict();
        item.set(d.overrideKey(), value);
        list.append(std::move(item));
    }
    map.set("defaults", std::move(list));
    return map;
}

// "${defaults.0.db}": Hydra 1.0's form, an error from version base 1.2 on.
bool isLegacyForm(const std::string &text)
{
    return text.size() >= 13 && text.compare(0, 11, "${defaults.") == 0 && text[11] >= '0' && text[11] <= '9' &&
           text[12] == '.';
}

} // namespace

void KnownChoices::set(const std::string &key, const std::optional<std::string> &option, const SourceMark &where)
{
    for (const Entry &e : m_entries) {
        if (e.first != key)
            continue;
        if (e.second != option)
            throw ConfigError("Multiple values for " + key + ". To override a value use 'override " + key + ": " +
                                  e.second.value_or("None") + "'",
                              where, key);
        return;
    }
    m_entries.emplace_back(key, option);
}

bool isDefaultsInterpolation(const std::string &text)
{
    return text.find("${") != std::string::npos;
}

std::string resolveDefaultsInterpolation(const DefaultEntry &entry, const KnownChoices &known,
                                         const std::vector<DefaultEntry> &defaults, const EnvLookup &env)
{
    const bool isGroup = entry.kind == DefaultEntry::Kind::Group;
    const std::string text = isGroup ? entry.name() : entry.configPath();
    const SourceMark where = entry.mark.line > 0 ? entry.mark : SourceMark{};
    if (isGroup && isLegacyForm(text))
        throw ConfigError("Defaults list element '" + entry.overrideKey() + "=" + text +
                              "' is using a deprecated interpolation form.\nSee "
                              "http://hydra.cc/docs/1.1/upgrades/1.0_to_1.1/defaults_list_interpolation for "
                              "migration information.",
                          where);
    Node map = interpolationMap(known, defaults);
    Node value;
    try {
        value = resolveString(map, "_dummy_", text, env);
    } catch (const ConfigError &) {
        std::string keys;
        for (const auto &entry : known.entries())
            keys += (keys.empty() ? "" : ", ") + entry.first;
        std::string msg = "Error resolving interpolation '" + text + "'";
        if (!keys.empty())
            msg += ", possible interpolation keys: " + keys;
        throw ConfigError(msg, where);
    }
    if (!value.isStringLike())
        // Hydra fails here with a bare AssertionError; say what happened instead.
        throw ConfigError("Error resolving interpolation '" + text + "': it gives " + value.toPythonString() +
                              ", not the name of a config",
                          where);
    return value.asString();
}

} // namespace ps::core::config
