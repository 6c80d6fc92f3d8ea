// profstudio-cli trace cache info | prune | clear: look after the report cache (core/trace/persist/tracecache.h).

#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "core/common/jsonwriter.h"
#include "core/trace/persist/tracecache.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::cli {

namespace {

namespace tr = ps::core::trace;
using ps::core::JsonWriter;

CommandSpec cacheSpec()
{
    return {"profstudio-cli trace cache info|prune|clear [options]",
            "Look after the report cache: one file per loaded report, so that the next open is instant. "
            "The directory is kept under a size cap: each load that writes a cache evicts the least recently "
            "used ones.\n\n"
            "  info   the directory, its size and cap; per file the report it is of, its size and last use\n"
            "  prune  remove caches whose report is gone or that this version cannot read, temporaries left by\n"
            "         crashed writes, then the least recently used caches until the directory is within the cap\n"
            "  clear  remove every cache file",
            {
                {"cache-dir", "DIR",
                 "cache directory (default: $PROFSTUDIO_CACHE_DIR, else $XDG_CACHE_HOME/profstudio, else "
                 "~/.cache/profstudio)"},
                {"max-size", "SIZE",
                 "size cap (default: $PROFSTUDIO_CACHE_MAX_BYTES, else 10G): bytes, or a number with K, M, G or "
                 "T (binary: 1K = 1024 bytes), e.g. 500M, 1.5G"},
                {"dry-run", "", "prune, clear: say what would be removed, remove nothing"},
                {"format", "text|json", "output format (default text)"},
            },
            "ACTION  info, prune or clear",
            "Files in the directory that are not ProfStudio caches (<16 hex digits>.pstc and their\n"
            "temporaries) and subfolders are never touched.\n"
            "Examples:\n  profstudio-cli trace cache info\n  profstudio-cli trace cache prune --max-size 2G\n"
            "  profstudio-cli trace cache clear --cache-dir /scratch/ps-cache"};
}

std::string utcText(int64_t ns, bool iso)
{
    const time_t s = time_t(ns / 1000000000);
    std::tm tm{};
    gmtime_r(&s, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, iso ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d %H:%M:%S", &tm);
    return buf;
}

std::string fileName(const std::string &path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string removalText(const tr::CacheRemoval &r)
{
    const tr::CacheFile &f = r.file;
    std::string s = fileName(f.path) + " (" + tr::formatByteSize(f.bytes) + ", ";
    if (r.reason == "orphan")
        s += "orphan: " + f.reportPath + " is gone";
    else if (r.reason == "unreadable")
        s += "unreadable: " + f.problem;
    else if (r.reason == "temp")
        s += "temporary left by a crashed write";
    else if (r.reason == "lru")
        s += "least recently used, " + utcText(f.lastUseNs, false) + " UTC" +
             (f.reportPath.empty() ? std::string() : ": " + f.reportPath);
    else
        s += r.reason;
    return s + ")";
}

void writeStrings(JsonWriter &w, std::string_view key, const std::vector<std::string> &items)
{
    w.key(key).beginArray();
    for (const std::string &x : items)
        w.value(x);
    w.endArray();
}

std::optional<std::string> nonEmpty(const std::string &s)
{
    return s.empty() ? std::nullopt : std::optional<std::string>(s);
}

// What `info` and `prune`/`clear` share: the cache, the cap's origin, warnings met on the way.
struct CacheRun
{
    const tr::TraceCache &cache;
    std::string format;
    std::string capSource; // "option", "env" or "default"
    std::vector<std::string> warnings;
};

int runInfo(const CacheRun &run, std::ostream &out, std::ostream &err)
{
    std::string error;
    const std::vector<tr::CacheFile> files = run.cache.files(true, &error);
    uint64_t total = 0;
    for (const tr::CacheFile &f : files)
        total += f.bytes;
    if (!error.empty())
        err << "error: " << error << "\n";
    if (run.format == "json") {
        JsonWriter w;
        w.beginObject();
        w.key("dir").value(run.cache.dir());
        w.key("max_bytes").value(run.cache.maxBytes());
        w.key("max_bytes_source").value(run.capSource);
        w.key("files").value(uint64_t(files.size()));
        w.key("total_bytes").value(total);
        w.key("entries").beginArray();
        for (const tr::CacheFile &f : files) {
            w.beginObject();
            w.key("file").value(f.path);
            w.key("temp").value(f.temp);
            w.key("report").value(nonEmpty(f.reportPath));
            w.key("report_exists").value(f.reportPath.empty() ? std::nullopt : std::optional<bool>(f.reportExists));
            w.key("bytes").value(f.bytes);
            w.key("last_use_ns").value(f.lastUseNs);
            w.key("last_use").value(utcText(f.lastUseNs, true));
            w.key("problem").value(nonEmpty(f.problem));
            w.endObject();
        }
        w.endArray();
        writeStrings(w, "errors", error.empty() ? std::vector<std::string>{} : std::vector<std::string>{error});
        writeStrings(w, "warnings", run.warnings);
        w.endObject();
        out << w.str() << "\n";
        return error.empty() ? 0 : 1;
    }
    out << "cache dir " << run.cache.dir() << "\n"
        << "files     " << files.size() << ", " << tr::formatByteSize(total) << " of a "
        << tr::formatByteSize(run.cache.maxBytes()) << " cap (" << run.capSource << ")\n";
    if (!files.empty())
        out << "\nlast use (UTC)       size       report\n";
    for (const tr::CacheFile &f : files) {
        std::string size = tr::formatByteSize(f.bytes);
        size.resize(std::max<size_t>(size.size(), 10), ' ');
        out << utcText(f.lastUseNs, false) << "  " << size << " ";
        if (f.temp)
            out << "(temporary of a write in progress or crashed) " << fileName(f.path);
        else if (!f.reportPath.empty())
            out << f.reportPath << (f.reportExists ? "" : "  [report gone: prune removes it]");
        else
            out << fileName(f.path);
        if (!f.problem.empty())
            out << "  [" << f.problem << "]";
        out << "\n";
    }
    return error.empty() ? 0 : 1;
}

int runRemove(const CacheRun &run, const std::string &action, bool dryRun, std::ostream &out, std::ostream &err)
{
    tr::CachePruneOptions options;
    options.orphans = true;
    options.dryRun = dryRun;
    const tr::CachePruneResult r = action == "clear" ? run.cache.clear(dryRun) : run.cache.prune(options);
    for (const std::string &e : r.errors)
        err << "error: " << e << "\n";
    if (run.format == "json") {
        JsonWriter w;
        w.beginObject();
        w.key("dir").value(run.cache.dir());
        w.key("action").value(action);
        w.key("dry_run").value(dryRun);
        w.key("max_bytes").value(run.cache.maxBytes());
        w.key("removed").beginArray();
        for (const tr::CacheRemoval &x : r.removed) {
            w.beginObject();
            w.key("file").value(x.file.path);
            w.key("report").value(nonEmpty(x.file.reportPath));
            w.key("bytes").value(x.file.bytes);
            w.key("last_use_ns").value(x.file.lastUseNs);
            w.key("reason").value(x.reason);
            w.endObject();
        }
        w.endArray();
        w.key("freed_bytes").value(r.bytesFreed());
        w.key("files").value(uint64_t(r.filesLeft));
        w.key("total_bytes").value(r.bytesLeft);
        writeStrings(w, "errors", r.errors);
        writeStrings(w, "warnings", run.warnings);
        w.endObject();
        out << w.str() << "\n";
    } else {
        for (const tr::CacheRemoval &x : r.removed)
            out << (dryRun ? "would remove " : "removed ") << removalText(x) << "\n";
        out << (dryRun ? "would free " : "freed ") << tr::formatByteSize(r.bytesFreed()) << " in " << r.removed.size()
            << " file(s); " << r.filesLeft << " file(s), " << tr::formatByteSize(r.bytesLeft) << " left in "
            << run.cache.dir();
        if (action == "prune")
            out << " (cap " << tr::formatByteSize(run.cache.maxBytes()) << ")";
        out << "\n";
    }
    return r.errors.empty() ? 0 : 1;
}

} // namespace

int cmdTraceCache(const Args &args, std::ostream &out, std::ostream &err)
{
    ParsedArgs a;
    std::string format;
    if (const int s = parseCommand(cacheSpec(), args, a, {"text", "json"}, format, out, err); s >= 0)
        return s;
    if (a.positionals().size() != 1) {
        err << "error: expected one action, info, prune or clear (see profstudio-cli trace cache --help)\n";
        return 2;
    }
    const std::string action = a.positionals().front();
    if (action != "info" && action != "prune" && action != "clear") {
        err << "error: unknown cache action '" << action << "'; expected info, prune or clear\n";
        return 2;
    }
    std::optional<uint64_t> maxBytes;
    std::string capSource = "default";
    if (a.has("max-size")) {
        std::string why;
        maxBytes = tr::parseByteSize(a.value("max-size"), why);
        if (!maxBytes) {
            err << "error: --max-size: " << why << "\n";
            return 2;
        }
        capSource = "option";
    }
    const tr::TraceCache cache(a.value("cache-dir"), maxBytes);
    std::vector<std::string> warnings;
    if (!maxBytes && !cache.maxBytesProblem().empty())
        warnings.push_back(cache.maxBytesProblem());
    else if (!maxBytes && std::getenv("PROFSTUDIO_CACHE_MAX_BYTES"))
        capSource = "env";
    for (const std::string &w : warnings)
        err << "warning: " << w << "\n";
    const CacheRun run{cache, format, capSource, warnings};
    return action == "info" ? runInfo(run, out, err) : runRemove(run, action, a.has("dry-run"), out, err);
}

} // namespace ps::cli
