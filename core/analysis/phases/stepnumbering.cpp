#include "core/analysis/phases/stepnumbering.h"

#include "core/config/configerror.h"
#include "core/config/keypath.h"
#include "core/config/yamlloader.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <system_error>

namespace ps::core::analysis {

namespace fs = std::filesystem;

namespace {

// The keys that name the profiled steps, newest schema first.
constexpr std::string_view kStepKeys[] = {"global_profiler.steps", "trainer.profile_steps", "cluster.profiling.steps"};

// A folder with thousands of reports is one folder; runs spread over hosts are a few.
constexpr size_t kMaxFolders = 8;
// A folder of configs is small; one with hundreds of YAML files is not a run's config folder.
constexpr size_t kMaxYamlPerFolder = 32;
// Configs are a few kB; a large YAML file beside the reports is data, not the run's config.
constexpr uintmax_t kMaxConfigBytes = 1 << 20;

std::optional<std::vector<int64_t>> intList(const config::Node &node)
{
    if (!node.isList() || node.size() == 0)
        return std::nullopt;
    std::set<int64_t> steps;
    for (const config::Node &item : node.items()) {
        if (item.kind() != config::Node::Kind::Int || item.isBigInt())
            return std::nullopt;
        steps.insert(item.asInt());
    }
    return std::vector<int64_t>(steps.begin(), steps.end());
}

std::vector<fs::path> listYamlFiles(const fs::path &dir)
{
    std::error_code ec;
    std::vector<fs::path> found;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path &p = it->path();
        if ((p.extension() == ".yaml" || p.extension() == ".yml") && it->is_regular_file(ec))
            found.push_back(p);
        if (found.size() > kMaxYamlPerFolder)
            return {};
    }
    std::sort(found.begin(), found.end());
    return found;
}

// Every report of a run asks about the same folder (1024 reports: 1024 listings of a folder of
// 1024 files). Listings are kept per folder while its modification time stays.
std::vector<fs::path> yamlFilesOf(const fs::path &dir)
{
    static std::mutex mutex;
    static std::map<fs::path, std::pair<fs::file_time_type, std::vector<fs::path>>> listings;
    std::error_code ec;
    const fs::file_time_type stamp = fs::last_write_time(dir, ec);
    if (ec)
        return {};
    {
        const std::lock_guard lock(mutex);
        if (auto it = listings.find(dir); it != listings.end() && it->second.first == stamp)
            return it->second.second;
    }
    std::vector<fs::path> found = listYamlFiles(dir);
    const std::lock_guard lock(mutex);
    listings[dir] = {stamp, found};
    return found;
}

void addYamlFilesOf(const fs::path &dir, std::vector<fs::path> &out)
{
    const std::vector<fs::path> found = yamlFilesOf(dir);
    out.insert(out.end(), found.begin(), found.end());
}

// The config files that may describe the run whose reports are in `dir` (see the header).
std::vector<fs::path> candidateConfigs(const fs::path &dir)
{
    std::vector<fs::path> out;
    const fs::path parent = dir.parent_path();
    addYamlFilesOf(dir, out);
    out.push_back(dir / ".hydra" / "config.yaml");
    out.push_back(parent / ".hydra" / "config.yaml");
    addYamlFilesOf(parent / "config", out);
    return out;
}

std::string listText(const std::vector<int64_t> &steps)
{
    std::string s = "[";
    for (size_t i = 0; i < steps.size(); ++i)
        s += (i ? ", " : "") + std::to_string(steps[i]);
    return s + "]";
}

} // namespace

std::string ProfiledSteps::source() const
{
    return key + " in " + file;
}

