#include "core/config/configrepository.h"

#include "core/config/builtinpresets.h"
#include "core/config/configerror.h"
#include "core/config/yamlloader.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <set>
#include <unordered_map>

namespace ps::core::config {

namespace fs = std::filesystem;

namespace {

const std::string kYaml = ".yaml";

std::unique_ptr<LoadedConfig> makeLoaded(const std::string &configPath, const std::string &file, LoadedYaml yaml)
{
    auto lc = std::make_unique<LoadedConfig>();
    lc->configPath = configPath;
    lc->file = file;
    lc->hasPackageHeader = yaml.hasPackageHeader;
    lc->packageHeader = yaml.packageHeader;
    if (yaml.root.isNull()) {
        lc->content = Node::dict();
    } else if (!yaml.root.isDict()) {
        throw ConfigError("Config '" + configPath + "' must be a mapping at the top level, got " +
                              kindName(yaml.root.kind()),
                          SourceMark{file, yaml.root.mark.line, yaml.root.mark.column});
    } else {
        lc->content = std::move(yaml.root);
    }
    if (const Node *d = lc->content.find("defaults")) {
        lc->hasDefaults = true;
        lc->defaults = parseDefaultsList(*d, configPath);
        lc->content.erase("defaults");
    }
    lc->content.mark = SourceMark{file, 1, 1};
    return lc;
}

// Parsed files shared by compositions in this process, keyed by path and checked against the
// file's size and modification time before reuse.
class ParsedFileCache
{
public:
    LoadedYaml load(const std::string &path)
    {
        std::error_code ec;
        auto size = fs::file_size(path, ec);
        auto mtime = fs::last_write_time(path, ec);
        if (ec)
            return loadYamlFile(path);
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            auto it = m_entries.find(path);
            if (it != m_entries.end() && it->second.size == size && it->second.mtime == mtime)
                return it->second.yaml;
        }
        LoadedYaml y = loadYamlFile(path);
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_entries.size() >= kMaxEntries)
            m_entries.clear();
        Entry &entry = m_entries[path] = Entry{size, mtime, std::move(y)};
        return entry.yaml;
    }

private:
    static constexpr size_t kMaxEntries = 1024;
    struct Entry
    {
        std::uintmax_t size = 0;
        fs::file_time_type mtime;
        LoadedYaml yaml;
    };
    std::mutex m_mutex;
    std::unordered_map<std::string, Entry> m_entries;
};

ParsedFileCache &parsedFileCache()
{
    static ParsedFileCache cache;
    return cache;
}

} // namespace

std::string normalizeConfigPath(const std::string &path)
{
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= path.size()) {
        size_t slash = path.find('/', start);
        std::string part = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
        if (part == "..") {
            // Hydra joins "../grp/opt" to the config root literally: a path may climb above it.
            if (parts.empty() || parts.back() == "..")
                parts.push_back(part);
            else
                parts.pop_back();
        } else if (!part.empty() && part != ".") {
            parts.push_back(part);
        }
        if (slash == std::string::npos)
            break;
        start = slash + 1;
    }
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i)
            out += '/';
        out += parts[i];
    }
    return out;
}

ConfigRepository::ConfigRepository(std::vector<std::string> dirs, bool builtin, bool reuseParsed)
    : m_reuseParsed(reuseParsed)
{
    for (auto &d : dirs) {
        const std::string provider = m_roots.empty() ? "main" : "command-line";
        const std::string hydraPath = "file://" + absolutePath(d);
        m_roots.push_back(Root{std::move(d), false, provider, hydraPath});
    }
    if (builtin)
        m_roots.push_back(Root{{}, true, {}, {}});
}

void ConfigRepository::appendRoot(const std::string &dir, const std::string &provider, const std::string &hydraPath)
{
    // Search-path additions go before the built-in presets, as Hydra puts them before its schema source.
    auto pos = std::find_if(m_roots.begin(), m_roots.end(), [](const Root &r) { return r.builtin; });
    m_roots.insert(pos, Root{dir, false, provider, hydraPath});
    m_cache.clear();
}

