#pragma once
// A compact binary cache of one loaded report, keyed by the report's absolute path, size and
// mtime, memory-mapped on reopen so that the EventStore's columns point straight into the file.
// Stale caches (key mismatch) and corrupt ones (bad magic/version/sizes/checksum) are detected
// and reported as misses; the loader then rebuilds them. Writes are atomic (temp + rename).

#include "core/trace/report.h"

#include <string>

namespace ps::core::trace {

// $PROFSTUDIO_CACHE_DIR, else $XDG_CACHE_HOME/profstudio, else ~/.cache/profstudio.
std::string defaultCacheDir();

class TraceCache
{
public:
    explicit TraceCache(std::string dir = {}); // "" = defaultCacheDir()

    const std::string &dir() const { return m_dir; }
    // The cache file for a report path (absolute path hashed into the name).
    std::string cacheFileFor(const std::string &reportPath) const;

    // The cached report if the cache is present, fresh and intact; else nullptr and `why`
    // says which ("no cache", "stale: size changed", "corrupt: checksum mismatch", ...).
    ReportPtr load(const std::string &reportPath, std::string *why = nullptr) const;
    // Writes the cache for a loaded report. Returns "" or the reason it could not.
    std::string save(const Report &report) const;

private:
    std::string m_dir;
};

} // namespace ps::core::trace
