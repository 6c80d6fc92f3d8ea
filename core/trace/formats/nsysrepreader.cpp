#include "core/trace/formats/nsysrepreader.h"

#include "core/common/shellquote.h"
#include "core/trace/formats/childprocess.h"
#include "core/trace/formats/formatutil.h"
#include "core/trace/formats/nsyslocator.h"
#include "core/trace/formats/qdstrmimport.h"
#include "core/trace/nsys/nsysreader.h"
#include "core/trace/persist/mappedfile.h"
#include "core/trace/persist/tracecache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <vector>

namespace ps::core::trace {

using namespace formats;
namespace fs = std::filesystem;

namespace {

std::mutex g_nsysMutex;
std::string g_nsys;

// FNV-1a, enough to key a cache file (not a security boundary).
uint64_t fnv1a(std::string_view s, uint64_t h = 1469598103934665603ull)
{
    for (unsigned char c : s)
        h = (h ^ c) * 1099511628211ull;
    return h;
}

std::string stemOf(const std::string &path)
{
    std::string name = fs::path(path).filename().string();
    for (const char *ext : {".nsys-rep", ".qdrep", ".qdstrm"})
        if (endsWith(name, ext))
            name.resize(name.size() - std::string_view(ext).size());
    return name;
}

// Every "NN%" in nsys's progress output, in order, as fractions.
std::vector<double> percentsIn(std::string_view text)
{
    std::vector<double> out;
    for (size_t pct = text.find('%'); pct != std::string_view::npos; pct = text.find('%', pct + 1)) {
        size_t b = pct;
        while (b > 0 && text[b - 1] >= '0' && text[b - 1] <= '9')
            --b;
        if (b != pct && pct - b <= 3)
            out.push_back(std::min(100, std::atoi(std::string(text.substr(b, pct - b)).c_str())) / 100.0);
    }
    return out;
}

} // namespace

void NsysRepReader::setNsysExecutable(const std::string &path)
{
    std::lock_guard lock(g_nsysMutex);
    g_nsys = path;
}

std::string NsysRepReader::nsysExecutable()
{
    std::lock_guard lock(g_nsysMutex);
    return g_nsys;
}

std::string NsysRepReader::configuredNsys() const
{
    return m_options.nsys.empty() ? nsysExecutable() : m_options.nsys;
}

std::string NsysRepReader::resolveNsys() const
{
    const std::vector<NsysInstall> installs = findNsysInstalls(configuredNsys());
    return installs.empty() ? std::string() : installs.front().path;
}

bool NsysRepReader::probe(std::string_view path, std::string_view head) const
{
    return endsWith(path, ".nsys-rep") || endsWith(path, ".qdrep") || endsWith(path, ".qdstrm") ||
           head.substr(0, 28) == "NVIDIA Tegra Profiler Report" || qdstrmVersion(head).has_value();
}

std::string NsysRepReader::exportPathFor(const std::string &report) const
{
    std::error_code ec;
    const std::string abs = fs::absolute(report, ec).lexically_normal().string();
    struct stat st
    {
    };
    int64_t size = -1, mtime = 0;
    if (::stat(report.c_str(), &st) == 0) {
        size = int64_t(st.st_size);
        mtime = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    }
    const uint64_t h = fnv1a(std::to_string(size) + ":" + std::to_string(mtime), fnv1a(abs));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    const std::string dir = m_options.cacheDir.empty() ? defaultCacheDir() : m_options.cacheDir;
    return (fs::path(dir) / kNsysExportFolder / (stemOf(report) + "-" + hex + ".sqlite")).string();
}

std::vector<std::string> NsysRepReader::exportArgv(const std::string &nsys, const std::string &output,
                                                   const std::string &report)
{
    return {nsys, "export", "--type", "sqlite", "--force-overwrite", "true", "--output", output, report};
}

namespace {

// The first bytes of a report, which say the release that wrote it; `why` says why not.
std::string headOf(const std::string &path, std::string &why)
{
    const int fd = openRegularFile(path, why);
    if (fd < 0)
        return {};
    std::string head(256, '\0');
    const ssize_t n = ::read(fd, head.data(), head.size());
    ::close(fd);
    head.resize(n > 0 ? size_t(n) : 0);
    return head;
}

// A finished export is reused; its use is recorded (the cache prunes the least recently used).
bool reuseExport(const std::string &out)
{
    std::error_code ec;
    if (!fs::exists(out, ec) || !fs::exists(out + ".done", ec))
        return false;
    const timespec times[2] = {{0, UTIME_OMIT}, {0, UTIME_NOW}};
    ::utimensat(AT_FDCWD, out.c_str(), times, 0);
    return true;
}

std::string manualExport(const std::string &report)
{
    return ps::core::shellJoin({"nsys", "export", "--type", "sqlite", "--output", stemOf(report) + ".sqlite", report});
}

std::string noNsysMessage(const std::string &report)
{
    return report +
           ": a raw Nsight Systems report can only be read through `nsys export`, and nsys was not found (not "
           "on PATH, in /opt/nvidia/nsight-systems/*/bin or /usr/local/cuda*/bin, not set in the preferences or "
           "$PROFSTUDIO_NSYS). Convert it where nsys is installed with:\n  " +
           manualExport(report) + "\nand open the .sqlite file it writes";
}

std::string tooOldMessage(const std::string &report, const NsysVersion &needed,
                          const std::vector<NsysInstall> &installs)
{
    return report + ": written by Nsight Systems " + versionText(needed) +
           ", and nsys reads only reports of its own release or older; the nsys found here are too old: " +
           describeInstalls(installs) + ". Install Nsight Systems " + versionText(needed) +
           " or newer (set it in the preferences or $PROFSTUDIO_NSYS), or convert the report where it is with:\n  " +
           manualExport(report) + "\nand open the .sqlite file it writes";
}

// The first install with a QdstrmImporter that reads streams of `needed`.
const NsysInstall *pickImporter(const std::vector<NsysInstall> &installs, const std::optional<NsysVersion> &needed)
{
    for (const NsysInstall &i : installs)
        if (!importerBeside(i.path).empty() && (!needed || !i.version || canRead(*i.version, *needed)))
            return &i;
    return nullptr;
}

std::string failure(const std::vector<std::string> &argv, const ChildResult &r, bool noOutput)
{
    std::string output = r.output;
    while (!output.empty() && (output.back() == '\n' || output.back() == '\r'))
        output.pop_back();
    if (output.size() > 2000)
        output = "..." + output.substr(output.size() - 2000);
    return "`" + ps::core::shellJoin(argv) + "` failed (" +
           (r.signal ? "killed by signal " + std::to_string(r.signal) : "exit " + std::to_string(r.exitCode)) +
           (noOutput ? ", no output file" : "") + ")" + (output.empty() ? "" : ":\n" + output);
}

// Runs `nsys export` of `report` into `out`, forwarding nsys's progress as the first half.
std::string runExport(const std::vector<std::string> &argv, const std::string &out, const ReadContext &ctx)
{
    std::error_code ec;
    fs::remove(out + ".done", ec);
    std::string tail;
    double reported = -1;
    const ChildResult r = runChild(argv, ctx.cancel, [&](std::string_view chunk) {
        tail.append(chunk);
        if (tail.size() > 256)
            tail.erase(0, tail.size() - 256);
        // Every step nsys printed, even when several arrive in one read; never backwards.
        if (ctx.progress)
            for (double f : percentsIn(tail))
                if (f > reported) {
                    reported = f;
                    ctx.progress(f * 0.5); // conversion is the first half, reading the second
                }
    });
    const bool written = fs::exists(out, ec);
    if (r.started && !r.cancelled && r.exitCode == 0 && written)
        return {};
    fs::remove(out, ec);
    if (!r.started)
        return "cannot run nsys (" + r.error + ")";
    if (r.cancelled)
        return "cancelled";
    return failure(argv, r, r.exitCode == 0);
}

} // namespace

std::string NsysRepReader::convert(const std::string &report, std::string &sqlitePath, const ReadContext &ctx) const
{
    std::string why;
    const std::string head = headOf(report, why);
    if (!why.empty())
        return report + ": cannot open: " + why;
    const std::string out = exportPathFor(report);
    if (reuseExport(out)) {
        sqlitePath = out;
        return {};
    }
    const std::vector<NsysInstall> installs = findNsysInstalls(configuredNsys(), ctx.cancel);
    if (installs.empty())
        return noNsysMessage(report);
    const bool stream = endsWith(report, ".qdstrm") || qdstrmVersion(head);
    const std::optional<NsysVersion> needed = stream ? qdstrmVersion(head) : reportVersion(head);
    const NsysInstall *nsys = stream ? pickImporter(installs, needed) : pickNsys(installs, needed);
    if (!nsys && stream)
        return importHelp(report, needed ? versionText(*needed) : "") + " (nsys found: " + describeInstalls(installs) +
               ")";
    if (!nsys)
        return tooOldMessage(report, *needed, installs);
    std::error_code ec;
    fs::create_directories(fs::path(out).parent_path(), ec);
    if (ec)
        return report + ": cannot create the export cache folder " + fs::path(out).parent_path().string() + ": " +
               ec.message();
    // A stream is imported next to its export, read, then let go: the export is what is kept.
    const std::string rep = stream ? fs::path(out).replace_extension(".nsys-rep").string() : report;
    if (stream)
        if (std::string err = importQdstrm(importerBeside(nsys->path), report, rep, ctx); !err.empty())
            return err;
    std::string err = runExport(exportArgv(nsys->path, out, rep), out, ctx);
    if (stream)
        fs::remove(rep, ec);
    if (!err.empty())
        return report + ": " + err;
    std::ofstream(out + ".done") << report << "\n";
    sqlitePath = out;
    return {};
}

void NsysRepReader::finish(ReportMeta &meta, const EventStore &store) const
{
    NsysReader().finish(meta, store);
}

std::string NsysRepReader::read(const std::string &path, StoreBuilder &b, ReportMeta &meta,
                                const ReadContext &ctx) const
{
    meta.format = TraceFormat::NsysSqlite;
    std::string sqlite;
    if (std::string err = convert(path, sqlite, ctx); !err.empty())
        return err;
    ReadContext inner = ctx;
    if (ctx.progress)
        inner.progress = [&](double f) { ctx.progress(0.5 + 0.5 * f); };
    if (std::string err = NsysReader().read(sqlite, b, meta, inner); !err.empty())
        return path + ": the export " + sqlite + " could not be read: " + err;
    meta.warnings.push_back("read through nsys export: " + sqlite);
    return {};
}

} // namespace ps::core::trace
