#pragma once
// A compact binary cache of one loaded report, keyed by the report's absolute path, size and
// mtime, memory-mapped on reopen so that the EventStore's columns point straight into the file.
// Stale caches (key mismatch) and corrupt ones (bad magic/version/sizes/checksum) are detected
// and reported as misses; the loader then rebuilds them. Writes are atomic (temp + rename).
//
// The directory is bounded: every hit records its use (the cache file's mtime is set to now;
// the key lives inside the file, so the mtime is free for this), and after a batch of saves (the
// loader prunes once per load) prune() evicts the least recently used cache files until the
// directory holds at most maxBytes() — never the files it is told to keep (the loader: the
// newest cache it wrote), which stay even when they alone are over the cap. Temporaries of crashed writes older
// than kStaleTempAgeNs go at the same time. prune() also removes caches whose report is gone and
// caches this build cannot read (older cache format, corrupt); clear() removes every cache file.
// Only files named like ours are ever touched: <16 hex digits>.pstc and their temporaries
// <16 hex digits>.pstc.XXXXXX; anything else in the directory, and every subfolder, is left alone.

#include "core/trace/store/report.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::trace {

// $PROFSTUDIO_CACHE_DIR, else $XDG_CACHE_HOME/profstudio, else ~/.cache/profstudio.
std::string defaultCacheDir();

// Where .nsys-rep reports are converted to SQLite by `nsys export`, under the cache directory;
// those files count against the same cap and are pruned with the caches.
inline constexpr const char *kNsysExportFolder = "nsys-export";

constexpr uint64_t kDefaultCacheMaxBytes = uint64_t(10) << 30; // 10 GiB
// A temporary older than this is left over from a crashed write (a live write keeps its file's
// mtime current: every write() updates it).
constexpr int64_t kStaleTempAgeNs = int64_t(10) * 60 * 1000000000;

// A size as users write it: plain bytes ("1073741824") or a number with a binary suffix K, M, G
// or T ("512K", "1.5G" = 1.5 * 2^30), optionally followed by "B" or "iB" ("10GiB", "10GB"),
// case-insensitive. Returns nullopt and sets `error` (quoting `text`) when it is not one.
std::optional<uint64_t> parseByteSize(std::string_view text, std::string &error);
// "0 B", "1023 B", "1.5 KiB", "10.0 GiB": for people, not for parsing back.
std::string formatByteSize(uint64_t bytes);
// $PROFSTUDIO_CACHE_MAX_BYTES when set and valid, else kDefaultCacheMaxBytes; when the variable is
// set but invalid, `error` says so (the default is used then).
uint64_t defaultCacheMaxBytes(std::string *error = nullptr);

// One of our files in the cache directory.
struct CacheFile
{
    std::string path; // dir + "/" + name
    uint64_t bytes = 0;
    int64_t lastUseNs = 0;   // mtime (ns since the epoch): when it was written or last hit
    bool temp = false;       // a temporary of an atomic write (in progress, or left by a crash)
    bool nsysExport = false; // an `nsys export` SQLite of a .nsys-rep (in kNsysExportFolder)
    // With files(true), for cache files (not temporaries):
    std::string reportPath; // the report the cache is of (the key inside the file); "" if unknown
    bool reportExists = false;
    std::string problem;   // why this build cannot use the file ("stale: cache format 3",
                           // "corrupt: ..."), or why the key could not be read; "" when fine
    bool unusable = false; // old cache format or corrupt: no load can hit it, prune removes it
    // Named like ours but not a regular file (a FIFO, socket or device node left there): listed,
    // never opened (a FIFO would block), removed by every prune and by clear. Symlinks and
    // folders are not ours and are left alone.
    bool special = false;
};

struct CacheRemoval
{
    CacheFile file;
    // "lru" (evicted to the cap), "orphan" (report gone), "unreadable" (see CacheFile::problem),
    // "temp" (left by a crashed write), "not a file" (CacheFile::special), "clear".
    std::string reason;
};

struct CachePruneResult
{
    std::vector<CacheRemoval> removed; // in the order removed
    std::vector<std::string> errors;   // files that could not be removed or read, with the reason
    size_t filesLeft = 0;              // our files (cache files and temporaries) still there
    uint64_t bytesLeft = 0;
    uint64_t bytesFreed() const;
};

struct CachePruneOptions
{
    bool orphans = false;          // also remove caches whose report is gone or that cannot be read
    bool dryRun = false;           // say what would go; remove nothing
    std::vector<std::string> keep; // files never removed (e.g. the one just written)
};

class TraceCache
{
public:
    // dir "" = defaultCacheDir(); maxBytes nullopt = defaultCacheMaxBytes().
    explicit TraceCache(std::string dir = {}, std::optional<uint64_t> maxBytes = {});

    const std::string &dir() const { return m_dir; }
    uint64_t maxBytes() const { return m_maxBytes; }
    // Why $PROFSTUDIO_CACHE_MAX_BYTES was ignored, when the cap came from it and it was invalid.
    const std::string &maxBytesProblem() const { return m_maxBytesProblem; }
    // The cache file for a report path (absolute path hashed into the name).
    std::string cacheFileFor(const std::string &reportPath) const;

    // The cached report if the cache is present, fresh and intact; else nullptr and `why`
    // says which ("no cache", "stale: size changed", "corrupt: checksum mismatch", ...).
    // A hit records the use (see above).
    ReportPtr load(const std::string &reportPath, std::string *why = nullptr) const;
    // Writes the cache for a loaded report (atomically; no eviction: prune() after the batch,
    // keeping the files written). Returns "" or the reason it could not write.
    std::string save(const Report &report) const;

    // Our files in the directory (none when it does not exist), most recently used first;
    // readKeys also reads each cache file's key (see CacheFile).
    // `error` is set when the directory exists but cannot be read.
    std::vector<CacheFile> files(bool readKeys = false, std::string *error = nullptr) const;
    // Removes temporaries older than kStaleTempAgeNs, with `orphans` the caches whose report is
    // gone or that this build cannot read, then the least recently used caches until the
    // directory holds at most maxBytes().
    CachePruneResult prune(const CachePruneOptions &options = {}) const;
    // Removes every cache file and temporary of ours.
    CachePruneResult clear(bool dryRun = false) const;

private:
    std::string m_dir;
    uint64_t m_maxBytes = kDefaultCacheMaxBytes;
    std::string m_maxBytesProblem;
};

} // namespace ps::core::trace
