#include "core/trace/read/traceloader.h"
#include "core/common/threads.h"

#include "core/common/naturalorder.h"
#include "core/common/parallelfor.h"

#include "core/trace/formats/rlinftracereader.h"
#include "core/trace/persist/digest.h"
#include "core/trace/persist/mappedfile.h"
#include "core/trace/persist/tracecache.h"
#include "core/trace/read/duplicatereports.h"
#include "core/trace/read/identity.h"
#include "core/trace/store/eventtimes.h"

#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>

namespace ps::core::trace {

namespace fs = std::filesystem;

namespace {

// A raw report whose `nsys export` already sits beside it (X.nsys-rep + X.sqlite) is the same
// capture: a folder yields the export only, so it is neither loaded twice nor converted again.
bool hasSqliteExportBeside(const fs::path &p)
{
    const std::string ext = p.extension().string();
    if (ext != ".nsys-rep" && ext != ".qdrep" && ext != ".qdstrm")
        return false;
    std::error_code ec;
    // A stream nsys left and imported later (by hand) is its .nsys-rep.
    if (ext == ".qdstrm" && fs::is_regular_file(fs::path(p).replace_extension(".nsys-rep"), ec))
        return true;
    return fs::is_regular_file(fs::path(p).replace_extension(".sqlite"), ec);
}

// A digest whose report sits beside it (X + X.psdigest, digested in place) is that report: the
// folder yields the report only.
bool hasSourceBeside(const fs::path &p)
{
    if (!isDigestPath(p.string()))
        return false;
    std::error_code ec;
    const fs::path source = digestSourcePath(p.string());
    return fs::is_regular_file(source, ec) || hasSqliteExportBeside(source);
}

} // namespace

std::vector<std::string> filesUnder(const std::string &dir, const std::function<bool(const std::string &)> &keep)
{
    std::vector<std::string> found;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec) && keep(it->path().string()))
            found.push_back(it->path().string());
    std::sort(found.begin(), found.end(), [](const std::string &a, const std::string &b) { return naturalLess(a, b); });
    return found;
}

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
        const std::vector<std::string> found = filesUnder(p, [](const std::string &f) {
            return ReaderRegistry::instance().isReportName(f, NameScope::InFolder) && !hasSqliteExportBeside(f) &&
                   !hasSourceBeside(f);
        });
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

ReportPtr loadReport(const std::string &path, const ReadContext &ctx, std::string &error)
{
    if (isDigestPath(path))
        return readDigest(path, error);
    auto reader = ReaderRegistry::instance().readerFor(path, &error);
    if (!reader)
        return nullptr;
    auto report = std::make_shared<Report>();
    report->path = path;
    const FileStamp stamp = fileStamp(path);
    StoreBuilder builder;
    error = reader->read(path, builder, report->meta, ctx);
    if (!error.empty())
        return nullptr;
    if (const size_t n = builder.impossibleMessageSizes())
        report->meta.warnings.push_back(std::string(kInvalidDataWarning) + "collectives: " + std::to_string(n) +
                                        " record(s) give a message of more than 2^50 elements, beyond any device: "
                                        "their size and bandwidth are left unknown");
    if (const size_t n = builder.impossibleTransferBytes())
        report->meta.warnings.push_back(std::string(kInvalidDataWarning) +
                                        "memory copies and sets: " + std::to_string(n) +
                                        " of more than 1 PiB, beyond any device: counted as 0 bytes");
    auto store = std::make_shared<EventStore>(std::move(builder).build());
    for (int k = 0; k < kTrackKindCount; ++k)
        if (report->meta.fileCounts[size_t(k)] == 0)
            report->meta.fileCounts[size_t(k)] = store->count(TrackKind(k));
    reader->finish(report->meta, *store);
    report->store = std::move(store);
    report->identity = identityOfFile(path);
    finishReport(*report, stamp);
    return report;
}

