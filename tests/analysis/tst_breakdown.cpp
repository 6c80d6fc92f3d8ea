// GPU time breakdown on hand-built stores (sums by hand), on the classification rules, and on
// the nsys, rocpd and Ascend samples against unions computed in SQL over the same files.

#include "core/analysis/breakdown/breakdown.h"
#include "core/analysis/breakdown/devicebusy.h"
#include "core/analysis/breakdown/idletime.h"
#include "core/analysis/phases/steps.h"
#include "core/trace/read/traceloader.h"
#include "core/trace/store/storebuilder.h"
#include "unionsql.h"

#include <QtTest>

using namespace ps::core::analysis;
using namespace ps::core::trace;

namespace {

// Device 0: stream 7 gemm [0,100) [200,260), memcpy [300,320); stream 8 NCCL [50,250);
// stream 9 sync [310,400). Device 1: stream 3 gemm [1000,1010).
EventStore fixture()
{
    StoreBuilder b;
    const NameId gemm = b.intern("ampere_sgemm_128x128_tn");
    const TrackHandle k7 = b.track({TrackKind::Kernel, 1, 7, 0});
    b.add(k7, 0, 100, gemm);
    b.add(k7, 200, 260, gemm);
    b.add(b.track({TrackKind::Kernel, 1, 8, 0}), 50, 250, b.intern("ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
    b.add(b.track({TrackKind::Memcpy, 1, 7, 0}), 300, 320, b.intern("[CUDA memcpy Host-to-Device]"));
    b.add(b.track({TrackKind::Sync, 1, 9, 0}), 310, 400, b.intern("Stream Sync"));
    b.add(b.track({TrackKind::Kernel, 1, 3, 1}), 1000, 1010, gemm);
    const TrackHandle cpu = b.track({TrackKind::NvtxPushPop, 1, 1, 0});
    b.add(cpu, 0, 500, b.intern("ProfilerStep#1"));
    b.add(cpu, 500, 1200, b.intern("ProfilerStep#2"));
    b.add(cpu, 510, 520, b.intern("ProfilerStep#x")); // not a step
    return std::move(b).build();
}

void checkParts(const GpuBreakdown &b)
{
    QCOMPARE(b.computeNs() + b.communicationNs() + b.memoryNs() + b.otherNs() + b.idleNs, b.spanNs);
}

// Union of a SELECT of (start, end) in SQL vs ours.
void compareUnion(const ps::test::SqlRef &db, const std::string &select, int64_t oursLength, const char *what)
{
    const unionsql::Stats s = unionsql::query(db, select);
    QVERIFY2(s.length == oursLength,
             qPrintable(QString("%1: SQL %2, ours %3").arg(what).arg(s.length).arg(oursLength)));
}

ReportPtr load(const std::string &path)
{
    std::string error;
    ReportPtr r = loadReport(path, ReadContext{}, error);
    if (!r)
        qFatal("%s", error.c_str());
    return r;
}

} // namespace

class TstBreakdown : public QObject
{
    Q_OBJECT

private slots:
    // The utilization lane's input: per device the union of all GPU work, and busy time per bin.
    void deviceBusyPerBin()
    {
        const EventStore s = fixture();
        const std::vector<DeviceBusy> busy = deviceBusy(s);
        QCOMPARE(busy.size(), size_t(2));
        QCOMPARE(busy[0].device(), 0u);
        QCOMPARE(busy[0].intervals().size(), size_t(2)); // [0, 260) and [300, 400)
        QCOMPARE(busy[0].totalBusy(), int64_t(360));
        QCOMPARE(busy[0].busyIn(250, 310), int64_t(20));
        QCOMPARE(busy[0].busyIn(260, 300), int64_t(0));
        QCOMPARE(busy[0].busyIn(-100, 5000), int64_t(360));
        QCOMPARE(busy[0].busyIn(120, 121), int64_t(1));
        QCOMPARE(busy[1].device(), 1u);
        QCOMPARE(busy[1].busyIn(1005, 2000), int64_t(5));
        // The cursor (ascending times, galloping forward) answers as the binary search does.
        DeviceBusy::Cursor cursor(busy[0]);
        for (int64_t t = -10; t < 450; t += 7)
            QCOMPARE(cursor.busyBefore(t), busy[0].busyBefore(t));
        std::vector<Interval> many;
        for (int64_t i = 0; i < 1000; ++i)
            many.push_back({i * 10, i * 10 + 3 + i % 5});
        const DeviceBusy dense(0, many);
        DeviceBusy::Cursor c2(dense);
        for (int64_t t = 0; t < 10'100; t += 1 + t % 97)
            QCOMPARE(c2.busyBefore(t), dense.busyBefore(t));
    }

    void wholeReportByHand()
    {
        const EventStore s = fixture();
        const GpuBreakdown b = computeBreakdown(s);
        QCOMPARE(b.events, size_t(6));
        QCOMPARE(b.spanNs, int64_t(1010));
        QCOMPARE(b.busyNs, int64_t(260 + 100 + 10));
        QCOMPARE(b.idleNs, int64_t(1010 - 370));
        QCOMPARE(b.computeNs(), int64_t(170));
        QCOMPARE(b.communicationNs(), int64_t(100)); // [100,200) outside compute
        QCOMPARE(b.memoryNs(), int64_t(20));
        QCOMPARE(b.otherNs(), int64_t(80)); // sync [320,400)
        QCOMPARE(b.unionNs[size_t(GpuWork::Communication)], int64_t(200));
        QCOMPARE(b.commCompOverlapNs, int64_t(100));
        QCOMPARE(*b.overlapPct(), 50.0);
        checkParts(b);
    }

    void perDeviceAndStream()
    {
        const EventStore s = fixture();
        BreakdownFilter f;
        f.device = 0;
        const GpuBreakdown d0 = computeBreakdown(s, f);
        QCOMPARE(d0.spanNs, int64_t(400));
        QCOMPARE(d0.idleNs, int64_t(40));
        QCOMPARE(d0.computeNs(), int64_t(160));
        checkParts(d0);
        f.stream = 8;
        const GpuBreakdown s8 = computeBreakdown(s, f);
        QCOMPARE(s8.spanNs, int64_t(200));
        QCOMPARE(s8.communicationNs(), int64_t(200));
        QCOMPARE(*s8.overlapPct(), 0.0); // communication without compute on this stream
        f.device = 1;
        f.stream = std::nullopt;
        const GpuBreakdown d1 = computeBreakdown(s, f);
        QCOMPARE(d1.spanNs, int64_t(10));
        QVERIFY(!d1.overlapPct());
    }

    void windowClipsEvents()
    {
        const EventStore s = fixture();
        BreakdownFilter f;
        f.window = TimeWindow{60, 310};
        const GpuBreakdown b = computeBreakdown(s, f);
        QCOMPARE(b.firstStart, int64_t(60));
        QCOMPARE(b.lastEnd, int64_t(310));
        QCOMPARE(b.spanNs, int64_t(250));
        QCOMPARE(b.busyNs, int64_t(210));
        QCOMPARE(b.computeNs(), int64_t(100));
        QCOMPARE(b.communicationNs(), int64_t(100));
        QCOMPARE(b.memoryNs(), int64_t(10));
        QCOMPARE(b.otherNs(), int64_t(0)); // the sync starts at the window's end
        checkParts(b);
    }

    void perStep()
    {
        const EventStore s = fixture();
        const std::vector<StepWindow> steps = stepWindows(s);
        QCOMPARE(steps.size(), size_t(2));
        QCOMPARE(steps[0].step, int64_t(1));
        QCOMPARE(steps[1].window.end, int64_t(1200));
        BreakdownFilter f;
        f.window = steps[0].window;
        const GpuBreakdown first = computeBreakdown(s, f);
        QCOMPARE(first.spanNs, int64_t(400)); // all of device 0's work
        QCOMPARE(first.computeNs(), int64_t(160));
        QCOMPARE(first.idleNs, int64_t(40));
        f.window = steps[1].window;
        const GpuBreakdown second = computeBreakdown(s, f);
        QCOMPARE(second.spanNs, int64_t(10));
        QCOMPARE(second.events, size_t(1));
    }

    void classification_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("expected");
        auto row = [](const char *tag, TrackKind k, const char *n, GpuWork w) {
            QTest::newRow(tag) << int(k) << QString(n) << int(w);
        };
        row("nccl", TrackKind::Kernel, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", GpuWork::Communication);
        row("nccl dev", TrackKind::Kernel, "void ncclDevKernel_AllGather_RING_LL(ncclDevComm *)",
            GpuWork::Communication);
        row("rccl", TrackKind::Kernel, "rcclGenericKernel", GpuWork::Communication);
        row("ascend hcom", TrackKind::Kernel, "hcom_allReduce__210_0_1", GpuWork::Communication);
        row("hccl", TrackKind::Kernel, "hcclAllReduce", GpuWork::Communication);
        row("gemm", TrackKind::Kernel, "ampere_sgemm_128x128_tn", GpuWork::Compute);
        row("ascend aivec", TrackKind::Kernel, "KERNEL_AIVEC", GpuWork::Compute);
        row("sdma", TrackKind::Kernel, "SDMA", GpuWork::Memcpy);
        row("kineto memcpy name", TrackKind::Kernel, "Memcpy DtoD (Device -> Device)", GpuWork::Memcpy);
        row("memset name", TrackKind::Kernel, "Memset (Device)", GpuWork::Memset);
        row("event wait", TrackKind::Kernel, "EVENT_WAIT", GpuWork::Sync);
        row("write value", TrackKind::Kernel, "Write Value", GpuWork::Other);
        row("hta contains Sync", TrackKind::Kernel, "fooSyncBar", GpuWork::Other);
        row("hta launch", TrackKind::Kernel, "cudaLaunchKernel", GpuWork::Other);
        row("memcpy track", TrackKind::Memcpy, "[CUDA memcpy Device-to-Host]", GpuWork::Memcpy);
        row("memset track", TrackKind::Memset, "[CUDA memset]", GpuWork::Memset);
        row("sync track", TrackKind::Sync, "Event Sync", GpuWork::Sync);
    }
    void classification()
    {
        QFETCH(int, kind);
        QFETCH(QString, name);
        QFETCH(int, expected);
        QCOMPARE(int(classifyGpuWork(TrackKind(kind), name.toStdString())), expected);
    }

    void idleCategoriesByHand()
    {
        StoreBuilder b;
        const TrackHandle api = b.track({TrackKind::CudaApi, 1, 1, 0});
        const TrackHandle k = b.track({TrackKind::Kernel, 1, 7, 0});
        const NameId launch = b.intern("cudaLaunchKernel"), gemm = b.intern("gemm");
        const int64_t calls[][2] = {{0, 5}, {10, 15}, {200, 205}, {206, 207}};
        const int64_t kernels[][2] = {{20, 100}, {110, 150}, {210, 250}, {100000, 100010}};
        for (uint32_t i = 0; i < 4; ++i) {
            b.add(api, calls[i][0], calls[i][1], launch, i + 1);
            b.add(k, kernels[i][0], kernels[i][1], gemm, i + 1);
        }
        const EventStore s = std::move(b).build();
        const IdleBreakdown idle = idleTimeBreakdown(s);
        QCOMPARE(idle.streams.size(), size_t(1));
        const auto &c = idle.streams[0].categories;
        QCOMPARE(c[size_t(IdleCategory::KernelWait)].sum, int64_t(10)); // launched before the previous ended
        QCOMPARE(c[size_t(IdleCategory::HostWait)].sum, int64_t(60));   // launched after it ended
        QCOMPARE(c[size_t(IdleCategory::Other)].sum, int64_t(99750));   // long gap, launched early
        for (const GapStats &g : c)
            QCOMPARE(g.count, size_t(1));
    }

    void nsysAgainstSql_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files = ps::test::nsysFiles();
        QVERIFY(!files.isEmpty());
        for (const QString &f : files)
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }
    void nsysAgainstSql()
    {
        QFETCH(QString, path);
        const ps::test::SqlRef db(path.toStdString());
        QVERIFY(db.ok());
        const ReportPtr r = load(path.toStdString());
        const GpuBreakdown b = computeBreakdown(*r->store);
        auto tableOr = [&](const char *table, const std::string &select) {
            return db.hasTable(table) ? select : std::string("SELECT 0 AS start, 0 AS end WHERE 0");
        };
        std::string all;
        for (const char *t : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
                              "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"})
            all += (all.empty() ? "" : " UNION ALL ") + tableOr(t, std::string("SELECT start, end FROM ") + t);
        const unionsql::Stats u = unionsql::query(db, all);
        QCOMPARE(b.busyNs, u.length);
        if (b.events > 0)
            QCOMPARE(b.spanNs, u.last - u.first);
        // Compute: kernels whose demangled name is none of HTA's non-compute or communication names.
        compareUnion(db,
                     tableOr("CUPTI_ACTIVITY_KIND_KERNEL",
                             "SELECT k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
                             "k.demangledName WHERE NOT (s.value GLOB 'nccl*' OR s.value GLOB '*ncclKernel*' OR "
                             "s.value GLOB '*ncclDevKernel*' OR s.value GLOB 'hip*' OR s.value GLOB '*Memcpy*' OR "
                             "s.value GLOB '*Memset*' OR s.value GLOB '*dma*' OR s.value GLOB '*Sync*')"),
                     b.unionNs[size_t(GpuWork::Compute)], "compute");
        compareUnion(db, tableOr("CUPTI_ACTIVITY_KIND_MEMCPY", "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY"),
                     b.unionNs[size_t(GpuWork::Memcpy)], "memcpy");
        checkParts(b);
    }

    // rocpd: kernels and copies from the DB's own views.
    void rocpdAgainstSql()
    {
        const std::string path = PS_TESTDATA_DIR "/traces/rocpd/batched_gemm__37ca13315e70__28_results.db";
        const ps::test::SqlRef db(path);
        const GpuBreakdown b = computeBreakdown(*load(path)->store);
        QVERIFY(b.events > 0);
        const unionsql::Stats u =
            unionsql::query(db, "SELECT start, end FROM kernels UNION ALL SELECT start, end FROM memory_copies");
        QCOMPARE(b.busyNs, u.length);
        QCOMPARE(b.spanNs, u.last - u.first);
        compareUnion(db, "SELECT start, end FROM kernels", b.unionNs[size_t(GpuWork::Compute)], "compute");
    }

    // Ascend: communication is recognised by category (tasks in COMMUNICATION_TASK_INFO, their
    // Notify waits included: HCCL's time is mostly waiting for the peer).
    void ascendAgainstSql()
    {
        const std::string path =
            PS_TESTDATA_DIR "/traces/ascend/msinsight__level1__rank0__ascend_pytorch_profiler_0.db";
        const ps::test::SqlRef db(path);
        const GpuBreakdown b = computeBreakdown(*load(path)->store);
        QVERIFY(b.events > 0);
        const unionsql::Stats u = unionsql::query(db, "SELECT startNs AS start, endNs AS end FROM TASK");
        QCOMPARE(b.busyNs, u.length);
        QCOMPARE(b.spanNs, u.last - u.first);
        const int64_t comm = b.unionNs[size_t(GpuWork::Communication)];
        QVERIFY(comm > 0);
        compareUnion(db,
                     "SELECT startNs AS start, endNs AS end FROM TASK WHERE globalTaskId IN (SELECT globalTaskId FROM "
                     "COMMUNICATION_TASK_INFO)",
                     comm, "communication");
        checkParts(b);
    }
};

QTEST_GUILESS_MAIN(TstBreakdown)
#include "tst_breakdown.moc"
