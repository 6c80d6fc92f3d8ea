#include "core/trace/persist/tracecache.h"

#include "core/common/atomicfile.h"
#include "core/trace/persist/cachecodec.h"
#include "core/trace/persist/mappedfile.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace ps::core::trace {

namespace fs = std::filesystem;

std::string defaultCacheDir()
{
    if (const char *d = std::getenv("PROFSTUDIO_CACHE_DIR"); d && *d)
        return d;
    if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
        return std::string(x) + "/profstudio";
    if (const char *h = std::getenv("HOME"); h && *h)
        return std::string(h) + "/.cache/profstudio";
    return (fs::temp_directory_path() / "profstudio-cache").string();
}

namespace {

std::string sizeHelp(std::string_view text)
{
    return "'" + std::string(text) +
           "' is not a size: expected bytes, or a number with K, M, G or T (binary: 1K = 1024 bytes), "
           "e.g. 10G or 500M";
}

} // namespace

std::optional<uint64_t> parseByteSize(std::string_view text, std::string &error)
{
    std::string_view t = text;
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front())))
        t.remove_prefix(1);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back())))
        t.remove_suffix(1);
    size_t i = 0;
    uint64_t whole = 0;
    bool digits = false, overflow = false;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
        digits = true;
        const uint64_t d = uint64_t(t[i] - '0');
        overflow = overflow || whole > (UINT64_MAX - d) / 10;
        whole = whole * 10 + d;
    }
    double fraction = 0;
    bool hasFraction = false;
    if (i < t.size() && t[i] == '.') {
        hasFraction = true;
        double scale = 0.1;
        for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, scale /= 10) {
            digits = true;
            fraction += scale * (t[i] - '0');
        }
    }
    if (!digits) {
        error = sizeHelp(text);
        return std::nullopt;
    }
    std::string unit;
    for (; i < t.size(); ++i)
        unit += char(std::tolower(static_cast<unsigned char>(t[i])));
    int shift = -1;
    static const struct
    {
        const char *name;
        int shift;
    } kUnits[] = {{"", 0},     {"b", 0},  {"k", 10},  {"kb", 10},  {"kib", 10}, {"m", 20},  {"mb", 20},
                  {"mib", 20}, {"g", 30}, {"gb", 30}, {"gib", 30}, {"t", 40},   {"tb", 40}, {"tib", 40}};
    for (const auto &u : kUnits)
        if (unit == u.name)
            shift = u.shift;
    if (shift < 0) {
        error = sizeHelp(text);
        return std::nullopt;
    }
    if (hasFraction && shift == 0) {
        error = "'" + std::string(text) + "' is not a whole number of bytes (a fraction needs a unit, e.g. 1.5G)";
        return std::nullopt;
    }
    // Sizes up to 2^63 - 1 bytes; more is no cap anyone means.
    constexpr uint64_t kMax = uint64_t(INT64_MAX);
    overflow = overflow || whole > (kMax >> shift);
    uint64_t bytes = overflow ? 0 : whole << shift;
    if (!overflow && hasFraction) {
        const double extra = std::floor(fraction * double(uint64_t(1) << shift));
        overflow = double(bytes) + extra >= double(kMax);
        bytes += uint64_t(extra);
    }
    if (overflow) {
        error = "'" + std::string(text) + "' is too large a size (at most 8 EiB)";
        return std::nullopt;
    }
    return bytes;
}

std::string formatByteSize(uint64_t bytes)
{
    if (bytes < 1024)
        return std::to_string(bytes) + " B";
    static const char *kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = double(bytes) / 1024;
    size_t u = 0;
    while (v >= 1024 && u + 1 < std::size(kUnits)) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[u]);
    return buf;
}

uint64_t defaultCacheMaxBytes(std::string *error)
{
    const char *v = std::getenv("PROFSTUDIO_CACHE_MAX_BYTES");
    if (!v)
        return kDefaultCacheMaxBytes;
    std::string why;
    if (auto bytes = parseByteSize(v, why))
        return *bytes;
    if (error)
        *error = "PROFSTUDIO_CACHE_MAX_BYTES: " + why + "; using the default " + formatByteSize(kDefaultCacheMaxBytes);
    return kDefaultCacheMaxBytes;
}

uint64_t CachePruneResult::bytesFreed() const
{
    uint64_t n = 0;
    for (const CacheRemoval &r : removed)
        n += r.file.bytes;
    return n;
}

