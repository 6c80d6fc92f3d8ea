#include "core/configedit/overrideedits.h"

#include "core/config/configerror.h"
#include "core/config/keypath.h"
#include "core/config/override.h"

#include <algorithm>
#include <optional>

namespace ps::core::configedit {

using core::config::Node;
using core::config::Override;

namespace {

std::optional<Override> parsed(const std::string &text)
{
    try {
        return core::config::parseOverride(text);
    } catch (const core::config::ConfigError &) {
        return std::nullopt;
    }
}

std::string keyOf(const Override &o)
{
    return o.hasPackage ? o.key + "@" + o.package : o.key;
}

int indexOf(const OverrideList &list, const std::string &key)
{
    for (size_t i = 0; i < list.size(); ++i)
        if (overrideKey(list[i]) == key)
            return static_cast<int>(i);
    return -1;
}

bool isBelow(const std::string &key, const std::string &parent)
{
    return key.size() > parent.size() && key.compare(0, parent.size(), parent) == 0 && key[parent.size()] == '.';
}

// Overrides of keys below `key` are superseded by an edit of `key` itself (a later one would even
// fail after `~key`), so they go.
OverrideList dropBelow(const OverrideList &list, const std::string &key)
{
    OverrideList out;
    for (const std::string &o : list)
        if (!isBelow(overrideKey(o), key))
            out.push_back(o);
    return out;
}

// Whether an override of an ancestor of `key` is present: then "equal to the preset" says nothing
// about whether this key's own override is still needed.
bool ancestorEdited(const OverrideList &list, const std::string &key)
{
    for (const std::string &o : list)
        if (isBelow(key, overrideKey(o)))
            return true;
    return false;
}

const Node *lookup(const Node *root, const std::string &key)
{
    return root ? core::config::findPath(*root, key) : nullptr;
}

std::string prefixOf(Override::Type t)
{
    switch (t) {
    case Override::Type::Add:
        return "+";
    case Override::Type::ForceAdd:
        return "++";
    default:
        return "";
    }
}

} // namespace

std::string overrideKey(const std::string &text)
{
    const auto o = parsed(text);
    return o ? keyOf(*o) : std::string();
}

OverrideList withValue(const OverrideList &overrides, const std::string &key, const Node &value, const EditContext &ctx)
{
    OverrideList list = dropBelow(overrides, key);
    const std::string valueText = core::config::toOverrideValue(value);
    const Node *preset = lookup(ctx.baseline, key);
    const bool backToPreset = preset && *preset == value && !ancestorEdited(list, key);
    const int i = indexOf(list, key);
    if (i >= 0) {
        const auto existing = parsed(list[i]);
        if (existing->type == Override::Type::Add || existing->type == Override::Type::ForceAdd) {
            list[i] = prefixOf(existing->type) + key + "=" + valueText;
        } else if (backToPreset) {
            list.erase(list.begin() + i);
        } else {
            list[i] = key + "=" + valueText; // a change, or a delete turned back into a change
        }
        return list;
    }
    const Node *now = lookup(ctx.current, key);
    if (now && *now == value)
        return list;
    list.push_back((now ? "" : "+") + key + "=" + valueText);
    return list;
}

OverrideList withoutKey(const OverrideList &overrides, const std::string &key, const EditContext &ctx)
{
    OverrideList list = dropBelow(overrides, key);
    const int i = indexOf(list, key);
    if (i >= 0) {
        const auto existing = parsed(list[i]);
        if (existing->type == Override::Type::Delete)
            return list;
        if (existing->type != Override::Type::Change || !lookup(ctx.baseline, key)) {
            list.erase(list.begin() + i); // it was added by an override: dropping that removes it
            if (!lookup(ctx.baseline, key) || ancestorEdited(list, key))
                return list;
        }
        // A changed preset key: delete it instead.
        std::erase_if(list, [&](const std::string &o) { return overrideKey(o) == key; });
        list.push_back("~" + key);
        return list;
    }
    if (lookup(ctx.current, key))
        list.push_back("~" + key);
    return list;
}

OverrideList withGroupChoice(const OverrideList &overrides, const std::string &groupKey, const std::string &option,
                             const std::string &presetOption)
{
    OverrideList list = overrides;
    const int i = indexOf(list, groupKey);
    const std::string text = groupKey + "=" + option;
    if (i >= 0) {
        const auto existing = parsed(list[i]);
        if (existing->type == Override::Type::Change && option == presetOption)
            list.erase(list.begin() + i);
        else
            list[i] = prefixOf(existing->type) + text;
        return list;
    }
    if (option != presetOption)
        list.push_back(text);
    return list;
}

} // namespace ps::core::configedit