namespace {

// Overall progress of a load: the mean of the files' fractions, never going back.
class FileProgress
{
public:
    FileProgress(const ProgressCallback &progress, const std::vector<std::string> &files)
        : m_progress(progress), m_files(files), m_fractions(files.size(), 0.0)
    {
    }
    void update(size_t i, double f, bool finished)
    {
        if (!m_progress)
            return;
        std::lock_guard lock(m_mutex);
        m_fractions[i] = f;
        if (finished)
            ++m_done;
        double sum = 0;
        for (double x : m_fractions)
            sum += x;
        const size_t n = m_files.size();
        m_last = std::max(m_last, sum / double(n));
        m_progress({m_done, n, m_last, m_files[i]});
    }

private:
    const ProgressCallback &m_progress;
    const std::vector<std::string> &m_files;
    std::vector<double> m_fractions;
    std::mutex m_mutex;
    size_t m_done = 0;
    double m_last = 0;
};

// One loadReports() call: workers take the next file, from the cache or read and cached.
class LoadRun
{
public:
    LoadRun(const std::vector<std::string> &files, const LoadOptions &options, const ProgressCallback &progress,
            const CancelToken *cancel, int perReport)
        : m_files(files), m_options(options), m_cancel(cancel), m_perReport(perReport),
          m_cache(options.cacheDir, options.cacheMaxBytes), m_progress(progress, files), m_reports(files.size()),
          m_perWorker(files.size()), m_errors(files.size())
    {
    }

    // Loads file i, from the cache or read and cached.
    void work(size_t i)
    {
        // Memory a hostile file makes a reader ask for (or any other exception) fails that
        // report alone; the others load.
        try {
            workOn(i);
        } catch (const std::bad_alloc &) {
            fail(i, m_files[i] + ": out of memory while reading it (the file may be corrupt)");
        } catch (const std::exception &e) {
            fail(i, m_files[i] + ": " + e.what());
        }
    }

    // Evict down to the cap once for the whole load (one directory scan instead of one per
    // report, and no two threads evicting each other's fresh files). Least recently used go
    // first, so this load's caches go last; the newest is kept even when it alone is over the
    // cap, as a load of one report always keeps its cache.
    void evict()
    {
        if (m_written.empty())
            return;
        CachePruneOptions options;
        options.keep = {m_written.back()};
        m_cache.prune(options); // what cannot be removed now is retried after the next load
    }

    void collect(LoadResult &result) const
    {
        if (m_unsaved > 0)
            result.warnings.push_back(
                "the report cache could not be written for " + std::to_string(m_unsaved) +
                " report(s), which will be read from their files again next time: " + m_firstSaveError);
        for (size_t i = 0; i < m_files.size(); ++i) {
            if (m_reports[i])
                result.reports.push_back(m_reports[i]);
            else if (!m_perWorker[i].empty())
                result.reports.insert(result.reports.end(), m_perWorker[i].begin(), m_perWorker[i].end());
            else
                result.failures.push_back({m_files[i], m_errors[i].empty() ? m_files[i] + ": failed" : m_errors[i]});
        }
    }

private:
    void workOn(size_t i)
    {
        if (m_cancel && m_cancel->cancelled())
            m_errors[i] = m_files[i] + ": cancelled";
        else if (ReaderRegistry::instance().holdsManyReports(m_files[i]))
            readPerWorker(i);
        else if (m_options.digestOutlines && isDigestPath(m_files[i]) && readOutline(i))
            return;
        else if (!(m_options.useCache && fromCache(i)))
            read(i);
    }
    void fail(size_t i, std::string reason)
    {
        m_reports[i] = nullptr;
        m_perWorker[i].clear();
        m_errors[i] = std::move(reason);
        m_progress.update(i, 1.0, true);
    }
    bool fromCache(size_t i)
    {
        ReportPtr cached = m_cache.load(m_files[i]);
        if (!cached)
            return false;
        finish(i, cached);
        return true;
    }
    ReadContext readContext(size_t i)
    {
        ReadContext ctx;
        ctx.cancel = m_cancel;
        ctx.threads = m_perReport;
        ctx.splitRows = m_options.splitRows;
        ctx.progress = [this, i](double f) { m_progress.update(i, f, false); };
        return ctx;
    }
    // A digest's outline (not cached: it is a few KB to MB, read straight from the digest). False
    // when the digest has none (made before outlines): it is then loaded whole.
    bool readOutline(size_t i)
    {
        ReportPtr r = readDigestOutline(m_files[i], m_errors[i]);
        if (!r && m_errors[i].empty())
            return false;
        finish(i, r);
        return true;
    }
    // RLinf's tracer file holds every worker: one report each, not cached (a text read).
    void readPerWorker(size_t i)
    {
        m_perWorker[i] = loadRlinfTraceReports(m_files[i], readContext(i), m_errors[i]);
        if (m_options.onReport)
            for (const ReportPtr &r : m_perWorker[i])
                m_options.onReport(i, r);
        m_progress.update(i, 1.0, true);
    }
    void read(size_t i)
    {
        ReportPtr r = loadReport(m_files[i], readContext(i), m_errors[i]);
        // A cache that cannot be written only costs the next open: a warning, not a failure.
        if (r && m_options.useCache) {
            const std::string saveError = m_cache.save(*r);
            std::lock_guard lock(m_writtenMutex);
            if (saveError.empty())
                m_written.push_back(m_cache.cacheFileFor(m_files[i]));
            else if (m_unsaved++ == 0)
                m_firstSaveError = saveError;
        }
        finish(i, r);
    }
    void finish(size_t i, const ReportPtr &r)
    {
        m_reports[i] = r;
        if (r && m_options.onReport)
            m_options.onReport(i, r);
        m_progress.update(i, 1.0, true);
    }