namespace {

std::optional<ProfiledSteps> readProfiledSteps(const std::string &yamlPath)
{
    config::LoadedYaml yaml;
    try {
        yaml = config::loadYamlFile(yamlPath);
    } catch (const config::ConfigError &) {
        return std::nullopt; // not a config of ours to judge: other YAML may sit beside reports
    }
    if (!yaml.root.isDict())
        return std::nullopt;
    for (std::string_view key : kStepKeys)
        if (const config::Node *node = config::findPath(yaml.root, key))
            if (auto steps = intList(*node))
                return ProfiledSteps{std::move(*steps), std::string(key), yamlPath};
    return std::nullopt;
}

} // namespace

std::optional<ProfiledSteps> profiledStepsInFile(const std::string &yamlPath)
{
    std::error_code ec;
    if (!fs::is_regular_file(yamlPath, ec) || fs::file_size(yamlPath, ec) > kMaxConfigBytes || ec)
        return std::nullopt;
    // Parsed once per file version: each report of a run reads the same config.
    using Stamp = std::pair<fs::file_time_type, uintmax_t>;
    static std::mutex mutex;
    static std::map<std::string, std::pair<Stamp, std::optional<ProfiledSteps>>> parsed;
    const Stamp stamp{fs::last_write_time(yamlPath, ec), fs::file_size(yamlPath, ec)};
    if (ec)
        return std::nullopt;
    {
        const std::lock_guard lock(mutex);
        if (auto it = parsed.find(yamlPath); it != parsed.end() && it->second.first == stamp)
            return it->second.second;
    }
    std::optional<ProfiledSteps> steps = readProfiledSteps(yamlPath);
    const std::lock_guard lock(mutex);
    parsed[yamlPath] = {stamp, steps};
    return steps;
}

std::optional<ProfiledSteps> profiledStepsNear(const std::vector<std::string> &reportPaths, std::string *why)
{
    std::vector<fs::path> folders;
    for (const std::string &path : reportPaths) {
        const fs::path dir = fs::path(path).parent_path();
        if (std::find(folders.begin(), folders.end(), dir) == folders.end())
            folders.push_back(dir);
        if (folders.size() >= kMaxFolders)
            break;
    }
    std::set<fs::path> seen;
    std::optional<ProfiledSteps> found;
    for (const fs::path &dir : folders)
        for (const fs::path &candidate : candidateConfigs(dir)) {
            if (!seen.insert(candidate.lexically_normal()).second)
                continue;
            std::optional<ProfiledSteps> steps = profiledStepsInFile(candidate.lexically_normal().string());
            if (!steps)
                continue;
            if (found && found->steps != steps->steps) {
                if (why)
                    *why = "configs disagree on the profiled steps: " + found->source() + " says " +
                           listText(found->steps) + ", " + steps->source() + " says " + listText(steps->steps);
                return std::nullopt;
            }
            if (!found)
                found = std::move(steps);
        }
    return found;
}

std::optional<int64_t> stepNamedBy(std::string_view name)
{
    constexpr std::string_view pytorch = "ProfilerStep#";
    std::string_view digits;
    if (name.substr(0, pytorch.size()) == pytorch) {
        digits = name.substr(pytorch.size());
    } else if (name.size() > 4 && (name[0] == 's' || name[0] == 'S') && name.substr(1, 3) == "tep") {
        digits = name.substr(4);
        if (!digits.empty() && (digits[0] == ' ' || digits[0] == '_' || digits[0] == '#' || digits[0] == ':'))
            digits.remove_prefix(1);
    } else {
        return std::nullopt;
    }
    int64_t n = 0;
    const char *end = digits.data() + digits.size();
    if (digits.empty() || digits[0] == '-' || digits[0] == '+' || std::from_chars(digits.data(), end, n).ptr != end)
        return std::nullopt;
    return n;
}

std::optional<int64_t> profiledStepOf(const ProfiledSteps &steps, int64_t counted, int64_t countedSteps)
{
    if (countedSteps != int64_t(steps.steps.size()) || counted < 1 || counted > countedSteps)
        return std::nullopt;
    return steps.steps[size_t(counted - 1)];
}

} // namespace ps::core::analysis
