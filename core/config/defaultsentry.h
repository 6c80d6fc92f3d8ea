#pragma once
// One element of a Hydra defaults list, as written, plus what composition resolves about it
// (the containing config's group and package). Forms: `_self_`, CONFIG (`- base`,
// `- env/x@env.train`), GROUP (`db: mysql`, `db@pkg: pg`, `optional db: x`, `override db: y`,
// `db: null`, `db: ???`, `db: [a, b]`).

#include "core/config/node.h"
#include "core/config/sourcemark.h"

#include <optional>
#include <string>
#include <vector>

namespace ps::core::config {

struct DefaultEntry
{
    enum class Kind { Self, Config, Group };
    Kind kind = Kind::Config;
    std::string path;                   // Config: the config path as written; Group: the group as written
    std::optional<std::string> package; // the explicit "@pkg", if any
    std::vector<std::string> options;   // Group: the option(s); empty with isNull
    bool isNull = false;                // `group: null`
    bool isMissing = false;             // `group: ???`
    bool isList = false;                // `group: [a, b]`
    bool optional = false;
    bool override = false;
    bool externalAppend = false; // added from the command line with +group=option
    std::string text;            // as written, for messages and provenance
    SourceMark mark;

    // Filled in when the containing config is processed.
    std::string parentBaseDir; // the containing config's group directory
    std::string parentPackage; // the containing config's final package
    std::string packageHeader; // "# @package" of the loaded file, made absolute ("_global_.x")
    bool hasPackageHeader = false;
    // Set when the option (Group) or path (Config) was an interpolation: the text as written,
    // e.g. "${model_engine}_actor"; options / path then hold what it resolved to.
    std::string interpolatedFrom;

    bool isSelf() const { return kind == Kind::Self; }
    // Hydra's get_group_path(): the group relative to the config root ("server/db").
    std::string groupPath() const;
    // Hydra's get_config_path(): "server/db/mysql" (Group needs one option).
    std::string configPath() const;
    std::string name() const { return options.empty() ? std::string() : options.front(); }
    // Hydra's get_final_package().
    std::string finalPackage(bool useHeader = true) const;
    // Hydra's get_override_key(): "group" or "group@final_pkg" when that differs from the default.
    std::string overrideKey() const;

private:
    std::string relativeGroupPath() const;
};

// Parses a `defaults` list node. `configPath` names the containing config in messages.
// Throws ConfigError with Hydra's wording ("Unsupported item value in defaults : bool. Supported:
// string or list") located at the entry.
std::vector<DefaultEntry> parseDefaultsList(const Node &defaults, const std::string &configPath);

} // namespace ps::core::config