    const std::vector<std::string> &m_files;
    const LoadOptions &m_options;
    const CancelToken *m_cancel;
    const int m_perReport;
    TraceCache m_cache;
    FileProgress m_progress;
    std::vector<ReportPtr> m_reports;
    std::vector<std::vector<ReportPtr>> m_perWorker; // files split into one report per worker
    std::vector<std::string> m_errors;
    std::mutex m_writtenMutex;
    std::vector<std::string> m_written; // cache files this load wrote, in the order written
    size_t m_unsaved = 0;               // reports whose cache could not be written
    std::string m_firstSaveError;
};

} // namespace

namespace {

// Which capture a report file is, as far as a copy keeps it: its name, size and mtime (rsync -a
// and cp -p keep them), the same for a report and for what its digest recorded of it.
struct SourceKey
{
    std::string name;
    uint64_t size = 0;
    int64_t mtimeNs = 0;
    auto operator<=>(const SourceKey &) const = default;
};

// The report a digest was made from, from its META section.
std::optional<SourceKey> digestSourceKey(const std::string &digestPath)
{
    const std::optional<DigestSource> source = recordedDigestSource(digestPath);
    if (!source)
        return std::nullopt;
    return SourceKey{fs::path(source->path).filename().string(), source->size, source->mtimeNs};
}

// A digest whose report is loaded too, from another folder (a run's raw reports opened with the
// digests collected from it), is that report: it counts once, as the report (which has events).
void countCapturesOnce(LoadResult &result)
{
    std::set<SourceKey> raw;
    for (const ReportPtr &r : result.reports)
        if (!isDigestPath(r->path))
            raw.insert({fs::path(r->path).filename().string(), r->fileSize, r->fileMtimeNs});
    if (raw.empty())
        return;
    std::erase_if(result.reports, [&](const ReportPtr &r) {
        if (!isDigestPath(r->path))
            return false;
        const std::optional<SourceKey> source = digestSourceKey(r->path);
        if (!source || !raw.count(*source))
            return false;
        result.warnings.push_back(r->path + " is the digest of " + source->name +
                                  ", which is loaded as well: counted once, as the report");
        return true;
    });
}

// One rank, one report (duplicatereports.h): the others are named and left out of every answer.
void leaveOutDuplicates(LoadResult &result)
{
    std::vector<std::string> reasons;
    std::vector<ReportPtr> kept = withoutDuplicates(result.reports, reasons, &result.leftOut);
    result.warnings.insert(result.warnings.end(), reasons.begin(), reasons.end());
    result.reports = std::move(kept);
}

} // namespace

std::optional<DigestSource> recordedDigestSource(const std::string &digestPath)
{
    std::string error;
    const std::optional<std::string> meta = readDigestSection(digestPath, "META", error);
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    std::string_view path;
    DigestSource source;
    if (!meta || parser.parse(*meta).get(doc) != simdjson::SUCCESS ||
        doc.at_pointer("/source/path").get(path) != simdjson::SUCCESS ||
        doc.at_pointer("/source/size").get(source.size) != simdjson::SUCCESS ||
        doc.at_pointer("/source/mtime_ns").get(source.mtimeNs) != simdjson::SUCCESS)
        return std::nullopt;
    source.path = std::string(path);
    return source;
}

LoadResult loadReports(const std::vector<std::string> &paths, const LoadOptions &options,
                       const ProgressCallback &progress, const CancelToken *cancel)
{
    LoadResult result;
    const std::vector<std::string> files = findReports(paths, &result.failures);
    const size_t n = files.size();
    const int threads = core::threadsOr(options.threads);
    // Few big reports: give each several connections; many reports: one each.
    const int perReport = std::max(1, threads / int(std::max<size_t>(1, std::min<size_t>(n, size_t(threads)))));

    LoadRun run(files, options, progress, cancel, perReport);
    core::parallelFor(n, threads, [&run](size_t i) { run.work(i); });
    run.evict();
    run.collect(result);
    countCapturesOnce(result);
    leaveOutDuplicates(result);
    result.cancelled = cancel && cancel->cancelled();
    return result;
}

} // namespace ps::core::trace
