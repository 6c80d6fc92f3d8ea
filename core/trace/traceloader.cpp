#include "core/trace/traceloader.h"

#include "core/trace/formats/formatutil.h"
#include "core/trace/formats/rlinftracereader.h"
#include "core/trace/identity.h"
#include "core/trace/tracecache.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <thread>

namespace ps::core::trace {

namespace fs = std::filesystem;

namespace {

bool looksLikeReport(const fs::path &p)
{
    const std::string name = p.filename().string();
    auto endsWith = [&](std::string_view s) {
        return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
    };
    return endsWith(".sqlite") || endsWith(".db") || endsWith(".pt.trace.json") || endsWith(".pt.trace.json.gz") ||
           endsWith(".json.gz") || endsWith(".json") || endsWith(".nsys-rep") || endsWith(".qdrep") ||
           endsWith("trace_events.jsonl"); // RLinf tracer; other .jsonl in a run folder are logs
}

bool isRegisteredFormat(const fs::path &p)
{
    // Only nsys is built in; .db / .json files under a folder are taken when a reader for them
    // is registered, so that a folder of nsys reports does not fail on unrelated files.
    const std::string ext = p.extension().string();
    if (ext == ".sqlite")
        return true;
    for (const auto &r : ReaderRegistry::instance().readers())
        if (r->format() != TraceFormat::NsysSqlite && looksLikeReport(p))
            return true;
    return false;
}

// A raw report whose `nsys export` already sits beside it (X.nsys-rep + X.sqlite) is the same
// capture: a folder yields the export only, so it is neither loaded twice nor converted again.
bool hasSqliteExportBeside(const fs::path &p)
{
    const std::string ext = p.extension().string();
    if (ext != ".nsys-rep" && ext != ".qdrep")
        return false;
    std::error_code ec;
    return fs::is_regular_file(fs::path(p).replace_extension(".sqlite"), ec);
}

} // namespace

std::vector<std::string> findReports(const std::vector<std::string> &paths, std::vector<LoadFailure> *missing)
{
    std::vector<std::string> out;
    for (const std::string &p : paths) {
        std::error_code ec;
        const fs::file_status st = fs::status(p, ec);
        if (ec || !fs::exists(st)) {
            if (missing)
                missing->push_back({p, p + ": no such file or directory"});
            continue;
        }
        if (!fs::is_directory(st)) {
            out.push_back(p);
            continue;
        }
        std::vector<std::string> found;
        for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (it->is_regular_file(ec) && isRegisteredFormat(it->path()) && !hasSqliteExportBeside(it->path()))
                found.push_back(it->path().string());
        }
        std::sort(found.begin(), found.end());
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

ReportPtr loadReport(const std::string &path, const ReadContext &ctx, std::string &error)
{
    auto reader = ReaderRegistry::instance().readerFor(path, &error);
    if (!reader)
        return nullptr;
    auto report = std::make_shared<Report>();
    report->path = path;
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) == 0) {
        report->fileSize = uint64_t(st.st_size);
        report->fileMtimeNs = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    }
    StoreBuilder builder;
    error = reader->read(path, builder, report->meta, ctx);
    if (!error.empty())
        return nullptr;
    auto store = std::make_shared<EventStore>(std::move(builder).build());
    for (int k = 0; k < kTrackKindCount; ++k)
        if (report->meta.fileCounts[size_t(k)] == 0)
            report->meta.fileCounts[size_t(k)] = store->count(TrackKind(k));
    // Exports made with --ts-normalize carry absolute times (spec 1.6).
    if (report->meta.utcStartNs && *report->meta.utcStartNs != 0 && store->firstStart() > int64_t(1e17))
        report->meta.utcStartNs = 0;
    report->store = std::move(store);
    std::error_code ec;
    report->identity = identityFromPath(fs::absolute(path, ec).lexically_normal().string());
    completeIdentity(report->identity, report->meta);
    return report;
}

