// Time <-> pixel mapping of the shared axis: edges, middle, outside, epoch-sized times, zoom about
// a pixel, pan, and clamping to the data.
#include "views/scene/timemapping.h"

#include <QtTest>

using ps::views::TimeMapping;
using ps::views::TimeWindow;

Q_DECLARE_METATYPE(TimeWindow)

class TestTimeMapping : public QObject
{
    Q_OBJECT
private slots:
    void timeToPixel_data()
    {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<double>("width");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<double>("x");
        QTest::newRow("start") << qint64(0) << qint64(1000) << 100.0 << qint64(0) << 0.0;
        QTest::newRow("end") << qint64(0) << qint64(1000) << 100.0 << qint64(1000) << 100.0;
        QTest::newRow("middle") << qint64(0) << qint64(1000) << 100.0 << qint64(500) << 50.0;
        QTest::newRow("before") << qint64(0) << qint64(1000) << 100.0 << qint64(-500) << -50.0;
        QTest::newRow("after") << qint64(0) << qint64(1000) << 100.0 << qint64(3000) << 300.0;
        QTest::newRow("negative window") << qint64(-2000) << qint64(-1000) << 1000.0 << qint64(-1500) << 500.0;
        // Epoch-sized: 1.7e18 ns. A double cannot hold the raw value to the ns, but the offset from
        // the window start is exact.
        QTest::newRow("epoch ns exact") << qint64(1'700'000'000'000'000'001LL) << qint64(1'700'000'000'000'001'001LL)
                                        << 1000.0 << qint64(1'700'000'000'000'000'002LL) << 1.0;
        QTest::newRow("1 px per ns") << qint64(10) << qint64(1930) << 1920.0 << qint64(11) << 1.0;
    }
    void timeToPixel()
    {
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(double, width);
        QFETCH(qint64, t);
        QFETCH(double, x);
        const TimeMapping m({start, end}, width);
        QCOMPARE(m.x(t), x);
        // And back, to the ns.
        QCOMPARE(m.time(x), t);
    }

    void offsetAppliesInIntegers()
    {
        const TimeMapping m({1'000'000'000'000'000'000LL, 1'000'000'000'000'001'000LL}, 1000);
        // own time + offset lands exactly on the pixel.
        QCOMPARE(m.x(5, 1'000'000'000'000'000'000LL), 5.0);
    }

    void zoomKeepsThePivot_data()
    {
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("x");
        QTest::newRow("in at left") << 2.0 << 0.0;
        QTest::newRow("in at middle") << 2.0 << 500.0;
        QTest::newRow("in at right") << 4.0 << 1000.0;
        QTest::newRow("out at 250") << 0.5 << 250.0;
        QTest::newRow("in 1.19 at 733") << 1.19 << 733.0;
    }
    void zoomKeepsThePivot()
    {
        QFETCH(double, factor);
        QFETCH(double, x);
        const TimeMapping m({1'000'000, 2'000'000}, 1000);
        const TimeMapping z = m.zoomed(factor, x);
        QVERIFY(qAbs(z.time(x) - m.time(x)) <= 1);
        QVERIFY(qAbs(double(z.window().duration()) - 1'000'000.0 / factor) <= 1.0);
    }

    void zoomStopsAtMinimumDuration()
    {
        TimeMapping m({0, 1000}, 1000);
        for (int i = 0; i < 50; ++i)
            m = m.zoomed(2, 500);
        QCOMPARE(m.window().duration(), TimeMapping::kMinDuration);
    }

    void pan()
    {
        const TimeMapping m({0, 1000}, 100);
        QCOMPARE(m.panned(10).window(), (TimeWindow{100, 1100}));
        QCOMPARE(m.panned(-25).window(), (TimeWindow{-250, 750}));
    }

    void clamp_data()
    {
        QTest::addColumn<TimeWindow>("in");
        QTest::addColumn<TimeWindow>("limits");
        QTest::addColumn<TimeWindow>("out");
        QTest::newRow("inside") << TimeWindow{100, 200} << TimeWindow{0, 1000} << TimeWindow{100, 200};
        QTest::newRow("left of limits") << TimeWindow{-300, -100} << TimeWindow{0, 1000} << TimeWindow{0, 200};
        QTest::newRow("right of limits") << TimeWindow{900, 1200} << TimeWindow{0, 1000} << TimeWindow{700, 1000};
        QTest::newRow("wider than limits is centred")
            << TimeWindow{0, 4000} << TimeWindow{0, 1000} << TimeWindow{-1500, 2500};
        QTest::newRow("too narrow is widened") << TimeWindow{500, 510} << TimeWindow{0, 1000} << TimeWindow{455, 555};
    }
    void clamp()
    {
        QFETCH(TimeWindow, in);
        QFETCH(TimeWindow, limits);
        QFETCH(TimeWindow, out);
        QCOMPARE(ps::views::clampWindow(in, limits), out);
    }
};

QTEST_GUILESS_MAIN(TestTimeMapping)
#include "tst_timemapping.moc"