TraceCache::TraceCache(std::string dir, std::optional<uint64_t> maxBytes)
    : m_dir(dir.empty() ? defaultCacheDir() : std::move(dir))
{
    m_maxBytes = maxBytes ? *maxBytes : defaultCacheMaxBytes(&m_maxBytesProblem);
}

namespace {

std::string absolutePath(const std::string &p)
{
    std::error_code ec;
    fs::path a = fs::weakly_canonical(fs::absolute(p, ec), ec);
    return ec ? p : a.string();
}

// Our names: "<16 lowercase hex>.pstc" (cacheFileFor) and its temporaries
// "<16 lowercase hex>.pstc.XXXXXX" (writeFileAtomically: path + mkstemp's 6 letters or digits).
enum class NameKind { Foreign, Cache, Temp };

NameKind classifyName(std::string_view name)
{
    constexpr size_t kHex = 16;
    constexpr std::string_view kExt = ".pstc";
    if (name.size() < kHex + kExt.size() || name.substr(kHex, kExt.size()) != kExt)
        return NameKind::Foreign;
    for (char c : name.substr(0, kHex))
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return NameKind::Foreign;
    const std::string_view rest = name.substr(kHex + kExt.size());
    if (rest.empty())
        return NameKind::Cache;
    if (rest.size() != 7 || rest[0] != '.')
        return NameKind::Foreign;
    for (char c : rest.substr(1))
        if (!std::isalnum(static_cast<unsigned char>(c)))
            return NameKind::Foreign;
    return NameKind::Temp;
}

int64_t nowNs()
{
    timespec ts{};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Fills reportPath / reportExists / problem of a cache file from the key inside it. Only the
// header and key are read (the first page of a mapped file), whatever the file's size. The key's
// path must hash to the file's name, else the file is not taken for any report's cache (and so
// never for an orphan).
void readKey(CacheFile &f)
{
    Mapping map;
    std::string error;
    switch (mapFile(f.path, map, error)) {
    case MapStatus::Mapped:
        break;
    case MapStatus::CannotOpen:
        f.problem = "cannot open: " + error;
        return;
    case MapStatus::Empty:
        f.problem = "corrupt: empty cache file";
        f.unusable = true;
        return;
    case MapStatus::CannotMap:
        f.problem = "cannot map: " + error;
        return;
    }
    CacheKey key;
    std::string reason;
    if (!readCacheKey(std::span<const char>(static_cast<const char *>(map.addr), map.size), key, reason)) {
        f.problem = reason; // this build cannot use it, whatever report it is of
        f.unusable = true;
        return;
    }
    const std::string name = fs::path(f.path).filename().string();
    if (key.path.empty() ||
        std::strtoull(name.substr(0, 16).c_str(), nullptr, 16) != cacheHash(key.path.data(), key.path.size())) {
        f.problem = "the cache key names another file than this cache file's name";
        return;
    }
    const std::string &candidate = key.path;
    f.reportPath = candidate;
    struct stat rs
    {
    };
    // Only "no such file" makes an orphan; a report we may not stat (permissions, a stale
    // network mount) counts as present.
    f.reportExists = ::stat(candidate.c_str(), &rs) == 0 || (errno != ENOENT && errno != ENOTDIR);
}

// Our files in `dir`, most recently used first. `error` is set when the folder exists but
// cannot be read.
// The SQLite files that `nsys export` wrote for .nsys-rep reports (formats/nsysrepreader.cpp):
// "<dir>/nsys-export/<stem>-<16 hex>.sqlite", finished when "<that>.done" (which names the
// report) sits beside it. They count against the same cap: after the first load the report's
// cache holds everything, and the export is only read again when that cache is gone. One without
// its marker is a conversion in progress or left by a crash: a temporary.
void scanNsysExports(const std::string &dir, std::vector<CacheFile> &out)
{
    const std::string sub = dir + "/" + kNsysExportFolder;
    DIR *d = ::opendir(sub.c_str());
    if (!d)
        return;
    const int dfd = ::dirfd(d);
    while (const dirent *e = ::readdir(d)) {
        const std::string_view name = e->d_name;
        constexpr std::string_view kExt = ".sqlite";
        if (name.size() < 1 + 16 + kExt.size() || name.substr(name.size() - kExt.size()) != kExt ||
            name[name.size() - kExt.size() - 17] != '-')
            continue;
        const std::string_view hex = name.substr(name.size() - kExt.size() - 16, 16);
        if (!std::all_of(hex.begin(), hex.end(),
                         [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }))
            continue;
        struct stat st
        {
        }, done{};
        if (::fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        const std::string marker = std::string(name) + ".done";
        const bool finished = ::fstatat(dfd, marker.c_str(), &done, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(done.st_mode);
        CacheFile f;
        f.path = sub + "/" + e->d_name;
        f.bytes = uint64_t(st.st_size) + (finished ? uint64_t(done.st_size) : 0);
        f.lastUseNs = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
        f.temp = !finished;
        f.nsysExport = true;
        out.push_back(std::move(f));
    }
    ::closedir(d);
}

// An nsys export's report: the first line of its ".done" marker.
void readExportMarker(CacheFile &f)
{
    std::ifstream in(f.path + ".done");
    std::string line;
    if (!std::getline(in, line) || line.empty()) {
        f.problem = "cannot read the report path from " + f.path + ".done";
        return;
    }
    f.reportPath = line;
    struct stat rs
    {
    };
    f.reportExists = ::stat(line.c_str(), &rs) == 0 || (errno != ENOENT && errno != ENOTDIR);
}

// Unlinks one of our files; an nsys export takes its marker along.
bool unlinkCacheFile(const CacheFile &f, std::string &error)
{
    if (::unlink(f.path.c_str()) != 0 && errno != ENOENT) {
        error = f.path + ": cannot remove: " + std::strerror(errno);
        return false;
    }
    if (f.nsysExport)
        ::unlink((f.path + ".done").c_str());
    return true;
}

std::vector<CacheFile> scanDir(const std::string &dir, bool readKeys, std::string *error)
{
    std::vector<CacheFile> out;
    DIR *d = ::opendir(dir.c_str());
    if (!d) {
        if (errno != ENOENT && error)
            *error = dir + ": cannot read the cache directory: " + std::strerror(errno);
        return out;
    }
    const int dfd = ::dirfd(d);
    while (const dirent *e = ::readdir(d)) {
        const NameKind kind = classifyName(e->d_name);
        if (kind == NameKind::Foreign)
            continue;
        struct stat st
        {
        };
        if (::fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode))
            continue; // gone meanwhile, or a folder or symlink that only looks like ours
        CacheFile f;
        f.path = dir + "/" + e->d_name;
        f.lastUseNs = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
        f.temp = kind == NameKind::Temp;
        f.special = !S_ISREG(st.st_mode);
        f.bytes = f.special ? 0 : uint64_t(st.st_size);
        if (f.special) {
            f.problem = std::string("not a regular file (") + fileTypeName(st.st_mode) + ")";
            f.unusable = true;
        }
        out.push_back(std::move(f));
    }
    ::closedir(d);
    scanNsysExports(dir, out);
    if (readKeys) {
        for (CacheFile &f : out) {
            if (f.temp || f.special)
                continue;
            if (f.nsysExport)
                readExportMarker(f);
            else
                readKey(f);
        }
    }
    std::sort(out.begin(), out.end(), [](const CacheFile &a, const CacheFile &b) {
        return a.lastUseNs != b.lastUseNs ? a.lastUseNs > b.lastUseNs : a.path < b.path;
    });
    return out;
}

} // namespace

std::string TraceCache::cacheFileFor(const std::string &reportPath) const
{
    const std::string abs = absolutePath(reportPath);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(cacheHash(abs.data(), abs.size())));
    return m_dir + "/" + hex + ".pstc";
}

ReportPtr TraceCache::load(const std::string &reportPath, std::string *why) const
{
    auto miss = [&](std::string reason) -> ReportPtr {
        if (why)
            *why = std::move(reason);
        return nullptr;
    };
    struct stat src
    {
    };
    if (::stat(reportPath.c_str(), &src) != 0)
        return miss("no report");
    const std::string file = cacheFileFor(reportPath);
    auto map = std::make_shared<Mapping>();
    std::string error;
    switch (mapFile(file, *map, error)) {
    case MapStatus::Mapped:
        break;
    case MapStatus::CannotOpen:
        return miss("no cache");
    case MapStatus::Empty:
        return miss("corrupt: empty cache file");
    case MapStatus::CannotMap:
        return miss("cannot map cache");
    }
    CacheKey key{absolutePath(reportPath), uint64_t(src.st_size),
                 int64_t(src.st_mtim.tv_sec) * 1000000000 + src.st_mtim.tv_nsec};
    auto report = std::make_shared<Report>();
    std::string reason;
    const std::span<const char> bytes(static_cast<const char *>(map->addr), map->size);
    if (!decodeCache(bytes, key, map, *report, reason))
        return miss(reason);
    report->path = reportPath;
    report->fromCache = true;
    // Record the use for LRU eviction: the cache file's mtime is not part of the key (that is
    // the report's size and mtime, inside the file). A read-only cache directory just keeps the
    // old time.
    const timespec times[2] = {{0, UTIME_OMIT}, {0, UTIME_NOW}};
    ::utimensat(AT_FDCWD, file.c_str(), times, 0);
    return report;
}

std::string TraceCache::save(const Report &report) const
{
    std::error_code ec;
    fs::create_directories(m_dir, ec);
    if (ec)
        return m_dir + ": cannot create cache directory: " + ec.message();
    CacheKey key{absolutePath(report.path), report.fileSize, report.fileMtimeNs};
    const std::string file = cacheFileFor(report.path);
    return writeFileAtomically(file, encodeCache(report, key));
}

std::vector<CacheFile> TraceCache::files(bool readKeys, std::string *error) const
{
    return scanDir(m_dir, readKeys, error);
}

CachePruneResult TraceCache::prune(const CachePruneOptions &options) const
{
    CachePruneResult r;
    const auto isKept = [&](const std::string &path) {
        return std::find(options.keep.begin(), options.keep.end(), path) != options.keep.end();
    };
    std::string scanError;
    std::vector<CacheFile> all = scanDir(m_dir, options.orphans, &scanError);
    if (!scanError.empty())
        r.errors.push_back(scanError);
    std::vector<bool> gone(all.size(), false);
    // Unlinking a cache file that a loaded report (of this or another process) has memory-mapped
    // is safe on Linux: the mapping keeps the inode and its data until it is unmapped; only the
    // name goes now, and the disk space when the last mapping does.
    auto remove = [&](size_t i, const char *reason) {
        std::string err;
        if (!options.dryRun && !unlinkCacheFile(all[i], err)) {
            r.errors.push_back(err);
            return;
        }
        gone[i] = true;
        r.removed.push_back({all[i], reason});
    };
    const int64_t now = nowNs();
    for (size_t i = 0; i < all.size(); ++i) {
        const CacheFile &f = all[i];
        if (isKept(f.path))
            continue;
        if (f.special) {
            remove(i, "not a file");
        } else if (f.temp) {
            if (now - f.lastUseNs > kStaleTempAgeNs)
                remove(i, "temp");
        } else if (options.orphans && f.unusable) {
            remove(i, "unreadable");
        } else if (options.orphans && !f.reportPath.empty() && !f.reportExists) {
            remove(i, "orphan");
        }
    }
    uint64_t total = 0;
    for (size_t i = 0; i < all.size(); ++i)
        if (!gone[i])
            total += all[i].bytes;
    // Least recently used first: `all` is most recent first. Temporaries still being written are
    // counted but never evicted.
    for (size_t i = all.size(); i-- > 0 && total > m_maxBytes;) {
        if (gone[i] || all[i].temp || isKept(all[i].path))
            continue;
        remove(i, "lru");
        if (gone[i])
            total -= all[i].bytes;
    }
    for (size_t i = 0; i < all.size(); ++i)
        if (!gone[i]) {
            ++r.filesLeft;
            r.bytesLeft += all[i].bytes;
        }
    return r;
}

CachePruneResult TraceCache::clear(bool dryRun) const
{
    CachePruneResult r;
    std::string scanError;
    for (CacheFile &f : scanDir(m_dir, false, &scanError)) {
        std::string err;
        if (!dryRun && !unlinkCacheFile(f, err)) {
            r.errors.push_back(err);
            ++r.filesLeft;
            r.bytesLeft += f.bytes;
            continue;
        }
        r.removed.push_back({std::move(f), "clear"});
    }
    if (!scanError.empty())
        r.errors.insert(r.errors.begin(), scanError);
    return r;
}

} // namespace ps::core::trace
