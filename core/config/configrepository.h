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
    ConfigRepository(std::vector<std::string> dirs, bool builtin, bool reuseParsed = false);

    void appendDir(const std::string &dir);
    // Human-readable roots, in order ("file:///x/conf", "<builtin>").
    std::vector<std::string> describe() const;

    // nullptr when no root has the config. Throws ConfigError for unreadable or malformed files.
    const LoadedConfig *load(const std::string &configPath);
    bool groupExists(const std::string &group) const;
    // Sorted, without ".yaml".
    std::vector<std::string> options(const std::string &group) const;

private:
    struct Root
    {
        std::string dir; // empty for the built-in presets
        bool builtin = false;
    };
    std::vector<Root> m_roots;
    bool m_reuseParsed = false;
    std::map<std::string, std::unique_ptr<LoadedConfig>> m_cache; // by config path; null = absent
};

// "a/../b/./c" -> "b/c"; leading "/" dropped.
std::string normalizeConfigPath(const std::string &path);

} // namespace ps::core::config
