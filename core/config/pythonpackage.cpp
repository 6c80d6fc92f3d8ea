#include "core/config/pythonpackage.h"

#include "core/config/configrepository.h"

#include <algorithm>
#include <filesystem>
#include <vector>

namespace ps::core::config {

namespace fs = std::filesystem;

namespace {

struct PathEntry
{
    std::string dir;
    const char *via;
};

bool isFile(const fs::path &p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

bool isDir(const fs::path &p)
{
    std::error_code ec;
    return fs::is_directory(p, ec);
}

// lib/python3.*/{site,dist}-packages under `prefix`.
void addSitePackages(const fs::path &prefix, std::vector<PathEntry> &out)
{
    std::error_code ec;
    fs::directory_iterator it(prefix / "lib", ec);
    if (ec)
        return;
    std::vector<std::string> found;
    for (const auto &e : it) {
        const std::string name = e.path().filename().string();
        if (name.rfind("python3", 0) != 0)
            continue;
        for (const char *leaf : {"site-packages", "dist-packages"})
            if (isDir(e.path() / leaf))
                found.push_back((e.path() / leaf).string());
    }
    std::sort(found.begin(), found.end());
    for (auto &f : found)
        out.push_back({std::move(f), "python3's site-packages"});
}

std::vector<PathEntry> pathEntries(const std::string &primaryConfigDir, const EnvLookup &env)
{
    std::vector<PathEntry> out;
    for (fs::path p = fs::path(absolutePath(primaryConfigDir)).parent_path(); !p.empty(); p = p.parent_path()) {
        out.push_back({p.string(), "an ancestor of the primary config dir"});
        if (p == p.root_path())
            break;
    }
    if (auto pp = env("PYTHONPATH")) {
        size_t start = 0;
        while (start <= pp->size()) {
            size_t colon = pp->find(':', start);
            std::string item = pp->substr(start, colon == std::string::npos ? std::string::npos : colon - start);
            if (!item.empty())
                out.push_back({item, "PYTHONPATH"});
            if (colon == std::string::npos)
                break;
            start = colon + 1;
        }
    }
    for (const char *var : {"VIRTUAL_ENV", "CONDA_PREFIX"})
        if (auto prefix = env(var); prefix && !prefix->empty())
            addSitePackages(*prefix, out);
    addSitePackages("/usr/local", out);
    addSitePackages("/usr", out);
    if (isDir("/usr/lib/python3/dist-packages"))
        out.push_back({"/usr/lib/python3/dist-packages", "python3's site-packages"});
    if (auto home = env("HOME"); home && !home->empty())
        addSitePackages(fs::path(*home) / ".local", out);
    return out;
}

struct Portion
{
    fs::path dir;
    const PathEntry *entry;
};

// One import level as Python's PathFinder takes it: the first portion holding a module `name.py`
// (empty: not a package) or a regular package `name/__init__.py` wins, even after namespace
// portions; only when none does are all the `name/` folders seen the namespace package.
std::vector<Portion> findLevel(const std::vector<Portion> &search, const std::string &name, bool &regular)
{
    std::vector<Portion> namespaces;
    for (const Portion &p : search) {
        const fs::path candidate = p.dir / name;
        if (isFile(candidate / "__init__.py")) {
            regular = true;
            return {{candidate, p.entry}};
        }
        if (isFile(p.dir / (name + ".py")))
            return {}; // a module, not a package
        if (isDir(candidate))
            namespaces.push_back({candidate, p.entry});
    }
    regular = false;
    return namespaces;
}

} // namespace

std::optional<PythonPackageDir> findPythonPackage(const std::string &dotted, const std::string &primaryConfigDir,
                                                  const EnvLookup &env)
{
    if (dotted.empty())
        return std::nullopt;
    const std::vector<PathEntry> entries = pathEntries(primaryConfigDir, env);
    std::vector<Portion> search;
    for (const PathEntry &e : entries)
        search.push_back({fs::path(e.dir), &e});
    bool regular = false;
    size_t start = 0;
    while (start <= dotted.size()) {
        const size_t dot = dotted.find('.', start);
        const std::string name = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (name.empty() || name == ".." || name.find('/') != std::string::npos)
            return std::nullopt;
        search = findLevel(search, name, regular);
        if (search.empty())
            return std::nullopt;
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    return PythonPackageDir{search.front().dir.string(), search.front().entry->dir, search.front().entry->via, regular};
}

} // namespace ps::core::config
