// Trace loading benchmark on demo reports (core/demo), printed as ratios against a baseline
// measured in the same run: a bare sqlite3_step loop, one thread, reading the same columns of
// the same tables into plain arrays.
//
//   bench_traceload [--dir DIR] [--events N] [--ranks R] [--per-report M] [--threads T]
//
// Figures (targets from the issue):
//   single report of N events: cold load / baseline            (<= 1.2)
//   R reports of M events:     baseline / cold load            (>= 1.7 on 2 cores)
//   warm reopen from the cache: cold load / warm reopen         (>= 20)
//   resident bytes per event (names aside, and with names)
// Demo data is generated once under DIR (default /tmp/ps-bench-trace) and reused.

#include "core/trace/read/readonlysqlite.h"
#include "core/trace/read/traceloader.h"
#include "tests/bench/trace/demoreports.h"

#include <sqlite3.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using namespace ps::core::trace;
using benchdemo::Clock;
using benchdemo::ensureDemo;
using benchdemo::secondsSince;

namespace {

// CPU seconds (user + system) used by the whole process so far: on a shared, loaded machine
// wall time mostly measures the other tenants, CPU time measures the work.
double cpuSeconds()
{
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

double loadAverage()
{
    double l[1] = {0};
    return ::getloadavg(l, 1) == 1 ? l[0] : -1;
}

struct TableCols
{
    const char *table;
    std::vector<const char *> cols;
    const char *where;
};

// The columns the nsys reader selects, table by table (nsysreader.cpp).
const std::vector<TableCols> kTables = {
    {"CUPTI_ACTIVITY_KIND_KERNEL",
     {"start", "end", "globalPid", "streamId", "deviceId", "correlationId", "demangledName", "shortName", "gridX",
      "gridY", "gridZ", "blockX", "blockY", "blockZ"},
     nullptr},
    {"CUPTI_ACTIVITY_KIND_MEMCPY",
     {"start", "end", "globalPid", "streamId", "deviceId", "correlationId", "copyKind", "bytes"},
     nullptr},
    {"CUPTI_ACTIVITY_KIND_MEMSET",
     {"start", "end", "globalPid", "streamId", "deviceId", "correlationId", "memKind", "bytes"},
     nullptr},
    {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
     {"start", "end", "globalPid", "streamId", "deviceId", "correlationId", "syncType"},
     nullptr},
    {"CUPTI_ACTIVITY_KIND_RUNTIME",
     {"start", "end", "globalTid", "correlationId", "nameId", "eventClass"},
     "eventClass IN (0,1)"},
    {"OSRT_API", {"start", "end", "globalTid", "nameId"}, nullptr},
    {"NVTX_EVENTS",
     {"start", "end", "globalTid", "eventType", "text", "textId", "endGlobalTid", "domainId", "category", "color"},
     "eventType IN (34,59,60,70,71)"},
};

// The baseline: one thread, one connection per file, sqlite3_step into plain arrays. The issue's
// baseline opens SQLite in its default (serialized) mode, which takes a mutex on every column
// read; the loader opens with SQLITE_OPEN_NOMUTEX, so the bench also measures that read
// (extraFlags) to show the stricter ratio beside the target's.
size_t baselineRead(const std::vector<std::string> &files, int extraFlags = 0)
{
    size_t rows = 0;
    for (const std::string &f : files) {
        sqlite3 *db = nullptr;
        const std::string uri = sqliteReadOnlyUri(f);
        if (sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | extraFlags, nullptr) !=
            SQLITE_OK) {
            std::fprintf(stderr, "baseline: cannot open %s\n", f.c_str());
            std::exit(1);
        }
        for (const TableCols &t : kTables) {
            std::set<std::string> present;
            sqlite3_stmt *info = nullptr;
            sqlite3_prepare_v2(db, (std::string("SELECT name FROM pragma_table_info('") + t.table + "')").c_str(), -1,
                               &info, nullptr);
            while (sqlite3_step(info) == SQLITE_ROW)
                present.insert(reinterpret_cast<const char *>(sqlite3_column_text(info, 0)));
            sqlite3_finalize(info);
            if (present.empty())
                continue;
            std::string sql = "SELECT ";
            std::vector<bool> isText;
            for (const char *c : t.cols) {
                if (!present.count(c))
                    continue;
                sql += std::string(isText.empty() ? "" : ", ") + "\"" + c + "\"";
                isText.push_back(std::strcmp(c, "text") == 0);
            }
            sql += std::string(" FROM ") + t.table + (t.where ? std::string(" WHERE ") + t.where : "");
            sqlite3_stmt *s = nullptr;
            sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr);
            std::vector<std::vector<int64_t>> cols(isText.size());
            std::vector<std::string> texts;
            while (sqlite3_step(s) == SQLITE_ROW) {
                for (size_t c = 0; c < isText.size(); ++c) {
                    if (isText[c]) {
                        const auto *p = sqlite3_column_text(s, int(c));
                        if (p)
                            texts.emplace_back(reinterpret_cast<const char *>(p));
                    } else {
                        cols[c].push_back(sqlite3_column_int64(s, int(c)));
                    }
                }
                ++rows;
            }
            sqlite3_finalize(s);
        }
        sqlite3_close(db);
    }
    return rows;
}

