// Row layout: groups (run, worker group, rank) over reports over tracks over levels, empty
// tracks hidden, collapsed headers hiding what is under them, y lookups.
#include "core/trace/read/traceloader.h"
#include "testreports.h"
#include "views/timeline/rowlayout.h"

#include <QtTest>

using namespace ps::views;
using namespace ps::core::trace;

namespace {
// Two ranks; rank 1 has two capture ranges (steps), so it gets a rank header.
std::vector<PreparedReportPtr> reports()
{
    auto withEmptyTrack = [](int rank, int step) {
        auto r = ps::test::makeReport(
            "/runs/run/r" + std::to_string(rank) + "_s" + std::to_string(step) + ".sqlite",
            [](StoreBuilder &b) {
                const TrackHandle n = b.track({TrackKind::NvtxPushPop, 1, 1, 0});
                b.add(n, 0, 100, b.intern("outer"));
                b.add(n, 10, 20, b.intern("inner"));
                b.add(b.track({TrackKind::Kernel, 1, 7, 0}), 5, 50, b.intern("k"));
                b.track({TrackKind::Memcpy, 1, 7, 0}); // stays empty
            },
            rank);
        auto m = std::const_pointer_cast<Report>(r);
        m->identity.step = step;
        if (rank == 0) { // a memory series: its lane comes after the utilization lane
            MemorySeriesBuilder mem(0, "CUDA device memory");
            for (auto [t, bytes] : {std::pair<int64_t, int64_t>{0, 1024}, {10, 3 << 20}, {40, 2048}})
                mem.add(t, bytes);
            m->meta.memory.push_back(std::move(mem).build());
        }
        return PreparedReport::prepare(r);
    };
    return {withEmptyTrack(0, 1), withEmptyTrack(1, 1), withEmptyTrack(1, 2)};
}

QStringList describe(const RowLayout &l)
{
    QStringList out;
    for (const Row &r : l.rows()) {
        const char *kinds[] = {"G", "R", "T", "U", "M"};
        out << QStringLiteral("%1%2 %3 y%4 h%5")
                       .arg(kinds[int(r.kind)])
                       .arg(r.depth)
                       .arg(r.label)
                       .arg(r.y)
                       .arg(r.height) +
                   (r.detail.isEmpty() ? QString() : " (" + r.detail + ")");
    }
    return out;
}
} // namespace

class TestRowLayout : public QObject
{
    Q_OBJECT
private slots:
    void groupsReportsTracksAndLevels()
    {
        const TimelineScene scene = buildScene(reports(), {});
        const RowLayout l(scene, TrackView{});
        const QStringList expected{
            "G0 run y0 h20",
            "G1 ActorGroup y20 h20",
            "R2 ActorGroup r0 y40 h20",
            "U3 GPU util · GPU 0 y60 h20", // counter lanes first
            "M3 Memory · GPU 0 · CUDA device memory y80 h28 (peak 3.0 MiB)",
            "T3 NVTX · thread [1] y108 h32", // two levels
            "T3 Kernels · GPU 0 · stream 7 y140 h16",
            "G2 ActorGroup rank 1 y156 h20", // two capture ranges: a rank header
            "R3 ActorGroup r1 y176 h20",
            "U4 GPU util · GPU 0 y196 h20",
            "T4 NVTX · thread [1] y216 h32",
            "T4 Kernels · GPU 0 · stream 7 y248 h16",
            "R3 ActorGroup r1 y264 h20",
            "U4 GPU util · GPU 0 y284 h20",
            "T4 NVTX · thread [1] y304 h32",
            "T4 Kernels · GPU 0 · stream 7 y336 h16",
        };
        QCOMPARE(describe(l), expected);
        QCOMPARE(l.totalHeight(), 352);
    }

    void collapsingHidesWhatIsBelow_data()
    {
        QTest::addColumn<QStringList>("collapsed");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("height");
        QTest::newRow("nothing") << QStringList{} << 16 << 352;
        QTest::newRow("run") << QStringList{"group:run"} << 1 << 20;
        QTest::newRow("worker group") << QStringList{"group:run/ActorGroup"} << 2 << 40;
        QTest::newRow("rank 1") << QStringList{"group:run/ActorGroup/ActorGroup rank 1"} << 8 << 176;
        QTest::newRow("one report") << QStringList{"report:/runs/run/r0_s1.sqlite"} << 12 << 256;
    }
    void collapsingHidesWhatIsBelow()
    {
        QFETCH(QStringList, collapsed);
        QFETCH(int, rows);
        QFETCH(int, height);
        const TimelineScene scene = buildScene(reports(), {});
        const RowLayout l(scene, QSet<QString>(collapsed.begin(), collapsed.end()));
        QCOMPARE(int(l.rows().size()), rows);
        QCOMPARE(l.totalHeight(), height);
        for (const Row &r : l.rows())
            if (collapsed.contains(r.key))
                QVERIFY(r.collapsed);
    }

    void lookups_data()
    {
        QTest::addColumn<int>("y");
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("lane");
        QTest::newRow("top") << 0 << 0 << 0;
        QTest::newRow("utilization lane") << 60 << 3 << 0;
        QTest::newRow("memory lane") << 107 << 4 << 0;
        QTest::newRow("nvtx level 0") << 108 << 5 << 0;
        QTest::newRow("nvtx level 1") << 128 << 5 << 1;
        QTest::newRow("last px of nvtx") << 139 << 5 << 1;
        QTest::newRow("kernel row") << 140 << 6 << 0;
        QTest::newRow("below") << 352 << -1 << 0;
        QTest::newRow("above") << -1 << -1 << 0;
    }
    void lookups()
    {
        QFETCH(int, y);
        QFETCH(int, row);
        QFETCH(int, lane);
        const TimelineScene scene = buildScene(reports(), {});
        const RowLayout l(scene, TrackView{});
        QCOMPARE(l.rowAt(y), row);
        if (row >= 0 && l.rows()[size_t(row)].kind == RowKind::Track)
            QCOMPARE(RowLayout::laneAt(l.rows()[size_t(row)], y), lane);
    }

