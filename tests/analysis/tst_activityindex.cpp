// The activity index (activityindex.h) answers every window exactly as one pass over the events
// does (computeBreakdownDirect): on random stores made to hit the edge cases (instants, touching
// and overlapping events, tracks whose events end out of start order, Ascend task classes,
// windows on event edges, empty and inverted windows), and on every sample format with the
// windows of its own annotation ranges. Also: the index is built once per store and shared, and
// a cancelled build is not kept.

#include "core/analysis/breakdown/activityindex.h"
#include "core/common/canceltoken.h"
#include "core/trace/store/report.h"
#include "core/trace/store/storebuilder.h"
#include "core/trace/tracestats.h"
#include "tests/support/reportload.h"
#include "tests/support/testdata.h"

#include <QtTest>

#include <random>

using namespace ps::core::analysis;
using namespace ps::core::trace;
using ps::core::CancelToken;

namespace {

// A store of `seed`: two devices, serial kernel streams (instants and touching events among
// them), one stream whose tasks overlap (ends out of start order), NCCL, copies, memsets, syncs
// and Ascend communication / other tasks by attribute.
EventStore randomStore(uint32_t seed, std::vector<int64_t> &edges)
{
    std::mt19937 rng(seed);
    StoreBuilder b;
    const NameId gemm = b.intern("ampere_sgemm_128x128_tn"), nccl = b.intern("ncclDevKernel_AllReduce");
    const NameId copy = b.intern("[CUDA memcpy Device-to-Host]"), task = b.intern("aclnnAdd");
    const auto serial = [&](TrackHandle t, NameId name, int n, uint16_t attr) {
        int64_t at = int64_t(rng() % 50);
        for (int i = 0; i < n; ++i) {
            const int64_t gap = rng() % 4 == 0 ? 0 : int64_t(rng() % 40);     // touching sometimes
            const int64_t dur = rng() % 6 == 0 ? 0 : int64_t(1 + rng() % 60); // instants sometimes
            b.add(t, at + gap, at + gap + dur, name, 0, attr);
            edges.push_back(at + gap);
            edges.push_back(at + gap + dur);
            at += gap + dur;
        }
    };
    for (uint32_t dev = 0; dev < 2; ++dev) {
        serial(b.track({TrackKind::Kernel, 1, 7, dev}), gemm, 40, 0);
        serial(b.track({TrackKind::Kernel, 1, 8, dev}), nccl, 15, 0);
        serial(b.track({TrackKind::Memcpy, 1, 9, dev}), copy, 10, 0);
        serial(b.track({TrackKind::Memset, 1, 10, dev}), copy, 5, 0);
        serial(b.track({TrackKind::Sync, 1, 11, dev}), copy, 5, 0);
    }
    // Ascend-like stream: tasks overlap, so their ends do not follow their starts.
    const TrackHandle overlapping = b.track({TrackKind::Kernel, 1, 12, 0, TrackClass::DeviceTasks});
    for (int i = 0; i < 30; ++i) {
        const int64_t s = int64_t(rng() % 2000), d = rng() % 5 == 0 ? 0 : int64_t(rng() % 300);
        const auto attr = uint16_t(i % 3 == 0   ? DeviceTaskClass::Communication
                                   : i % 3 == 1 ? DeviceTaskClass::Other
                                                : DeviceTaskClass::Compute);
        b.add(overlapping, s, s + d, task, 0, attr);
        edges.push_back(s);
        edges.push_back(s + d);
    }
    return std::move(b).build();
}

// Fails the test (returning from the caller) when a field differs.
#define EXPECT_SAME(field, got, want)                                                                                  \
    if (int64_t(got) != int64_t(want))                                                                                 \
        QFAIL(qPrintable(QString("%1: %2 index %3, direct %4").arg(where, field).arg(int64_t(got)).arg(int64_t(want))));

void compareBreakdowns(const GpuBreakdown &got, const GpuBreakdown &want, const QString &where)
{
    EXPECT_SAME("events", got.events, want.events);
    EXPECT_SAME("firstStart", got.firstStart, want.firstStart);
    EXPECT_SAME("lastEnd", got.lastEnd, want.lastEnd);
    EXPECT_SAME("span", got.spanNs, want.spanNs);
    EXPECT_SAME("busy", got.busyNs, want.busyNs);
    EXPECT_SAME("idle", got.idleNs, want.idleNs);
    for (size_t m = 0; m < got.maskNs.size(); ++m)
        EXPECT_SAME(QString("mask %1 time").arg(m), got.maskNs[m], want.maskNs[m]);
    for (size_t c = 0; c < kGpuWorkCount; ++c) {
        EXPECT_SAME("union", got.unionNs[c], want.unionNs[c]);
        EXPECT_SAME("exclusive", got.exclusiveNs[c], want.exclusiveNs[c]);
    }
    EXPECT_SAME("overlap", got.commCompOverlapNs, want.commCompOverlapNs);
}

GpuBreakdown direct(const EventStore &store, std::optional<TimeWindow> window)
{
    BreakdownFilter f;
    f.window = window;
    return computeBreakdownDirect(store, WorkClassTable(store), f, nullptr);
}

// Windows of the store's annotation ranges (at most `limit`).
std::vector<TimeWindow> rangeWindows(const EventStore &store, size_t limit)
{
    std::vector<TimeWindow> out;
    for (const Track &t : store.tracks())
        if (isRangeKind(t.kind()))
            for (size_t i = 0; i < t.size() && out.size() < limit; ++i)
                out.push_back({t.start(i), t.end(i)});
    return out;
}

} // namespace

