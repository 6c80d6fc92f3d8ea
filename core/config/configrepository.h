#pragma once
// The config search path of one composition: config roots in order (directories, then the
// built-in presets), config lookup by Hydra config path ("actor/dp_actor"), group existence and
// the options of a group. Loaded files are cached, so a file used twice is parsed once.

#include "core/config/defaultsentry.h"
#include "core/config/node.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ps::core::config {

// One loaded config file, split as Hydra splits it: its defaults list and the rest.
struct LoadedConfig
{
    std::string configPath; // "actor/dp_actor"
    std::string file;       // the path read, or "<builtin>/actor/dp_actor.yaml"
    Node content;           // the file without its top-level `defaults` key (Dict, maybe empty)
    bool hasDefaults = false;
    std::vector<DefaultEntry> defaults;
    bool hasPackageHeader = false;
    std::string packageHeader;
};

class ConfigRepository
{
public:
    // `dirs` are searched in order; the built-in presets come last when `builtin` is set.
    // With `reuseParsed`, files parsed by earlier compositions in this process are reused while
    // their size and modification time are unchanged.
    // The first dir is Hydra's "main" source, further ones are "command-line" sources.
    ConfigRepository(std::vector<std::string> dirs, bool builtin, bool reuseParsed = false);

    // A hydra.searchpath entry: `dir` is searched (empty: not available, listed only); `provider`
    // and `hydraPath` are how Hydra lists it ("hydra.searchpath in main", "pkg://verl.trainer.config").
    void appendRoot(const std::string &dir, const std::string &provider, const std::string &hydraPath);
    // Human-readable roots that are searched, in order ("file:///x/conf", "<builtin>").
    std::vector<std::string> describe() const;
    // The config search path as Hydra lists it in errors, one "provider=P, path=SCHEME://PATH" per
    // source: Hydra's own pkg://hydra.conf first, structured:// last (the built-in presets, which
    // Hydra does not have, are not listed).
    std::vector<std::string> describeHydra() const;

    // nullptr when no root has the config. Throws ConfigError for unreadable or malformed files.
    const LoadedConfig *load(const std::string &configPath);
    bool groupExists(const std::string &group) const;
    // Sorted, without ".yaml".
    std::vector<std::string> options(const std::string &group) const;

private:
    struct Root
    {
        std::string dir; // empty for the built-in presets and sources that are not available
        bool builtin = false;
        std::string provider;
        std::string hydraPath;
    };
    std::vector<Root> m_roots;
    bool m_reuseParsed = false;
    std::map<std::string, std::unique_ptr<LoadedConfig>> m_cache; // by config path; null = absent
};

// os.path.abspath: absolute, "." and ".." folded, no trailing "/".
std::string absolutePath(const std::string &path);

// "a/../b/./c" -> "b/c"; leading "/" dropped; "../grp" (above the config root) is kept.
std::string normalizeConfigPath(const std::string &path);

} // namespace ps::core::config