void warmPageCache(const std::vector<std::string> &files)
{
    std::vector<char> buf(1 << 20);
    for (const auto &f : files) {
        std::ifstream in(f, std::ios::binary);
        while (in.read(buf.data(), std::streamsize(buf.size())) || in.gcount() > 0) {
        }
    }
}

struct Loaded
{
    double seconds = 0;
    double cpu = 0;
    size_t events = 0;
    size_t resident = 0;
    size_t nameBytes = 0;
    size_t fromCache = 0;
};

Loaded load(const std::vector<std::string> &files, int threads, bool useCache, const std::string &cacheDir)
{
    LoadOptions o;
    o.threads = threads;
    o.useCache = useCache;
    o.cacheDir = cacheDir;
    const auto t0 = Clock::now();
    const double c0 = cpuSeconds();
    LoadResult r = loadReports(files, o);
    Loaded l;
    l.seconds = secondsSince(t0);
    l.cpu = cpuSeconds() - c0;
    if (!r.failures.empty()) {
        std::fprintf(stderr, "load failed: %s\n", r.failures[0].reason.c_str());
        std::exit(1);
    }
    for (const auto &rep : r.reports) {
        l.events += rep->store->eventCount();
        l.resident += rep->store->residentBytes();
        l.nameBytes += rep->store->names().chars().size_bytes() + rep->store->names().offsets().size_bytes();
        l.fromCache += rep->fromCache;
    }
    return l;
}

template <typename F> double best(int reps, F f)
{
    double b = 1e300;
    for (int i = 0; i < reps; ++i)
        b = std::min(b, f());
    return b;
}

// The baseline read again without SQLite's per-call mutex, best of reps, printed against a load
// as the line above it reads: cold/baseline for one report, baseline/cold (a speedup) for many.
void printNoMutexBaseline(const std::vector<std::string> &files, int reps, double loadSeconds, bool asSpeedup)
{
    const double t = best(reps, [&] {
        const auto t0 = Clock::now();
        baselineRead(files, SQLITE_OPEN_NOMUTEX);
        return secondsSince(t0);
    });
    if (asSpeedup)
        std::printf("  (baseline opened NOMUTEX, as the loader opens: %.3f s, baseline/cold = %.2f)\n", t,
                    t / loadSeconds);
    else
        std::printf("  (baseline opened NOMUTEX, as the loader opens: %.3f s, cold/baseline = %.2f)\n", t,
                    loadSeconds / t);
}

} // namespace

