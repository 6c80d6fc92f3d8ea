#pragma once
// The edit model of a Configure session: every edit the user makes is a Hydra override, and the
// session is the base composition plus the ordered override list. These functions turn "set this
// key to this value" / "remove this key" / "choose this group option" into a new override list,
// keeping it minimal: one override per key (a later edit of the same key rewrites it in place),
// a value set back to the preset's drops its override, and the prefix follows Hydra's rules
// (`key=` for a key that exists, `+key=` for one that does not, `~key` to delete). Plain C++ over
// the config engine, so it is table-tested without widgets.

#include "core/config/node.h"

#include <string>
#include <vector>

namespace ps::core::configedit {

using OverrideList = std::vector<std::string>;

struct EditContext
{
    // The composition before the edit (base + current overrides) and the preset (base only).
    // Either may be null when the config does not compose; the rules then fall back to
    // "key exists" = false.
    const core::config::Node *current = nullptr;
    const core::config::Node *baseline = nullptr;
};

// The key an override addresses: "a.b" for `a.b=1`, `+a.b=1`, `~a.b`; "group@pkg" for a group
// override with a package. Empty when the text does not parse.
std::string overrideKey(const std::string &text);

OverrideList withValue(const OverrideList &overrides, const std::string &key, const core::config::Node &value,
                       const EditContext &ctx);
OverrideList withoutKey(const OverrideList &overrides, const std::string &key, const EditContext &ctx);
// `groupKey` is "group" or "group@package" as Hydra matches defaults entries; `presetOption` is
// the option the preset composition chose (the override is dropped when it is chosen again).
OverrideList withGroupChoice(const OverrideList &overrides, const std::string &groupKey, const std::string &option,
                             const std::string &presetOption);

} // namespace ps::core::configedit
