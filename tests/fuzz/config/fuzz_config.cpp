// libFuzzer target over the config engine's inputs: YAML loading, override parsing, and a
// whole composition of a fuzzed primary config with fuzzed overrides in a temporary config root.
// Input layout: the bytes up to the first 0x00 are the YAML; each further 0x00-separated chunk is
// one override. Any ConfigError is a fine outcome; crashes, hangs and sanitizer reports are not.
#include "core/config/composer.h"
#include "core/config/configerror.h"
#include "core/config/interpolation.h"
#include "core/config/override.h"
#include "core/config/yamlemitter.h"
#include "core/config/yamlloader.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::string fuzzRoot()
{
    static const std::string root = [] {
        std::string dir =
            std::filesystem::temp_directory_path().string() + "/ps_fuzz_config_" + std::to_string(::getpid());
        std::filesystem::create_directories(dir + "/db");
        std::filesystem::create_directories(dir + "/server/db");
        std::ofstream(dir + "/db/mysql.yaml") << "driver: mysql\nport: 3306\n";
        std::ofstream(dir + "/db/pg.yaml") << "# @package _global_.database\ndriver: pg\nuser: ${oc.env:USER,x}\n";
        std::ofstream(dir + "/server/apache.yaml") << "defaults:\n  - db: mysql\n  - _self_\nport: 80\n";
        std::ofstream(dir + "/server/db/mysql.yaml") << "host: localhost\n";
        // Interpolation in the defaults list (`${group}` choices, nested, optional, resolvers),
        // reached by fuzzed primaries such as "defaults: [server: interp]" or "+server=interp".
        std::filesystem::create_directories(dir + "/combo");
        std::ofstream(dir + "/combo/mysql_interp.yaml") << "combo: 1\n";
        std::ofstream(dir + "/server/interp.yaml")
            << "defaults:\n  - db: mysql\n  - optional /combo: ${server/db}_${server}\n"
               "  - optional /db@copy: ${oc.env:FUZZ_DB,pg}\n  - _self_\nport: 81\n";
        std::ofstream(dir + "/server/over.yaml") << "defaults:\n  - db: mysql\n  - override db: mysql\n";
        return dir;
    }();
    return root;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ps::core::config;
    std::string input(reinterpret_cast<const char *>(data), size);
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        size_t z = input.find('\0', start);
        parts.push_back(input.substr(start, z == std::string::npos ? std::string::npos : z - start));
        if (z == std::string::npos)
            break;
        start = z + 1;
    }
    const std::string &yaml = parts[0];
    std::vector<std::string> overrides(parts.begin() + 1, parts.end());
    if (overrides.size() > 8)
        overrides.resize(8);

    // 1. YAML loading, emission and resolution of whatever loaded.
    try {
        LoadedYaml y = loadYamlText(yaml, "fuzz.yaml");
        std::string out = toYaml(y.root);
        std::vector<ConfigError> problems;
        Node resolved = resolveAll(y.root, &problems, [](const std::string &) { return std::nullopt; });
        out += toYaml(resolved);
        // What we emit must load again.
        LoadedYaml again = loadYamlText(toYaml(y.root), "again.yaml");
        (void)again;
    } catch (const ConfigError &) {
    }

    // 2. Override parsing.
    for (const std::string &o : overrides) {
        try {
            Override parsed = parseOverride(o);
            std::string text = toOverrideValue(parsed.value);
            Node back = parseOverrideValue(text);
            (void)back;
        } catch (const ConfigError &) {
        }
    }

    // 3. Composition of the fuzzed file as the primary config, with the fuzzed overrides.
    const std::string root = fuzzRoot();
    {
        std::ofstream f(root + "/primary.yaml", std::ios::binary | std::ios::trunc);
        f << yaml;
    }
    try {
        ComposeOptions opts;
        opts.configDirs = {root};
        opts.configName = "primary";
        opts.overrides = overrides;
        opts.env = [](const std::string &) { return std::nullopt; };
        opts.reuseParsedFiles = false; // the file changes on every input, faster than mtime ticks
        ComposeResult r = compose(opts);
        std::string out = toYaml(r.config);
        for (const auto &[key, chain] : r.provenance.chains())
            out += explainKey(r, key);
    } catch (const ConfigError &) {
    }
    return 0;
}
