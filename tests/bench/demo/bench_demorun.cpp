// Benchmark of the demo run generator. Usage: bench_demorun [EVENTS_PER_REPORT [RANKS]]
// (default 1000000 1). Prints the generator's rate as a ratio against a baseline measured in the
// same run on the same disk: plain SQLite inserts of the same number of rows (8 integer columns,
// one prepared statement, one transaction, no journal), i.e. the floor any SQLite writer pays.

#include "core/demo/demorun.h"

#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

double baselineInserts(const std::string &path, int64_t rows)
{
    std::filesystem::remove(path);
    const auto started = std::chrono::steady_clock::now();
    sqlite3 *db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_exec(db,
                 "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN; CREATE TABLE t(a INTEGER, b INTEGER, "
                 "c INTEGER, d INTEGER, e INTEGER, f INTEGER, g INTEGER, h INTEGER)",
                 nullptr, nullptr, nullptr);
    sqlite3_stmt *stmt = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO t VALUES(?,?,?,?,?,?,?,?)", -1, &stmt, nullptr);
    for (int64_t i = 0; i < rows; ++i) {
        for (int c = 1; c <= 8; ++c)
            sqlite3_bind_int64(stmt, c, i * 1000 + c);
        sqlite3_step(stmt);
        sqlite3_reset(stmt);
    }
    sqlite3_finalize(stmt);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    return seconds(started);
}

} // namespace

int main(int argc, char **argv)
{
    const int64_t events = argc > 1 ? std::atoll(argv[1]) : 1000000;
    const int ranks = argc > 2 ? std::atoi(argv[2]) : 1;
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "profstudio-bench-demo";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);

    ps::core::demo::DemoOptions options;
    options.outDir = (dir / "run").string();
    options.ranks = ranks;
    options.eventsPerReport = events;
    ps::core::demo::DemoResult result;
    std::string error;
    const auto started = std::chrono::steady_clock::now();
    if (!ps::core::demo::writeDemoRun(options, result, error)) {
        std::fprintf(stderr, "error: %s\n", error.c_str());
        return 1;
    }
    const double generator = seconds(started);
    const double baseline = baselineInserts((dir / "baseline.sqlite").string(), result.totalRows);
    uintmax_t bytes = 0;
    for (const auto &r : result.reports)
        bytes += std::filesystem::file_size(r.path);
    std::filesystem::remove_all(dir);

    std::printf("demo generator: %d report(s), %lld event rows, %.1f MB\n", ranks,
                static_cast<long long>(result.totalRows), static_cast<double>(bytes) / 1e6);
    std::printf("  generator          %8.2f s  %6.2f M rows/s\n", generator, result.totalRows / generator / 1e6);
    std::printf("  baseline inserts   %8.2f s  %6.2f M rows/s  (8 int columns, same row count)\n", baseline,
                result.totalRows / baseline / 1e6);
    std::printf("  ratio generator / baseline: %.2f\n", generator / baseline);
    return 0;
}