    void rowsInViewport()
    {
        const TimelineScene scene = buildScene(reports(), {});
        const RowLayout l(scene, TrackView{});
        QCOMPARE(l.rowsIn(0, 60), (std::pair<int, int>{0, 3}));
        QCOMPARE(l.rowsIn(61, 100), (std::pair<int, int>{3, 5}));
        QCOMPARE(l.rowsIn(360, 400), (std::pair<int, int>{16, 16}));
        QCOMPARE(l.rowOf(2, 2), -1); // the memcpy track is empty, hence hidden
        QCOMPARE(l.rowOf(2, 1) >= 0, true);
        QCOMPARE(l.reportRowOf(1), 8);
    }

    // Track names follow the format's vocabulary (issue: Ascend stacks were "NVTX", ACL calls
    // "CUDA API", the NPU "Kernels · GPU 0").
    void trackNamesFollowTheFormat_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QStringList>("labels");
        QTest::newRow("nsys") << int(TraceFormat::NsysSqlite)
                              << QStringList{"GPU util · GPU 0", "NVTX · thread [2]", "CUDA API · thread [2]",
                                             "Kernels · GPU 0 · stream 5"};
        QTest::newRow("rocpd") << int(TraceFormat::Rocpd)
                               << QStringList{"GPU util · GPU 0", "roctx · thread [2]", "HIP API · thread [2]",
                                              "Kernels · GPU 0 · stream 5"};
        QTest::newRow("ascend") << int(TraceFormat::AscendDb)
                                << QStringList{"NPU util · NPU 0", "torch ops / mstx · thread [2]",
                                               "CANN (ACL) API · thread [2]", "Tasks · NPU 0 · stream 5"};
        QTest::newRow("kineto") << int(TraceFormat::KinetoJson)
                                << QStringList{"GPU util · GPU 0", "torch ops · thread [2]", "Runtime API · thread [2]",
                                               "Kernels · GPU 0 · stream 5"};
    }
    void trackNamesFollowTheFormat()
    {
        QFETCH(int, format);
        QFETCH(QStringList, labels);
        auto r = ps::test::makeReport("/x/a.db", [](StoreBuilder &b) {
            b.add(b.track({TrackKind::NvtxPushPop, 1, 2, 0}), 0, 10, b.intern("r"));
            b.add(b.track({TrackKind::CudaApi, 1, 2, 0}), 0, 10, b.intern("launch"));
            b.add(b.track({TrackKind::Kernel, 1, 5, 0}), 2, 8, b.intern("k")); // labelled "stream 5" by the builder
        });
        std::const_pointer_cast<Report>(r)->meta.format = TraceFormat(format);
        const RowLayout l(buildScene({PreparedReport::prepare(r)}, {}), TrackView{});
        QStringList got;
        for (const Row &row : l.rows())
            if (row.kind == RowKind::Track || row.kind == RowKind::Utilization)
                got << row.label;
        QCOMPARE(got, labels);
    }

    // On a real torch_npu export: the HCCL communicator lane says HCCL (it was named after the
    // network interface), every label of the report names one track (push/pop and start/end
    // ranges of one thread read alike), and the 29-level Python stack shows 8 levels until asked.
    void ascendLanesAreNamedAndFolded()
    {
        std::string error;
        const ReportPtr r = loadReport(
            PS_TESTDATA_DIR "/traces/ascend/msinsight__level1__rank0__ascend_pytorch_profiler_0.db", {}, error);
        QVERIFY2(r, error.c_str());
        const TimelineScene scene = buildScene({PreparedReport::prepare(r)}, {});
        const RowLayout l(scene, TrackView{});
        QSet<QString> labels;
        const Row *hccl = nullptr, *deep = nullptr;
        for (const Row &row : l.rows()) {
            if (row.isHeader())
                continue;
            QVERIFY2(!labels.contains(row.label), qPrintable(row.label));
            labels.insert(row.label);
            QVERIFY2(!row.label.contains("%enp"), qPrintable(row.label));
            if (row.label.startsWith("HCCL"))
                hccl = &row;
            if (row.hiddenLevels > 0)
                deep = &row;
        }
        QVERIFY(hccl);
        QCOMPARE(hccl->label, QString("HCCL · group 90.91.105.46:60000"));
        QVERIFY(deep);
        QCOMPARE(deep->levels, RowLayout::kMaxLanes);
        QCOMPARE(deep->height, RowLayout::kMaxLanes * RowLayout::kLaneHeight);
        const int all = deep->levels + deep->hiddenLevels;
        QVERIFY2(all > 20, qPrintable(QString::number(all)));
        QCOMPARE(deep->detail, QString("+%1 deeper levels (click)").arg(deep->hiddenLevels));

        TrackView full;
        full.fullDepth.insert(deep->key);
        const RowLayout unfolded(scene, full);
        const Row &same = unfolded.rows()[size_t(unfolded.rowOf(deep->entry, deep->track))];
        QCOMPARE(same.levels, all);
        QCOMPARE(same.hiddenLevels, 0);
    }

    void emptyScene()
    {
        const RowLayout l(TimelineScene{}, TrackView{});
        QVERIFY(l.isEmpty());
        QCOMPARE(l.rowAt(0), -1);
        QCOMPARE(l.totalHeight(), 0);
    }
};

QTEST_GUILESS_MAIN(TestRowLayout)
#include "tst_rowlayout.moc"