int main(int argc, char **argv)
{
    std::string dir = "/tmp/ps-bench-trace";
    int64_t events = 10000000, perReport = 200000;
    int ranks = 64, threads = 2, reps = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--dir")
            dir = v;
        else if (a == "--events")
            events = std::stoll(v);
        else if (a == "--ranks")
            ranks = std::stoi(v);
        else if (a == "--per-report")
            perReport = std::stoll(v);
        else if (a == "--threads")
            threads = std::stoi(v);
        else if (a == "--reps")
            reps = std::stoi(v);
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    const std::string cacheDir = dir + "/cache";
    const auto single = ensureDemo(dir + "/single", 1, events);
    const auto multi = ensureDemo(dir + "/multi", ranks, perReport);
    std::printf("threads=%d, reps=%d (best of), SQLite %s, load average %.1f on %u cores\n", threads, reps,
                sqlite3_libversion(), loadAverage(), std::thread::hardware_concurrency());

    // --- one big report
    warmPageCache(single);
    size_t baseRows = 0;
    double baseCpu1 = 1e300, baseCpuN = 1e300;
    const double base1 = best(reps, [&] {
        const auto t0 = Clock::now();
        const double c0 = cpuSeconds();
        baseRows = baselineRead(single);
        baseCpu1 = std::min(baseCpu1, cpuSeconds() - c0);
        return secondsSince(t0);
    });
    Loaded cold1;
    const double c1 = best(reps, [&] {
        cold1 = load(single, threads, false, cacheDir);
        return cold1.seconds;
    });
    fs::remove_all(cacheDir);
    load(single, threads, true, cacheDir); // writes the cache
    Loaded warm1;
    const double w1 = best(reps + 1, [&] {
        warm1 = load(single, threads, true, cacheDir);
        return warm1.seconds;
    });
    std::printf("\n[single report] %zu baseline rows, %zu events loaded\n", baseRows, cold1.events);
    std::printf("  baseline (bare sqlite3_step, 1 thread) %8.3f s\n", base1);
    std::printf("  cold load (%d threads)                 %8.3f s   ratio cold/baseline = %.2f  (target <= 1.2)\n",
                threads, c1, c1 / base1);
    printNoMutexBaseline(single, reps, c1, false);
    std::printf("  warm reopen from cache                %8.4f s   ratio cold/warm = %.1f  (target >= 20)%s\n", w1,
                c1 / w1, warm1.fromCache == single.size() ? "" : "  [NOT FROM CACHE]");
    std::printf("  CPU seconds: baseline %.3f, cold load %.3f (ratio %.2f)\n", baseCpu1, cold1.cpu,
                cold1.cpu / baseCpu1);
    std::printf("  resident bytes/event: %.2f without names, %.2f with names (%zu name bytes)\n",
                double(cold1.resident - cold1.nameBytes) / double(cold1.events),
                double(cold1.resident) / double(cold1.events), cold1.nameBytes);

    // --- many reports
    warmPageCache(multi);
    const double baseN = best(reps, [&] {
        const auto t0 = Clock::now();
        const double c0 = cpuSeconds();
        baseRows = baselineRead(multi);
        baseCpuN = std::min(baseCpuN, cpuSeconds() - c0);
        return secondsSince(t0);
    });
    Loaded coldN;
    const double cN = best(reps, [&] {
        coldN = load(multi, threads, false, cacheDir);
        return coldN.seconds;
    });
    load(multi, threads, true, cacheDir);
    Loaded warmN;
    const double wN = best(reps + 1, [&] {
        warmN = load(multi, threads, true, cacheDir);
        return warmN.seconds;
    });
    std::printf("\n[%zu reports] %zu baseline rows, %zu events loaded\n", multi.size(), baseRows, coldN.events);
    std::printf("  baseline (bare sqlite3_step, 1 thread) %8.3f s\n", baseN);
    std::printf("  cold load (%d threads)                 %8.3f s   speedup baseline/cold = %.2f  (target >= 1.7)\n",
                threads, cN, baseN / cN);
    printNoMutexBaseline(multi, reps, cN, true);
    std::printf("  warm reopen from cache                %8.4f s   ratio cold/warm = %.1f%s\n", wN, cN / wN,
                warmN.fromCache == multi.size() ? "" : "  [NOT FROM CACHE]");
    std::printf("  CPU seconds: baseline %.3f, cold load %.3f (ratio %.2f)\n", baseCpuN, coldN.cpu,
                coldN.cpu / baseCpuN);
    std::printf("  resident bytes/event: %.2f without names, %.2f with names\n",
                double(coldN.resident - coldN.nameBytes) / double(coldN.events),
                double(coldN.resident) / double(coldN.events));
    std::printf("\nload average at the end %.1f (wall-time ratios are only meaningful on an idle machine)\n",
                loadAverage());
    return 0;
}
