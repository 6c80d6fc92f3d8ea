// bench_timeline: frame times of the timeline canvas, offscreen at 1920x1080.
//
//   bench_timeline [--events N[,N...]] [--reports R] [--frames F] [--demo DIR]
//
// Per event count (default 1 M and 10 M over 64 reports) it builds an RL-like run in memory with
// the engine's StoreBuilder (per report: NVTX step > forward/backward > layer ranges, a CUDA API
// call per kernel, kernels on two streams, memcpy on a third; ~10 s per report), or loads a demo
// run written by `profstudio-cli demo` with --demo, and measures:
//   full    a repaint of the whole time range with the mark cache dropped (fold + draw), median/p95
//   zoom    one wheel notch (x1.19) about a pixel, then the repaint it causes
//   pan     a 40 px drag step, then the repaint it causes
//   scroll  the full-range frame at ten vertical positions covering all rows (every report drawn)
// and the ratio of the 10 M to the 1 M full-range median. Figures in ms; machines are shared, so
// run it a few times and read the medians.

#include "core/trace/read/traceloader.h"
#include "core/trace/store/storebuilder.h"
#include "views/scene/preparedreport.h"
#include "views/timeline/timelinecanvas.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <random>

using namespace ps::core::trace;
using namespace ps::views;

namespace {

ReportPtr syntheticReport(int rank, int64_t events, uint64_t seed)
{
    std::mt19937_64 rng(seed + uint64_t(rank) * 7919);
    StoreBuilder b;
    const uint32_t pid = 4000 + uint32_t(rank);
    const TrackHandle nvtx = b.track({TrackKind::NvtxPushPop, pid, pid, 0});
    const TrackHandle api = b.track({TrackKind::CudaApi, pid, pid, 0});
    const TrackHandle k0 = b.track({TrackKind::Kernel, pid, 7, 0});
    const TrackHandle k1 = b.track({TrackKind::Kernel, pid, 13, 0});
    const TrackHandle mc = b.track({TrackKind::Memcpy, pid, 14, 0});
    b.setThreadName(pid, pid, b.intern("python"));
    const NameId step = b.intern("step"), fwd = b.intern("forward"), bwd = b.intern("backward"),
                 launch = b.intern("cudaLaunchKernel"), copy = b.intern("[CUDA memcpy HtoD]");
    std::vector<NameId> kernels, layers;
    for (int i = 0; i < 40; ++i)
        kernels.push_back(b.intern("ampere_sgemm_" + std::to_string(i) + "x128_nn"));
    for (int i = 0; i < 24; ++i)
        layers.push_back(b.intern("layer." + std::to_string(i)));

    const int steps = 10;
    const int64_t stepNs = 1'000'000'000 + int64_t(rank == 5 ? 150'000'000 : 0); // rank 5 straggles
    const int64_t kernelCount = events * 4 / 10, copies = events / 20;
    const int64_t layersPerHalf = std::max<int64_t>(1, (events * 15 / 100 / steps - 3) / 2);
    for (int s = 0; s < steps; ++s) {
        const int64_t t0 = int64_t(s) * (stepNs + 5'000'000);
        b.add(nvtx, t0, t0 + stepNs, step);
        for (int half = 0; half < 2; ++half) {
            const int64_t h0 = t0 + half * stepNs / 2, h1 = h0 + stepNs / 2 - 1000;
            b.add(nvtx, h0, h1, half ? bwd : fwd);
            const int64_t each = (h1 - h0) / layersPerHalf;
            for (int64_t l = 0; l < layersPerHalf; ++l)
                b.add(nvtx, h0 + l * each, h0 + l * each + each * 9 / 10, layers[size_t(l % 24)]);
        }
    }
    const int64_t span = steps * (stepNs + 5'000'000);
    const int64_t spacing = std::max<int64_t>(span / std::max<int64_t>(1, kernelCount), 200);
    for (int64_t i = 0; i < kernelCount; ++i) {
        const int64_t t = i * spacing + int64_t(rng() % 50);
        const int64_t d = 5'000 + int64_t(rng() % 90'000) % std::max<int64_t>(1, spacing - 100);
        const uint32_t corr = uint32_t(i + 1);
        b.add(api, t, t + std::min<int64_t>(4'000, spacing / 2), launch, corr, 0);
        b.add(i % 3 ? k0 : k1, t + 1'000, t + 1'000 + std::max<int64_t>(50, d / 2), kernels[size_t(i % 40)], corr,
              kNoLaunchConfig);
    }
    const int64_t copySpacing = span / std::max<int64_t>(1, copies);
    for (int64_t i = 0; i < copies; ++i) {
        const int64_t t = i * copySpacing;
        b.addWithBytes(mc, t, t + std::max<int64_t>(100, copySpacing / 3), copy, uint32_t(1 << 30) + uint32_t(i), 1,
                       1 << 20);
    }
    auto r = std::make_shared<Report>();
    r->path = "/bench/rlinf_profile_ActorGroup_" + std::to_string(rank) + "_" + std::to_string(pid) + ".sqlite";
    r->identity.run = "bench";
    r->identity.group = "ActorGroup";
    r->identity.rank = rank;
    r->identity.label = "ActorGroup r" + std::to_string(rank) + " pid " + std::to_string(pid);
    r->store = std::make_shared<EventStore>(std::move(b).build());
    return r;
}

struct Stats
{
    double median = 0, p95 = 0;
};
Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v[std::min(v.size() - 1, v.size() * 95 / 100)]};
}

