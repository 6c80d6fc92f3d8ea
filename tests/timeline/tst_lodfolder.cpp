// LOD folding and hit-testing of one lane: wide events stay boxes, touching sub-pixel runs fold
// into one mark with their count, gaps and wide events split runs, the window clips, output is
// bounded by the pixel width, and hits find the event (or the nearest narrow one) under a pixel.
#include "testreports.h"
#include "views/scene/preparedreport.h"
#include "views/timeline/lodfolder.h"

#include <QtTest>

#include <random>

using namespace ps::views;
using namespace ps::core::trace;
using Events = QVector<QPair<qint64, qint64>>; // [start, end)

Q_DECLARE_METATYPE(Events)

namespace {
std::shared_ptr<const EventStore> storeOf(const Events &events)
{
    StoreBuilder b;
    const TrackHandle t = b.track({TrackKind::Kernel, 1, 7, 0});
    const NameId n = b.intern("k");
    for (const auto &e : events)
        b.add(t, e.first, e.second, n);
    return std::make_shared<EventStore>(std::move(b).build());
}

QString describe(const std::vector<LodMark> &marks)
{
    QStringList parts;
    for (const LodMark &m : marks)
        parts << QStringLiteral("%1-%2:%3x%4")
                     .arg(QString::number(double(m.x0), 'g', 5), QString::number(double(m.x1), 'g', 5))
                     .arg(m.index)
                     .arg(m.count);
    return parts.join(QLatin1Char(' '));
}
} // namespace

class TestLodFolder : public QObject
{
    Q_OBJECT
private slots:
    void fold_data()
    {
        QTest::addColumn<Events>("events");
        QTest::addColumn<qint64>("t0");
        QTest::addColumn<qint64>("t1");
        QTest::addColumn<double>("width");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<QString>("marks"); // x0-x1:firstIndex x count

        QTest::newRow("wide events are boxes") << Events{{0, 100}, {200, 300}} << qint64(0) << qint64(1000) << 1000.0
                                               << qint64(0) << "0-100:0x1 200-300:1x1";
        Events dense;
        for (int i = 0; i < 1000; ++i)
            dense.append({2 * i, 2 * i + 1});
        // 20 ns per pixel: 1000 one-ns events over 100 px fold into one mark.
        QTest::newRow("touching sub-pixel run folds")
            << dense << qint64(0) << qint64(2000) << 100.0 << qint64(0) << "0-99.95:0x1000";
        Events clusters;
        for (int i = 0; i < 10; ++i)
            clusters.append({i * 2, i * 2 + 1});
        for (int i = 0; i < 10; ++i)
            clusters.append({1000 + i * 2, 1000 + i * 2 + 1});
        QTest::newRow("a gap splits folds")
            << clusters << qint64(0) << qint64(2000) << 100.0 << qint64(0) << "0-1:0x10 50-51:10x10";
        QTest::newRow("a wide event between narrow ones keeps its box")
            << Events{{0, 1}, {3, 4}, {6, 600}, {601, 602}, {603, 604}} << qint64(0) << qint64(1000) << 100.0
            << qint64(0) << "0-1:0x2 0.6-60:2x1 60.1-61.1:3x2";
        QTest::newRow("window clips and clamps") << Events{{-5000, 50}, {100, 200}, {5000, 6000}} << qint64(0)
                                                 << qint64(1000) << 1000.0 << qint64(0) << "-4-50:0x1 100-200:1x1";
        QTest::newRow("events ending before the window are skipped")
            << Events{{0, 10}, {20, 30}, {40, 50}, {500, 600}} << qint64(100) << qint64(1100) << 1000.0 << qint64(0)
            << "400-500:3x1";
        QTest::newRow("offset shifts onto the shared axis")
            << Events{{0, 100}} << qint64(1000) << qint64(2000) << 1000.0 << qint64(1500) << "500-600:0x1";
        QTest::newRow("empty window") << Events{{0, 100}} << qint64(500) << qint64(1500) << 1000.0 << qint64(0) << "";
    }
    void fold()
    {
        QFETCH(Events, events);
        QFETCH(qint64, t0);
        QFETCH(qint64, t1);
        QFETCH(double, width);
        QFETCH(qint64, offset);
        QFETCH(QString, marks);
        const auto store = storeOf(events);
        std::vector<LodMark> out;
        foldLane({&store->track(0), {}}, TimeMapping({t0, t1}, width), offset, out);
        QCOMPARE(describe(out), marks);
    }