class TestActivityIndex : public QObject
{
    Q_OBJECT

private slots:
    void randomStoresEveryWindow()
    {
        for (uint32_t seed = 1; seed <= 40; ++seed) {
            std::vector<int64_t> edges;
            const EventStore store = randomStore(seed, edges);
            const auto index = activityIndex(store);
            QVERIFY(index);
            compareBreakdowns(index->whole, direct(store, std::nullopt), QString("seed %1 whole").arg(seed));
            std::mt19937 rng(seed * 7919u);
            for (int w = 0; w < 400; ++w) {
                // Edges of events (often equal to each other), their neighbours, or anywhere.
                const auto pick = [&]() -> int64_t {
                    if (rng() % 4 == 0)
                        return int64_t(rng() % 2600) - 100;
                    return edges[rng() % edges.size()] + int64_t(rng() % 3) - 1;
                };
                int64_t t0 = pick(), t1 = pick();
                if (w % 10 != 0 && t1 < t0) // one in ten keeps its order: inverted windows too
                    std::swap(t0, t1);
                const TimeWindow window{t0, t1};
                compareBreakdowns(windowBreakdown(store, *index, window), direct(store, window),
                                  QString("seed %1 window [%2, %3)").arg(seed).arg(t0).arg(t1));
                if (QTest::currentTestFailed())
                    return;
            }
        }
    }

    void samplesOnTheirRanges_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files = ps::test::sampleReports();
        QVERIFY(files.size() >= 20);
        for (const QString &f : files)
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }
    void samplesOnTheirRanges()
    {
        QFETCH(QString, path);
        const ReportPtr r = ps::test::loadTestReport(path);
        QVERIFY(r);
        const EventStore &store = *r->store;
        const auto index = activityIndex(store);
        QVERIFY(index);
        compareBreakdowns(index->whole, direct(store, std::nullopt), "whole");
        for (const TimeWindow &w : rangeWindows(store, 300)) {
            compareBreakdowns(windowBreakdown(store, *index, w), direct(store, w),
                              QString("range [%1, %2)").arg(w.start).arg(w.end));
            if (QTest::currentTestFailed())
                return;
        }
        // computeBreakdown takes the index for a window and the events for a device.
        BreakdownFilter f;
        f.window = TimeWindow{store.firstStart(), (store.firstStart() + store.lastEnd()) / 2};
        compareBreakdowns(computeBreakdown(store, f), direct(store, f.window), "first half");
    }

    // The index's size follows the event count, never the times: a kernel of 2^40 ns (once split
    // into 256 segments of 2^32-1 ns; one of 2^62 ns into 10^9, 13 GB) is one segment, and
    // windows across it still answer exactly.
    void longEventsCostOneSegment()
    {
        StoreBuilder b;
        const NameId gemm = b.intern("ampere_sgemm_128x128_tn"), nccl = b.intern("ncclDevKernel_AllReduce");
        const TrackHandle compute = b.track({TrackKind::Kernel, 1, 7, 0});
        const TrackHandle comm = b.track({TrackKind::Kernel, 1, 8, 0});
        const int64_t huge = int64_t(1) << 40;
        b.add(compute, 1000, 1000 + huge, gemm);
        b.add(compute, 2 * huge, 2 * huge + 50, gemm);
        b.add(comm, 500, 2000, nccl);
        b.add(comm, huge, huge + (int64_t(1) << 36), nccl);
        const EventStore store = std::move(b).build();
        const auto index = activityIndex(store);
        QVERIFY(index);
        QVERIFY2(index->segmentStart.size() <= 2 * store.count(TrackKind::Kernel),
                 qPrintable(QString("%1 segments for 4 events").arg(index->segmentStart.size())));
        QVERIFY(index->memoryBytes() < 4096);
        compareBreakdowns(index->whole, direct(store, std::nullopt), "whole");
        for (const TimeWindow w : {TimeWindow{0, 1500}, TimeWindow{1500, huge + 7}, TimeWindow{huge - 3, 2 * huge + 1},
                                   TimeWindow{700, 2 * huge + 60}})
            compareBreakdowns(windowBreakdown(store, *index, w), direct(store, w),
                              QString("window [%1, %2)").arg(w.start).arg(w.end));
    }

    void builtOnceAndShared()
    {
        std::vector<int64_t> edges;
        const EventStore store = randomStore(3, edges);
        CancelToken cancelled;
        cancelled.cancel();
        QVERIFY(!activityIndex(store, &cancelled)); // a cancelled build is not kept...
        const auto first = activityIndex(store);
        QVERIFY(first); // ...so the next caller builds it
        QCOMPARE(activityIndex(store).get(), first.get());
        QVERIFY(first->memoryBytes() > 0);
        // Kernel totals are kept the same way, and equal the kernel_sum totals.
        const auto times = kernelTimeByName(store);
        QCOMPARE(kernelTimeByName(store).get(), times.get());
        int64_t gemm = 0;
        NameId id = kNoName;
        for (const Track &t : store.tracks())
            if (t.kind() == TrackKind::Kernel)
                for (size_t i = 0; i < t.size(); ++i)
                    if (store.name(t.name(i)) == "ampere_sgemm_128x128_tn") {
                        gemm += t.duration(i);
                        id = t.name(i);
                    }
        QVERIFY(id != kNoName && gemm > 0);
        QCOMPARE((*times)[id], gemm);
    }
};

QTEST_APPLESS_MAIN(TestActivityIndex)
#include "tst_activityindex.moc"
