// Row layout: groups (run, worker group, rank) over reports over tracks over levels, empty
// tracks hidden, collapsed headers hiding what is under them, y lookups.
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
        return PreparedReport::prepare(r);
    };
    return {withEmptyTrack(0, 1), withEmptyTrack(1, 1), withEmptyTrack(1, 2)};
}

QStringList describe(const RowLayout &l)
{
    QStringList out;
    for (const Row &r : l.rows()) {
        const char *k = r.kind == RowKind::Group ? "G" : r.kind == RowKind::Report ? "R" : "T";
        out << QStringLiteral("%1%2 %3 y%4 h%5").arg(k).arg(r.depth).arg(r.label).arg(r.y).arg(r.height);
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
        const RowLayout l(scene, {});
        const QStringList expected{
            "G0 run y0 h20",
            "G1 ActorGroup y20 h20",
            "R2 ActorGroup r0 y40 h20",
            "T3 NVTX · thread [1] y60 h32", // two levels
            "T3 Kernels · GPU 0 · stream 7 y92 h16",
            "G2 ActorGroup rank 1 y108 h20", // two capture ranges: a rank header
            "R3 ActorGroup r1 y128 h20",
            "T4 NVTX · thread [1] y148 h32",
            "T4 Kernels · GPU 0 · stream 7 y180 h16",
            "R3 ActorGroup r1 y196 h20",
            "T4 NVTX · thread [1] y216 h32",
            "T4 Kernels · GPU 0 · stream 7 y248 h16",
        };
        QCOMPARE(describe(l), expected);
        QCOMPARE(l.totalHeight(), 264);
    }

    void collapsingHidesWhatIsBelow_data()
    {
        QTest::addColumn<QStringList>("collapsed");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("height");
        QTest::newRow("nothing") << QStringList{} << 12 << 264;
        QTest::newRow("run") << QStringList{"group:run"} << 1 << 20;
        QTest::newRow("worker group") << QStringList{"group:run/ActorGroup"} << 2 << 40;
        QTest::newRow("rank 1") << QStringList{"group:run/ActorGroup/ActorGroup rank 1"} << 6 << 128;
        QTest::newRow("one report") << QStringList{"report:/runs/run/r0_s1.sqlite"} << 10 << 216;
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
        QTest::newRow("nvtx level 0") << 60 << 3 << 0;
        QTest::newRow("nvtx level 1") << 80 << 3 << 1;
        QTest::newRow("last px of nvtx") << 91 << 3 << 1;
        QTest::newRow("kernel row") << 92 << 4 << 0;
        QTest::newRow("below") << 264 << -1 << 0;
        QTest::newRow("above") << -1 << -1 << 0;
    }
    void lookups()
    {
        QFETCH(int, y);
        QFETCH(int, row);
        QFETCH(int, lane);
        const TimelineScene scene = buildScene(reports(), {});
        const RowLayout l(scene, {});
        QCOMPARE(l.rowAt(y), row);
        if (row >= 0 && l.rows()[size_t(row)].kind == RowKind::Track)
            QCOMPARE(RowLayout::laneAt(l.rows()[size_t(row)], y), lane);
    }

    void rowsInViewport()
    {
        const TimelineScene scene = buildScene(reports(), {});
        const RowLayout l(scene, {});
        QCOMPARE(l.rowsIn(0, 60), (std::pair<int, int>{0, 3}));
        QCOMPARE(l.rowsIn(61, 100), (std::pair<int, int>{3, 5}));
        QCOMPARE(l.rowsIn(300, 400), (std::pair<int, int>{12, 12}));
        QCOMPARE(l.rowOf(2, 2), -1); // the memcpy track is empty, hence hidden
        QCOMPARE(l.rowOf(2, 1) >= 0, true);
        QCOMPARE(l.reportRowOf(1), 6);
    }

    void emptyScene()
    {
        const RowLayout l(TimelineScene{}, {});
        QVERIFY(l.isEmpty());
        QCOMPARE(l.rowAt(0), -1);
        QCOMPARE(l.totalHeight(), 0);
    }
};

QTEST_GUILESS_MAIN(TestRowLayout)
#include "tst_rowlayout.moc"