    void foldedCountsAddUpToTheVisibleEvents()
    {
        std::mt19937_64 rng(7);
        Events ev;
        qint64 t = 0;
        for (int i = 0; i < 200'000; ++i) {
            t += 1 + qint64(rng() % 50);
            const qint64 d = 1 + qint64(rng() % 40);
            ev.append({t, t + d});
            t += d;
        }
        const auto store = storeOf(ev);
        const Track &tr = store->track(0);
        for (const auto &[a, b] : {std::pair<qint64, qint64>{0, t}, {t / 3, t / 3 + t / 100}, {t / 2, t / 2 + 5000}}) {
            std::vector<LodMark> out;
            foldLane({&tr, {}}, TimeMapping({a, b}, 1920), 0, out);
            size_t folded = 0, expected = 0;
            for (const LodMark &m : out)
                folded += m.count;
            for (size_t i = 0; i < tr.size(); ++i)
                expected += (tr.end(i) > a && tr.start(i) < b) ? 1 : 0;
            QCOMPARE(folded, expected);
            // Output is bounded by pixels, not events.
            QVERIFY2(out.size() <= 2 * 1920, qPrintable(QString::number(out.size())));
            for (size_t i = 1; i < out.size(); ++i)
                QVERIFY(out[i].x0 >= out[i - 1].x0);
        }
    }

    void levelsFoldSeparately()
    {
        // Nested ranges: level 0 [0,1000), level 1 [100,200) and [300,400).
        auto rep = ps::test::makeReport("/x.sqlite", [](StoreBuilder &b) {
            const TrackHandle t = b.track({TrackKind::NvtxPushPop, 1, 1, 0});
            b.add(t, 0, 1000, b.intern("outer"));
            b.add(t, 100, 200, b.intern("a"));
            b.add(t, 300, 400, b.intern("b"));
        });
        const auto prep = PreparedReport::prepare(rep);
        const Track &t = rep->store->track(0);
        QCOMPARE(t.levelCount(), uint16_t(2));
        std::vector<LodMark> l0, l1;
        foldLane({&t, prep->levelIndices(0, 0)}, TimeMapping({0, 1000}, 1000), 0, l0);
        foldLane({&t, prep->levelIndices(0, 1)}, TimeMapping({0, 1000}, 1000), 0, l1);
        QCOMPARE(describe(l0), QStringLiteral("0-1000:0x1"));
        QCOMPARE(describe(l1), QStringLiteral("100-200:1x1 300-400:2x1"));
    }

    void hit_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<qint64>("index");
        // 10 ns per pixel over [0, 1000): events [100,200) -> x 10..20, [300,301) -> x 30..30.1,
        // [600,900) -> x 60..90.
        QTest::newRow("inside a box") << 15.0 << qint64(0);
        QTest::newRow("left edge") << 10.0 << qint64(0);
        QTest::newRow("just past the end, within slop") << 21.0 << qint64(0);
        QTest::newRow("narrow event within slop") << 31.5 << qint64(1);
        QTest::newRow("nothing near") << 45.0 << qint64(-1);
        QTest::newRow("inside the last") << 89.0 << qint64(2);
        QTest::newRow("outside the window") << 150.0 << qint64(-1);
    }
    void hit()
    {
        QFETCH(double, x);
        QFETCH(qint64, index);
        const auto store = storeOf({{100, 200}, {300, 301}, {600, 900}});
        const TimeMapping m({0, 1000}, 100);
        QCOMPARE(hitTestLane({&store->track(0), {}}, m, 0, x), index);
    }

    void hitWithOffset()
    {
        const auto store = storeOf({{100, 200}});
        const TimeMapping m({0, 1000}, 100);
        QCOMPARE(hitTestLane({&store->track(0), {}}, m, 500, 65.0), qint64(0)); // shared [600,700)
        QCOMPARE(hitTestLane({&store->track(0), {}}, m, 500, 15.0), qint64(-1));
    }

    void markAtFindsTheDrawnMark()
    {
        const std::vector<LodMark> marks{{0, 10, 0, 1}, {20, 21, 1, 5}, {50, 80, 6, 1}};
        QCOMPARE(markAt(marks, 5), 0);
        QCOMPARE(markAt(marks, 20.5), 1);
        QCOMPARE(markAt(marks, 21.5), 1); // within a pixel of slop
        QCOMPARE(markAt(marks, 35), -1);
        QCOMPARE(markAt(marks, 79), 2);
        QCOMPARE(markAt(marks, 200), -1);
    }
};

QTEST_GUILESS_MAIN(TestLodFolder)
#include "tst_lodfolder.moc"
