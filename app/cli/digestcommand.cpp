// profstudio-cli trace digest: one compact digest per report (core/trace/persist/digest.h), written
// beside the report or into --out, reports digested in parallel.

#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/traceload.h"
#include "core/analysis/digestsummary.h"
#include "core/common/jsonwriter.h"
#include "core/common/parallelfor.h"
#include "core/common/threads.h"
#include "core/profiling/digesthook.h"
#include "core/trace/analysisguard.h"
#include "core/trace/formats/formatutil.h"
#include "core/trace/persist/digest.h"
#include "core/trace/read/identity.h"
#include "core/trace/read/traceloader.h"
#include "core/version.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <thread>

namespace ps::cli {

namespace {

namespace tr = ps::core::trace;
namespace an = ps::core::analysis;
namespace fs = std::filesystem;

CommandSpec digestSpec()
{
    return {"profstudio-cli trace digest [options] REPORT|FOLDER...",
            "Write one digest per report: its events, metadata and identity in one zstd-compressed file "
            "(docs/digest-format.md) that opens like the report itself, without it, and is a fraction of its "
            "size. A digest also carries what needs all events: the nvtx_sum and kernel_sum totals, every range's "
            "occurrences, the GPU breakdown, the RL phase cells, and a level-of-detail pyramid of every track and "
            "device, so that the desktop shows a run of digests, and trace phases and trace compare answer, "
            "without decompressing any event; --summary-only leaves the events out. Digests are written beside their "
            "reports as REPORT.psdigest, or with --out into DIR, "
            "keeping each report's path below the FOLDER it was found in. A folder holding a report and its "
            "digest opens the report once. Reports are digested in parallel; a report that fails is named with "
            "the reason while the others go on.",
            {
                {"out", "DIR", "write the digests under DIR instead of beside the reports"},
                {"force", "", "replace a digest that was written for another report (its recorded source differs)"},
                {"verl-hook", "",
                 "digest the reports of the verl worker that runs this command as its finish_hook_cmd (verl "
                 "main): the reports of process $VERL_PROFILE_PID (else rank $VERL_PROFILE_RANK) under "
                 "$VERL_PROFILE_RAY_NSIGHT_DIR and $VERL_PROFILE_SAVE_PATH, each digested beside itself"},
                {"summary-only", "",
                 "leave the events out: KB per report; the desktop draws it from its pyramids and the phase table, "
                 "straggler chart and compare work, but no command can read its events"},
                {"level", "N", "zstd level, 1 (fastest) to 19 (smallest); default 3"},
                {"threads", "N", "reports digested at once (default: every core)"},
                {"format", "text|json", "output format (default text)"},
            },
            "REPORT  a report (.sqlite, .nsys-rep, rocpd or Ascend .db, Kineto .json[.gz]) or a folder of them",
            "Exit status: 0 every report digested, 1 some failed or none was found, 2 bad usage.\n"
            "As verl's finish hook (global_profiler.finish_hook_cmd), verl runs it through /bin/sh -c once "
            "per profiled rank after the last profiled step:\n"
            "  global_profiler.finish_hook_cmd='profstudio-cli trace digest --verl-hook'\n"
            "Examples:\n  profstudio-cli trace digest /tmp/ray/session_latest/logs/nsight/\n"
            "  profstudio-cli trace digest --out /shared/run42/node3 runs/run42/"};
}

struct Job
{
    std::string report;
    std::string digest;
    std::string error;
    uint64_t events = 0;
    uint64_t sourceBytes = 0;
    uint64_t digestBytes = 0;
};

// Where the digest of `file`, found under the positional `root`, goes.
std::string digestPathFor(const std::string &file, const std::string &root, const std::string &outDir)
{
    if (outDir.empty())
        return file + std::string(tr::kDigestSuffix);
    std::error_code ec;
    fs::path rel = fs::is_directory(root, ec) ? fs::path(file).lexically_relative(root) : fs::path(file).filename();
    if (rel.empty() || rel.string().rfind("..", 0) == 0)
        rel = fs::path(file).filename();
    return (fs::path(outDir) / rel).string() + std::string(tr::kDigestSuffix);
}

// A path for comparing: absolute and normal, through the links that exist.
std::string comparable(const std::string &path)
{
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(fs::absolute(path), ec);
    return ec ? fs::absolute(path).lexically_normal().string() : p.string();
}

// Drops a report named twice (a folder and a file in it); two reports whose digests would be one
// file (the same name below two folders, into one --out) are an error before anything is
// written: "" or what collides.
std::string distinctDigests(std::vector<Job> &jobs)
{
    std::map<std::string, std::string> reportOf; // digest -> the report it is for
    std::set<std::string> reports;
    std::vector<Job> kept;
    std::string error;
    for (Job &j : jobs) {
        if (!reports.insert(comparable(j.report)).second)
            continue;
        const auto [it, fresh] = reportOf.emplace(comparable(j.digest), j.report);
        if (!fresh && error.empty())
            error = it->second + " and " + j.report + " would both be digested to " + j.digest;
        kept.push_back(std::move(j));
    }
    jobs = std::move(kept);
    return error;
}

// A digest already at a job's path that was made from another report (a/x.sqlite and b/x.sqlite
// digested into one --out by two runs) is not replaced silently: that job fails, unless --force.
void keepForeignDigests(std::vector<Job> &jobs)
{
    for (Job &j : jobs) {
        std::error_code ec;
        if (!fs::exists(j.digest, ec))
            continue;
        const std::optional<tr::DigestSource> source = tr::recordedDigestSource(j.digest);
        if (!source)
            j.error = j.digest + " exists and is not a readable digest; not replaced (--force replaces it)";
        else if (comparable(source->path) != comparable(j.report))
            j.error = j.digest + " was written for " + source->path + ", not for " + j.report +
                      "; not replaced (digest into another --out, or --force replaces it)";
    }
}

void digestOne(Job &job, const tr::DigestOptions &options)
{
    if (!job.error.empty())
        return;
    if (tr::isDigestPath(job.report)) {
        job.error = job.report + ": already a digest";
        return;
    }
    if (tr::ReaderRegistry::instance().holdsManyReports(job.report)) {
        job.error = job.report + ": an RLinf tracer file holds every worker; open it as it is";
        return;
    }
    tr::ReadContext ctx;
    ctx.threads = 1;
    const tr::ReportPtr r = tr::loadReport(job.report, ctx, job.error);
    if (!r)
        return;
    // The summaries ride along, so a run of digests is triaged without its events.
    // Out of memory while summarising fails this report alone (analysisguard.h).
    if (!tr::analyseReport(*r, job.error, [&] { job.error = an::writeDigestWithSummaries(*r, job.digest, options); }))
        return;
    job.events = r->store->eventCount();
    job.sourceBytes = r->fileSize;
    std::error_code ec;
    job.digestBytes = job.error.empty() ? uint64_t(fs::file_size(job.digest, ec)) : 0;
}

void runJobs(std::vector<Job> &jobs, int threads, const tr::DigestOptions &options)
{
    core::parallelFor(jobs.size(), threads, [&](size_t i) { digestOne(jobs[i], options); });
}

double bytesPerEvent(const Job &j)
{
    return j.events ? double(j.digestBytes) / double(j.events) : 0.0;
}

void printText(const std::vector<Job> &jobs, std::ostream &out, std::ostream &err)
{
    size_t ok = 0;
    uint64_t source = 0, digest = 0, events = 0;
    for (const Job &j : jobs) {
        if (!j.error.empty()) {
            err << "error: " << j.error << "\n";
            continue;
        }
        ++ok;
        source += j.sourceBytes;
        digest += j.digestBytes;
        events += j.events;
        char line[96];
        std::snprintf(line, sizeof line, "  %llu events, %llu -> %llu bytes (%.1f B/event)",
                      (unsigned long long)j.events, (unsigned long long)j.sourceBytes,
                      (unsigned long long)j.digestBytes, bytesPerEvent(j));
        out << j.digest << "\n" << line << "\n";
    }
    char total[160];
    std::snprintf(total, sizeof total, "%zu of %zu report(s) digested: %llu events, %llu -> %llu bytes (%.1f B/event)",
                  ok, jobs.size(), (unsigned long long)events, (unsigned long long)source, (unsigned long long)digest,
                  events ? double(digest) / double(events) : 0.0);
    out << total << "\n";
}

void printJson(const std::vector<Job> &jobs, std::ostream &out)
{
    core::JsonWriter w;
    w.beginObject().key("digests").beginArray();
    for (const Job &j : jobs)
        if (j.error.empty()) {
            w.beginObject().key("report").value(j.report).key("digest").value(j.digest);
            w.key("events").value(j.events).key("source_bytes").value(j.sourceBytes);
            w.key("digest_bytes").value(j.digestBytes).key("bytes_per_event").value(bytesPerEvent(j));
            w.endObject();
        }
    w.endArray().key("failures").beginArray();
    for (const Job &j : jobs)
        if (!j.error.empty())
            w.beginObject().key("path").value(j.report).key("reason").value(j.error).endObject();
    w.endArray().endObject();
    out << w.str() << "\n";
}

// The reports of the verl worker whose finish hook this is (core/profiling/digesthook.h holds the
// contract): those under the request's folders that it wants.
std::vector<Job> verlHookJobs(const core::profiling::VerlHookRequest &request, std::vector<std::string> &existing)
{
    std::vector<Job> jobs;
    for (const std::string &root : request.folders) {
        if (std::error_code ec; !fs::is_directory(root, ec))
            continue;
        existing.push_back(root);
        for (const std::string &file : tr::findReports({root}, nullptr)) {
            const tr::ReportIdentity id = tr::identityFromPath(file);
            if (tr::isDigestPath(file) || !request.wants(id.pid, id.rank))
                continue;
            Job job;
            job.report = file;
            job.digest = file + std::string(tr::kDigestSuffix);
            jobs.push_back(std::move(job));
        }
    }
    return jobs;
}

} // namespace

int cmdTraceDigest(const Args &args, std::ostream &out, std::ostream &err)
{
    ParsedArgs a;
    std::string format;
    if (const int s = parseCommand(digestSpec(), args, a, {"text", "json"}, format, out, err); s >= 0)
        return s;
    const bool hook = a.has("verl-hook");
    if (a.positionals().empty() != hook) {
        err << (hook ? "error: --verl-hook finds the reports itself: give no REPORT\n"
                     : "error: no report given (see profstudio-cli trace digest --help)\n");
        return 2;
    }
    tr::DigestOptions options;
    options.createdBy = std::string("profstudio-cli ") + core::versionString();
    const auto level = parseInt(a.value("level", "3"));
    const auto threads = parseInt(a.value("threads", std::to_string(core::defaultThreads())));
    if (!level || *level < 1 || *level > 19 || !threads || *threads < 1 || *threads > 1024) {
        err << "error: --level takes 1..19 and --threads 1..1024\n";
        return 2;
    }
    options.level = int(*level);
    options.summaryOnly = a.has("summary-only");
    std::vector<Job> jobs;
    std::vector<tr::LoadFailure> missing;
    if (hook) {
        const core::profiling::VerlHookRequest request = core::profiling::verlHookRequest(std::getenv);
        if (!request.error.empty()) {
            err << "error: " << request.error << "\n";
            return 2;
        }
        std::vector<std::string> existing;
        jobs = verlHookJobs(request, existing);
        if (jobs.empty()) {
            err << "error: " << request.nothingFound(existing) << "\n";
            return 1;
        }
    }
    for (const std::string &root : a.positionals())
        for (const std::string &file : tr::findReports({root}, &missing)) {
            Job job;
            job.report = file;
            job.digest = digestPathFor(file, root, a.value("out"));
            jobs.push_back(std::move(job));
        }
    for (const tr::LoadFailure &m : missing)
        err << "error: " << m.reason << "\n";
    if (const std::string clash = distinctDigests(jobs); !clash.empty()) {
        err << "error: " << clash << "; nothing was written (digest such folders into different --out folders)\n";
        return 2;
    }
    if (!a.has("force"))
        keepForeignDigests(jobs);
    runJobs(jobs, int(std::min<long long>(*threads, std::max<size_t>(1, jobs.size()))), options);
    if (format == "json") {
        printJson(jobs, out);
        for (const Job &j : jobs)
            if (!j.error.empty())
                err << "error: " << j.error << "\n";
    } else
        printText(jobs, out, err);
    const bool failed = !missing.empty() || jobs.empty() ||
                        std::any_of(jobs.begin(), jobs.end(), [](const Job &j) { return !j.error.empty(); });
    if (jobs.empty())
        err << "error: no report found\n";
    return failed ? 1 : 0;
}

} // namespace ps::cli
