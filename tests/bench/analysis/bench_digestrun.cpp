// A large run opened from digests (issue 16): R digests of N events each (default 1024 x 100 k =
// 100 M events), written directly from synthetic stores with their phase summaries, and triaged:
// the RL phase table over every rank and its straggler, first from the summaries alone, then from
// the events (opened without the report cache). Prints the triage times, the peak RSS and the
// digests' size per event against the targets (triage <= 5 s, peak RSS <= 1.5 GB), with one scan
// of the same events as the in-run baseline.
//
//   bench_digestrun [--reports R] [--events N] [--dir DIR] [--threads T]
//
// The run is benchdigests.h's, written once under DIR (default /tmp/ps-bench-digestrun) and reused.

#include "core/analysis/digestsummary.h"
#include "core/analysis/phases/phases.h"
#include "core/analysis/phases/phasesummary.h"
#include "core/trace/persist/digest.h"
#include "core/trace/read/traceloader.h"
#include "tests/bench/analysis/benchdigests.h"
#include "tests/bench/analysis/benchscan.h"

#include <cstdio>

using namespace ps::core::trace;
using namespace ps::core::analysis;
using benchscan::Clock;
using benchscan::seconds;

namespace {

// The phase table of a run of digests without their events, as `trace phases` reads them: each
// opened as its outline, cells from its phase summary, stragglers from its collective summary.
std::optional<PhaseTable> phaseTableFromDigests(const std::vector<std::string> &paths, std::vector<ReportPtr> &columns,
                                                std::string &error)
{
    std::vector<ReportPhaseCells> perReport;
    columns.clear();
    for (const std::string &path : paths) {
        ReportPtr report = readDigestOutline(path, error);
        if (!report) {
            if (error.empty())
                error = path + ": not a digest";
            return std::nullopt;
        }
        std::optional<ReportPhaseCells> cells = reportPhaseCells(*report, PhaseMapping::defaults(), error);
        if (!cells)
            return std::nullopt;
        perReport.push_back(std::move(*cells));
        columns.push_back(std::move(report));
    }
    return assemblePhaseTable(columns, perReport, PhaseMapping::defaults());
}

} // namespace

int main(int argc, char **argv)
{
    const size_t reports = benchscan::argValue(argc, argv, "--reports", 1024);
    const size_t events = benchscan::argValue(argc, argv, "--events", 100000);
    const int threads = int(benchscan::argValue(argc, argv, "--threads", 2));
    std::string dir = "/tmp/ps-bench-digestrun";
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--dir")
            dir = argv[i + 1];
    benchdigests::ensureDigests(dir, reports, events, false, threads);
    const uint64_t bytes = benchdigests::digestBytes(dir);

    // Triage from the digests' phase summaries: their events are not read.
    auto t0 = Clock::now();
    std::vector<ReportPtr> columns;
    std::string error;
    const std::optional<PhaseTable> fromSummaries = phaseTableFromDigests(findReports({dir}, nullptr), columns, error);
    const double summaryTriage = seconds(t0);
    const double summaryRss = benchscan::peakRssGb();
    if (!fromSummaries) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    const auto stragglerOf = [](const PhaseTable &t) {
        return t.rows.empty() || t.rows.front().straggler < 0 ? std::string("none")
                                                              : t.columns[size_t(t.rows.front().straggler)].label;
    };

    // Triage from the events.
    t0 = Clock::now();
    LoadOptions o;
    o.useCache = false;
    o.threads = threads;
    const LoadResult loaded = loadReports({dir}, o);
    const double open = seconds(t0);
    if (!loaded.failures.empty() || loaded.reports.size() != reports) {
        std::fprintf(stderr, "open failed: %zu of %zu\n", loaded.reports.size(), reports);
        return 1;
    }
    t0 = Clock::now();
    const PhaseTable table = computePhaseTable(loaded.reports, PhaseMapping::defaults());
    const double phases = seconds(t0);
    const std::string straggler = stragglerOf(table);
    t0 = Clock::now();
    std::vector<int64_t> perName;
    int64_t sink = 0;
    for (const ReportPtr &r : loaded.reports)
        sink += benchscan::scan(*r->store, perName, [](TrackKind) { return true; });
    const double scan = seconds(t0);
    const double total = double(reports) * double(events);
    std::printf("%zu digests x %zu events (%.0f M events), %.2f B/event on disk\n", reports, events, total / 1e6,
                double(bytes) / total);
    std::printf("from the phase summaries (events not read):\n"
                "  triage (phase table) %.2f s   target <= 5 s; straggler %s (planted: ActorGroup:%zu)\n"
                "  peak RSS so far      %.2f GB  target <= 1.5 GB\n",
                summaryTriage, stragglerOf(*fromSummaries).c_str(), reports / 3, summaryRss);
    std::printf("from the events:\n"
                "  open the digests     %.2f s   (%.1f x one scan %.2f s)\n"
                "  phase table          %.2f s   straggler %s\n"
                "  triage (open+phases) %.2f s\n"
                "  peak RSS             %.2f GB\n",
                open, open / scan, scan, phases, straggler.c_str(), open + phases, benchscan::peakRssGb());
    return sink == 42 ? 1 : 0;
}
