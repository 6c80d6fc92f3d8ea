// The desktop on a large run of digests (issue 16): R digests of N events (benchdigests.h; default
// 1024 x 100 k = 100 M events; --events 1000000 makes the 10^9-event run, --summary-only writes
// them without their events), opened as the desktop opens them (outlines: no event is read),
// prepared for drawing, triaged (RL phase table and straggler from the summaries) and drawn by the
// timeline canvas offscreen at 1920x1080 over the whole time range, reports as density rows:
//   first frame   the first full-range frame (decodes the visible reports' pyramids)
//   frames        F more full-range frames with the folded marks dropped each time, median / p95
//   expanded      the same with every report expanded (track lanes drawn from the pyramids)
// Peak RSS covers the whole process. Baseline in the same run: reading every digest's bytes once.
// Targets: 100 M events: open + triage <= 5 s, first frame <= 1 s, peak RSS <= 1.5 GB;
// 10^9 events: peak RSS <= 4 GB, frames after the first <= 16 ms median.
//
//   bench_outlinerun [--reports R] [--events N] [--frames F] [--dir DIR] [--summary-only] [--threads T]

#include "core/analysis/phases/phases.h"
#include "core/trace/read/traceloader.h"
#include "tests/bench/analysis/benchdigests.h"
#include "views/scene/preparedreport.h"
#include "views/scene/timelinescene.h"
#include "views/timeline/timelinecanvas.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cstring>
#include <fstream>

using namespace ps::core::trace;
using namespace ps::views;
using benchscan::Clock;
using benchscan::seconds;

namespace {

double readAllBytes(const std::vector<std::string> &files)
{
    const auto t0 = Clock::now();
    std::vector<char> buf(1 << 20);
    size_t sink = 0;
    for (const std::string &f : files) {
        std::ifstream in(f, std::ios::binary);
        while (in.read(buf.data(), std::streamsize(buf.size())) || in.gcount() > 0)
            sink += size_t(in.gcount()) + size_t(buf[0]);
    }
    return seconds(t0) + (sink == 1 ? 1e-9 : 0.0);
}

double paintMs(TimelineCanvas &canvas, QImage &image)
{
    canvas.invalidateMarks();
    const auto t0 = Clock::now();
    QPainter p(&image);
    canvas.paintTo(p);
    p.end();
    return seconds(t0) * 1e3;
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const size_t reports = benchscan::argValue(argc, argv, "--reports", 1024);
    const size_t events = benchscan::argValue(argc, argv, "--events", 100000);
    const size_t frames = benchscan::argValue(argc, argv, "--frames", 20);
    const int threads = int(benchscan::argValue(argc, argv, "--threads", 2));
    bool summaryOnly = false;
    std::string dir;
    for (int i = 1; i < argc; ++i) {
        summaryOnly = summaryOnly || std::strcmp(argv[i], "--summary-only") == 0;
        if (std::strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            dir = argv[i + 1];
    }
    if (dir.empty())
        dir = "/tmp/ps-bench-outlinerun-" + std::to_string(reports) + "x" + std::to_string(events) +
              (summaryOnly ? "-summary" : "");
    benchdigests::ensureDigests(dir, reports, events, summaryOnly, threads);
    const double rssBefore = benchscan::peakRssGb(); // writing the run is not part of the measurement...
    const std::vector<std::string> files = findReports({dir}, nullptr);

    auto t0 = Clock::now();
    LoadOptions o;
    o.useCache = false;
    o.threads = threads;
    o.digestOutlines = true;
    const LoadResult loaded = loadReports({dir}, o);
    std::vector<PreparedReportPtr> prepared;
    for (const ReportPtr &r : loaded.reports)
        prepared.push_back(PreparedReport::prepare(r));
    const double open = seconds(t0);
    if (!loaded.failures.empty() || prepared.size() != reports) {
        std::fprintf(stderr, "open failed: %zu of %zu (%s)\n", prepared.size(), reports,
                     loaded.failures.empty() ? "" : loaded.failures.front().reason.c_str());
        return 1;
    }
    t0 = Clock::now();
    const auto table =
        ps::core::analysis::computePhaseTable(loaded.reports, ps::core::analysis::PhaseMapping::defaults());
    const double triage = seconds(t0);
    const std::string straggler = table.rows.empty() || table.rows.front().straggler < 0
                                      ? std::string("none")
                                      : table.columns[size_t(table.rows.front().straggler)].label;

    TimelineCanvas canvas;
    canvas.resize(1920, 1080);
    canvas.setScene(std::make_shared<TimelineScene>(buildScene(prepared, {})));
    canvas.fitAll();
    QImage image(canvas.size(), QImage::Format_ARGB32_Premultiplied);
    const double first = paintMs(canvas, image);
    std::vector<double> times;
    for (size_t f = 0; f < frames; ++f)
        times.push_back(paintMs(canvas, image));
    std::sort(times.begin(), times.end());
    // Every report expanded: the visible ones' track lanes from their pyramids.
    canvas.setCollapsed({});
    const double expandedFirst = paintMs(canvas, image);
    std::vector<double> expanded;
    for (size_t f = 0; f < frames; ++f)
        expanded.push_back(paintMs(canvas, image));
    std::sort(expanded.begin(), expanded.end());
    const size_t expandedMarks = canvas.lastMarkCount();
    const double rss = benchscan::peakRssGb();
    const double read = readAllBytes(files);
    const double total = double(reports) * double(events);
    std::printf("%zu digests x %zu events (%.0f M events%s), %.2f B/event on disk (%.2f GB)\n", reports, events,
                total / 1e6, summaryOnly ? ", summary-only" : "", double(benchdigests::digestBytes(dir)) / total,
                double(benchdigests::digestBytes(dir)) / 1e9);
    std::printf("baseline: reading every digest's bytes once   %.2f s\n", read);
    std::printf("open as outlines + prepare   %.2f s  (%.2f x the read)\n", open, open / read);
    std::printf("triage (phase table)         %.2f s  straggler %s (planted: ActorGroup:%zu)\n", triage,
                straggler.c_str(), reports / 3);
    std::printf("open + triage                %.2f s  target (100 M) <= 5 s\n", open + triage);
    std::printf("first full-range frame       %.1f ms  target (100 M) <= 1000 ms (density rows)\n", first);
    std::printf("full-range frames after it   median %.1f ms, p95 %.1f ms over %zu  target (10^9) <= 16 ms\n",
                times[times.size() / 2], times[std::min(times.size() - 1, times.size() * 95 / 100)], times.size());
    std::printf("reports expanded: first      %.1f ms, then median %.1f ms (%zu marks from the pyramids)\n",
                expandedFirst, expanded[expanded.size() / 2], expandedMarks);
    std::printf("peak RSS                     %.2f GB  targets <= 1.5 GB (100 M), <= 4 GB (10^9)%s\n", rss,
                rssBefore > rss * 0.9 ? "  (writing the digests in this process set it: run again to measure)" : "");
    return 0;
}
