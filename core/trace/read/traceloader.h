#pragma once
// Loading many reports together: folders are searched recursively, reports are read in
// parallel (across files, and within a large file on separate read-only connections), cached
// per report (tracecache.h), and a report that fails says why while the others load.
//
//   LoadOptions opt;                 // defaults: all cores, cache in defaultCacheDir()
//   CancelToken cancel;              // cancel.cancel() from any thread stops soon after
//   LoadResult r = loadReports({"runs/exp1"}, opt, [](const LoadProgress &p) {...}, &cancel);

#include "core/trace/read/tracereader.h"
#include "core/trace/store/report.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ps::core::trace {

struct LoadOptions
{
    int threads = 0; // 0: core::defaultThreads()
    bool useCache = true;
    std::string cacheDir; // "" = defaultCacheDir() (tracecache.h)
    // Size cap of the cache directory, least recently used caches evicted after each save;
    // nullopt = defaultCacheMaxBytes() ($PROFSTUDIO_CACHE_MAX_BYTES, else 10 GiB).
    std::optional<uint64_t> cacheMaxBytes;
    size_t splitRows = 500000; // see ReadContext::splitRows
    // Open digests as outlines (readDigestOutline: no events, summaries and pyramids instead), as
    // the desktop does to show a large run at once; digests made before outlines load whole.
    bool digestOutlines = false;
    // Called on a worker thread as soon as one report has loaded (from the cache or the file),
    // possibly from several workers at once; `index` is its position in findReports() order.
    // Lets a view show reports as they finish; the LoadResult still holds them all.
    std::function<void(size_t index, const ReportPtr &report)> onReport;
};

struct LoadProgress
{
    size_t reportsDone = 0; // finished (loaded or failed)
    size_t reportsTotal = 0;
    double fraction = 0; // overall, 0..1, non-decreasing
    std::string path;    // the report this update is about
};
// Called from worker threads, never concurrently with itself.
using ProgressCallback = std::function<void(const LoadProgress &)>;

struct LoadFailure
{
    std::string path;
    std::string reason; // names the file and what was expected
};

struct LoadResult
{
    std::vector<ReportPtr> reports;    // in the order of findReports()
    std::vector<LoadFailure> failures; // in the same order
    // About the load, not one report: e.g. a cache that could not be written (it costs the next
    // open a full read, so it is said rather than ignored).
    std::vector<std::string> warnings;
    // Reports that claim a rank another report holds, left out of `reports` (duplicatereports.h);
    // their reasons are among the warnings too.
    std::vector<LoadFailure> leftOut;
    bool cancelled = false;
};

// The regular files under `dir` (recursively, unreadable folders skipped) that `keep` accepts, in
// natural order.
std::vector<std::string> filesUnder(const std::string &dir, const std::function<bool(const std::string &)> &keep);

// Expands files and folders into report files (recursively, sorted; files given explicitly are
// kept even with an unknown extension, so that they fail with a reason). Paths that do not
// exist go to `missing`.
std::vector<std::string> findReports(const std::vector<std::string> &paths, std::vector<LoadFailure> *missing);

// Loads one report (no cache, no threads besides ctx.threads). Returns nullptr and sets `error`
// on failure.
ReportPtr loadReport(const std::string &path, const ReadContext &ctx, std::string &error);

// The report a digest says it was made from (its META section): nullopt when the file is not a
// readable digest.
struct DigestSource
{
    std::string path; // as the digest's maker was given it
    uint64_t size = 0;
    int64_t mtimeNs = 0;
};
std::optional<DigestSource> recordedDigestSource(const std::string &digestPath);

LoadResult loadReports(const std::vector<std::string> &paths, const LoadOptions &options = {},
                       const ProgressCallback &progress = {}, const CancelToken *cancel = nullptr);

} // namespace ps::core::trace
