#include "app/cli/traceload.h"

#include "core/trace/persist/tracecache.h"
#include "core/trace/store/eventtimes.h"

#include <charconv>

namespace ps::cli {

namespace tr = ps::core::trace;

std::vector<OptionSpec> traceLoadOptions()
{
    return {
        {"cache-dir", "DIR", "report cache directory (default: $PROFSTUDIO_CACHE_DIR, $XDG_CACHE_HOME/profstudio)"},
        {"no-cache", "", "neither read nor write the report cache"},
        {"threads", "N", "worker threads (default: all cores)"},
    };
}

std::optional<long long> parseInt(const std::string &s)
{
    long long v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::optional<size_t> countArg(const ParsedArgs &a, const std::string &name, size_t fallback, std::ostream &err)
{
    if (!a.has(name))
        return fallback;
    const auto v = parseInt(a.value(name));
    if (v && *v >= 0)
        return size_t(*v);
    err << "error: --" << name << " expects a whole number >= 0, got '" << a.value(name) << "'\n";
    return std::nullopt;
}

bool loadOptionsFromArgs(const ParsedArgs &a, std::ostream &err, tr::LoadOptions &opt, int &status)
{
    opt.useCache = !a.has("no-cache");
    opt.cacheDir = a.value("cache-dir");
    if (opt.useCache) {
        std::string capProblem; // the default cap is used then; say so rather than ignore it
        opt.cacheMaxBytes = tr::defaultCacheMaxBytes(&capProblem); // parsed once, here
        if (!capProblem.empty())
            err << "warning: " << capProblem << "\n";
    }
    if (a.has("threads")) {
        auto t = parseInt(a.value("threads"));
        if (!t || *t < 1 || *t > 1024) {
            err << "error: --threads expects a positive integer, got '" << a.value("threads") << "'\n";
            status = 2;
            return false;
        }
        opt.threads = int(*t);
    }
    return true;
}

void loadPaths(const std::vector<std::string> &paths, const tr::LoadOptions &opt, std::ostream &err,
               tr::LoadResult &result, int &status)
{
    result = tr::loadReports(paths, opt);
    for (const auto &f : result.failures)
        err << "error: " << f.reason << "\n";
    for (const std::string &w : result.warnings)
        err << "warning: " << w << "\n";
    for (const tr::ReportPtr &r : result.reports) {
        for (const std::string &w : r->meta.warnings)
            if (w.starts_with(tr::kInvalidDataWarning))
                err << "warning: " << r->path << ": " << w << "\n";
        // Every command answers by the recorded rank: say so where the file's name says another.
        if (!r->identity.nameDisagrees.empty())
            err << "warning: " << r->path << ": its name disagrees with the identity it recorded ("
                << r->identity.nameDisagrees << "); the recorded one is used\n";
    }
    status = result.failures.empty() ? 0 : 1;
    if (result.reports.empty() && result.failures.empty()) {
        err << "error: no reports found under the given paths (expected nsys .sqlite exports or .nsys-rep, "
               "rocpd/Ascend .db, Kineto .json[.gz])\n";
        status = 1;
    }
}

bool loadFromArgs(const ParsedArgs &a, std::ostream &err, tr::LoadResult &result, int &status, bool digestOutlines)
{
    if (a.positionals().empty()) {
        err << "error: no report given; pass report files or folders\n";
        status = 2;
        return false;
    }
    tr::LoadOptions opt;
    if (!loadOptionsFromArgs(a, err, opt, status))
        return false;
    opt.digestOutlines = digestOutlines;
    loadPaths(a.positionals(), opt, err, result, status);
    return true;
}

} // namespace ps::cli