LoadResult loadReports(const std::vector<std::string> &paths, const LoadOptions &options,
                       const ProgressCallback &progress, const CancelToken *cancel)
{
    LoadResult result;
    std::vector<LoadFailure> missing;
    const std::vector<std::string> files = findReports(paths, &missing);
    result.failures = missing;
    const size_t n = files.size();
    const int hw = int(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = options.threads > 0 ? options.threads : hw;
    const size_t workers = std::max<size_t>(1, std::min<size_t>(size_t(threads), n));
    // Few big reports: give each several connections; many reports: one each.
    const int perReport = std::max(1, threads / int(std::max<size_t>(1, std::min<size_t>(n, size_t(threads)))));
    TraceCache cache(options.cacheDir, options.cacheMaxBytes);

    std::vector<ReportPtr> reports(n);
    std::vector<std::vector<ReportPtr>> perWorker(n); // files split into one report per worker
    std::vector<std::string> errors(n);
    std::vector<double> fractions(n, 0.0);
    std::mutex progressMutex;
    size_t done = 0;
    double lastFraction = 0;
    auto report = [&](size_t i, double f, bool finished) {
        if (!progress)
            return;
        std::lock_guard lock(progressMutex);
        fractions[i] = f;
        if (finished)
            ++done;
        double sum = 0;
        for (double x : fractions)
            sum += x;
        lastFraction = std::max(lastFraction, sum / double(n));
        progress({done, n, lastFraction, files[i]});
    };

    std::atomic<size_t> next{0};
    std::mutex writtenMutex;
    std::vector<std::string> written; // cache files this load wrote, in the order written
    auto work = [&] {
        for (size_t i; (i = next.fetch_add(1)) < n;) {
            if (cancel && cancel->cancelled()) {
                errors[i] = files[i] + ": cancelled";
                continue;
            }
            if (options.useCache) {
                if (ReportPtr cached = cache.load(files[i])) {
                    reports[i] = cached;
                    if (options.onReport)
                        options.onReport(i, cached);
                    report(i, 1.0, true);
                    continue;
                }
            }
            ReadContext ctx;
            ctx.cancel = cancel;
            ctx.threads = perReport;
            ctx.splitRows = options.splitRows;
            ctx.progress = [&, i](double f) { report(i, f, false); };
            // RLinf's tracer file holds every worker: one report each, not cached (a text read).
            if (formats::endsWith(files[i], ".jsonl")) {
                perWorker[i] = loadRlinfTraceReports(files[i], ctx, errors[i]);
                for (const ReportPtr &r : perWorker[i])
                    if (options.onReport)
                        options.onReport(i, r);
                report(i, 1.0, true);
                continue;
            }
            std::string error;
            ReportPtr r = loadReport(files[i], ctx, error);
            // A cache that cannot be written only costs the next open.
            if (r && options.useCache && cache.save(*r).empty()) {
                std::lock_guard lock(writtenMutex);
                written.push_back(cache.cacheFileFor(files[i]));
            }
            reports[i] = r;
            errors[i] = error;
            if (r && options.onReport)
                options.onReport(i, r);
            report(i, 1.0, true);
        }
    };
    std::vector<std::thread> pool;
    for (size_t w = 1; w < workers; ++w)
        pool.emplace_back(work);
    work();
    for (auto &t : pool)
        t.join();
    // Evict down to the cap once for the whole load (one directory scan instead of one per
    // report, and no two threads evicting each other's fresh files). Least recently used go
    // first, so this load's caches go last; the newest is kept even when it alone is over the
    // cap, as a load of one report always keeps its cache.
    if (!written.empty()) {
        CachePruneOptions evict;
        evict.keep = {written.back()};
        cache.prune(evict); // what cannot be removed now is retried after the next load
    }

    for (size_t i = 0; i < n; ++i) {
        if (reports[i])
            result.reports.push_back(reports[i]);
        else if (!perWorker[i].empty())
            result.reports.insert(result.reports.end(), perWorker[i].begin(), perWorker[i].end());
        else
            result.failures.push_back({files[i], errors[i].empty() ? files[i] + ": failed" : errors[i]});
    }
    result.cancelled = cancel && cancel->cancelled();
    return result;
}

} // namespace ps::core::trace
