#include "core/trace/formats/nsysrepreader.h"

#include "core/common/shellquote.h"
#include "core/trace/formats/childprocess.h"
#include "core/trace/formats/formatutil.h"
#include "core/trace/mappedfile.h"
#include "core/trace/nsysreader.h"
#include "core/trace/tracecache.h"

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
    for (const char *ext : {".nsys-rep", ".qdrep"})
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

std::string NsysRepReader::resolveNsys() const
{
    if (!m_options.nsys.empty())
        return findExecutable(m_options.nsys);
    if (std::string configured = nsysExecutable(); !configured.empty())
        return findExecutable(configured);
    if (const char *env = std::getenv("PROFSTUDIO_NSYS"); env && *env)
        return findExecutable(env);
    return findExecutable("nsys");
}

bool NsysRepReader::probe(std::string_view path, std::string_view head) const
{
    return endsWith(path, ".nsys-rep") || endsWith(path, ".qdrep") ||
           head.substr(0, 28) == "NVIDIA Tegra Profiler Report";
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

std::string NsysRepReader::convert(const std::string &report, std::string &sqlitePath, const ReadContext &ctx) const
{
    std::string why;
    if (const int fd = openRegularFile(report, why); fd >= 0)
        ::close(fd);
    else
        return report + ": cannot open: " + why;
    const std::string out = exportPathFor(report);
    const std::string done = out + ".done";
    std::error_code ec;
    if (fs::exists(out, ec) && fs::exists(done, ec)) {
        // Record the use: the cache's pruning evicts the least recently used exports first.
        const timespec times[2] = {{0, UTIME_OMIT}, {0, UTIME_NOW}};
        ::utimensat(AT_FDCWD, out.c_str(), times, 0);
        sqlitePath = out;
        return {};
    }
    const std::string nsys = resolveNsys();
    if (nsys.empty()) {
        const std::string manual =
            ps::core::shellJoin({"nsys", "export", "--type", "sqlite", "--output", stemOf(report) + ".sqlite", report});
        return report +
               ": a raw Nsight Systems report can only be read through `nsys export`, and nsys was not "
               "found (not on PATH, not set in the preferences or $PROFSTUDIO_NSYS). Convert it where "
               "nsys is installed with:\n  " +
               manual + "\nand open the .sqlite file it writes";
    }
    fs::create_directories(fs::path(out).parent_path(), ec);
    if (ec)
        return report + ": cannot create the export cache folder " + fs::path(out).parent_path().string() + ": " +
               ec.message();
    fs::remove(done, ec);
    const std::vector<std::string> argv = exportArgv(nsys, out, report);
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
    auto discard = [&] {
        fs::remove(out, ec);
        fs::remove(done, ec);
    };
    if (!r.started) {
        discard();
        return report + ": cannot run nsys (" + r.error + ")";
    }
    if (r.cancelled) {
        discard();
        return report + ": cancelled";
    }
    if (r.exitCode != 0 || !fs::exists(out, ec)) {
        discard();
        std::string output = r.output;
        while (!output.empty() && (output.back() == '\n' || output.back() == '\r'))
            output.pop_back();
        if (output.size() > 2000)
            output = "..." + output.substr(output.size() - 2000);
        return report + ": `" + ps::core::shellJoin(argv) + "` failed (" +
               (r.signal ? "killed by signal " + std::to_string(r.signal) : "exit " + std::to_string(r.exitCode)) +
               (r.exitCode == 0 ? ", no output file" : "") + ")" + (output.empty() ? "" : ":\n" + output);
    }
    std::ofstream(done) << report << "\n";
    sqlitePath = out;
    return {};
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