double paintMs(TimelineCanvas &c, QImage &img, bool cold)
{
    if (cold)
        c.invalidateMarks();
    QElapsedTimer t;
    t.start();
    QPainter p(&img);
    c.paintTo(p);
    p.end();
    return double(t.nsecsElapsed()) / 1e6;
}

struct Result
{
    size_t events = 0;
    Stats full, zoom, pan, scroll;
    size_t marks = 0, folded = 0, rows = 0, visibleRows = 0;
};

Result measure(const std::vector<PreparedReportPtr> &reports, int frames)
{
    Result r;
    for (const auto &p : reports)
        r.events += p->store().eventCount();
    auto scene = std::make_shared<TimelineScene>(buildScene(reports, {}));
    TimelineCanvas c;
    c.resize(1920, 1080);
    c.setScene(scene);
    c.show();
    QApplication::processEvents();
    QImage img(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    r.rows = c.layout().rows().size();
    const auto [a, b] = c.layout().rowsIn(0, 1080);
    r.visibleRows = size_t(b - a);
    paintMs(c, img, true); // warm-up: fonts, caches
    std::vector<double> full, zoom, pan, scroll;
    for (int i = 0; i < frames; ++i)
        full.push_back(paintMs(c, img, true));
    r.marks = c.lastMarkCount();
    r.folded = c.lastFoldedCount();
    // Zoom in notch by notch about a moving pixel, then back out, like a user with a wheel.
    for (int i = 0; i < frames; ++i) {
        const double x = 200 + (i * 97) % 1400;
        QElapsedTimer t;
        t.start();
        c.setWindow(c.mapping().zoomed(i < frames / 2 ? 1.19 : 1 / 1.19, x).window());
        QPainter p(&img);
        c.paintTo(p);
        p.end();
        zoom.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    c.fitAll();
    c.setWindow(c.mapping().zoomed(4, 800).window()); // a quarter of the run, then drag
    for (int i = 0; i < frames; ++i) {
        QElapsedTimer t;
        t.start();
        c.setWindow(c.mapping().panned(i % 2 ? -40 : 40).window());
        QPainter p(&img);
        c.paintTo(p);
        p.end();
        pan.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    c.fitAll();
    for (int i = 0; i < 10; ++i) {
        c.setScrollY(c.maxScrollY() * i / 9);
        scroll.push_back(paintMs(c, img, true));
    }
    r.full = stats(full);
    r.zoom = stats(zoom);
    r.pan = stats(pan);
    r.scroll = stats(scroll);
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setAttribute(Qt::AA_Use96Dpi);
    std::vector<int64_t> sizes{1'000'000, 10'000'000};
    int reports = 64, frames = 21;
    QString demo;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == "--events") {
            sizes.clear();
            for (const QString &s : args[i + 1].split(','))
                sizes.push_back(s.toLongLong());
        } else if (args[i] == "--reports") {
            reports = args[i + 1].toInt();
        } else if (args[i] == "--frames") {
            frames = std::max(3, args[i + 1].toInt());
        } else if (args[i] == "--demo") {
            demo = args[i + 1];
        }
    }
    std::printf("timeline canvas 1920x1080 offscreen, %d frames per figure, times in ms (median / p95)\n", frames);
    std::vector<Result> results;
    auto run = [&](const std::vector<ReportPtr> &loaded, const char *what) {
        std::vector<PreparedReportPtr> prepared;
        QElapsedTimer t;
        t.start();
        for (const auto &r : loaded)
            prepared.push_back(PreparedReport::prepare(r));
        const double prepMs = double(t.nsecsElapsed()) / 1e6;
        const Result r = measure(prepared, frames);
        std::printf("%-10s %9zu events %3zu reports  prepare %7.1f | full %6.2f / %6.2f | zoom %6.2f / %6.2f | "
                    "pan %6.2f / %6.2f | scroll-all %6.2f / %6.2f | rows %zu (%zu on screen) marks %zu (folded %zu)\n",
                    what, r.events, loaded.size(), prepMs, r.full.median, r.full.p95, r.zoom.median, r.zoom.p95,
                    r.pan.median, r.pan.p95, r.scroll.median, r.scroll.p95, r.rows, r.visibleRows, r.marks, r.folded);
        std::fflush(stdout);
        results.push_back(r);
    };
    if (!demo.isEmpty()) {
        LoadResult lr = loadReports({demo.toStdString()});
        run(lr.reports, "demo");
        return 0;
    }
    for (int64_t n : sizes) {
        std::vector<ReportPtr> loaded;
        for (int r = 0; r < reports; ++r)
            loaded.push_back(syntheticReport(r, n / reports, 42));
        run(loaded, n >= 1'000'000 ? (QString::number(n / 1'000'000) + "M").toUtf8().constData() : "small");
    }
    if (results.size() >= 2)
        std::printf("full-range median %zu -> %zu events: x%.2f (target <= 2)\n", results.front().events,
                    results.back().events, results.back().full.median / results.front().full.median);
    return 0;
}