std::vector<std::string> ConfigRepository::describe() const
{
    std::vector<std::string> out;
    for (const Root &r : m_roots)
        if (r.builtin || !r.dir.empty())
            out.push_back(r.builtin ? std::string(kBuiltinRoot) : "file://" + r.dir);
    return out;
}

std::vector<std::string> ConfigRepository::describeHydra() const
{
    std::vector<std::string> out{"provider=hydra, path=pkg://hydra.conf"};
    for (const Root &r : m_roots)
        if (!r.builtin)
            out.push_back("provider=" + r.provider + ", path=" + r.hydraPath);
    out.push_back("provider=schema, path=structured://");
    return out;
}

std::string absolutePath(const std::string &path)
{
    std::error_code ec;
    std::string out = fs::absolute(path, ec).lexically_normal().string();
    while (out.size() > 1 && out.back() == '/')
        out.pop_back();
    return out;
}

const LoadedConfig *ConfigRepository::load(const std::string &configPath)
{
    auto it = m_cache.find(configPath);
    if (it != m_cache.end())
        return it->second.get();
    std::unique_ptr<LoadedConfig> result;
    for (const Root &r : m_roots) {
        if (r.builtin) {
            if (const BuiltinPreset *p = findBuiltinPreset(configPath + kYaml)) {
                std::string label = std::string(kBuiltinRoot) + "/" + configPath + kYaml;
                result = makeLoaded(configPath, label, loadYamlText(p->content, label));
                break;
            }
            continue;
        }
        if (r.dir.empty())
            continue;
        std::string file = r.dir + "/" + configPath + kYaml;
        std::error_code ec;
        if (fs::is_regular_file(file, ec)) {
            result = makeLoaded(configPath, file, m_reuseParsed ? parsedFileCache().load(file) : loadYamlFile(file));
            break;
        }
    }
    const LoadedConfig *ptr = result.get();
    m_cache.emplace(configPath, std::move(result));
    return ptr;
}

bool ConfigRepository::groupExists(const std::string &group) const
{
    for (const Root &r : m_roots) {
        if (r.builtin) {
            std::string prefix = group + "/";
            for (const BuiltinPreset &p : builtinPresets())
                if (p.path.substr(0, prefix.size()) == prefix)
                    return true;
            continue;
        }
        std::error_code ec;
        if (!r.dir.empty() && fs::is_directory(r.dir + "/" + group, ec))
            return true;
    }
    return false;
}

std::vector<std::string> ConfigRepository::options(const std::string &group) const
{
    std::set<std::string> names;
    for (const Root &r : m_roots) {
        if (r.builtin) {
            std::string prefix = group + "/";
            for (const BuiltinPreset &p : builtinPresets()) {
                std::string_view rest = p.path.substr(0, prefix.size()) == prefix ? p.path.substr(prefix.size()) : "";
                if (!rest.empty() && rest.find('/') == std::string_view::npos && rest.size() > kYaml.size() &&
                    rest.substr(rest.size() - kYaml.size()) == kYaml)
                    names.insert(std::string(rest.substr(0, rest.size() - kYaml.size())));
            }
            continue;
        }
        if (r.dir.empty())
            continue;
        std::error_code ec;
        fs::directory_iterator dirIt(r.dir + "/" + group, ec);
        if (ec)
            continue;
        for (const auto &entry : dirIt) {
            std::string name = entry.path().filename().string();
            if (entry.is_regular_file(ec) && name.size() > kYaml.size() &&
                name.compare(name.size() - kYaml.size(), kYaml.size(), kYaml) == 0)
                names.insert(name.substr(0, name.size() - kYaml.size()));
        }
    }
    return {names.begin(), names.end()};
}

} // namespace ps::core::config
