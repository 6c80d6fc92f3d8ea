// Adaptive units of durations and axis labels, 1-2-5 tick steps, and the ruler's label.
#include "views/scene/timeformat.h"
#include "views/timeline/rulerlabel.h"

#include <QtTest>

using namespace ps::views;

class TestTimeFormat : public QObject
{
    Q_OBJECT
private slots:
    void duration_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("0") << qint64(0) << "0 ns";
        QTest::newRow("ns") << qint64(950) << "950 ns";
        QTest::newRow("us") << qint64(1500) << QString::fromUtf8("1.50 µs");
        QTest::newRow("10us") << qint64(12'340) << QString::fromUtf8("12.3 µs");
        QTest::newRow("ms") << qint64(2'345'678) << "2.35 ms";
        QTest::newRow("100ms") << qint64(123'456'789) << "123 ms";
        QTest::newRow("s") << qint64(61'000'000'000) << "61.0 s";
        QTest::newRow("under an hour") << qint64(3'599'000'000'000) << "3599 s";
        QTest::newRow("hours") << qint64(5'400'000'000'000) << "1.50 h";
        QTest::newRow("days apart") << qint64(-1'682'725'897'000'000'000) << "-19476 d";
        QTest::newRow("negative") << qint64(-1500) << QString::fromUtf8("-1.50 µs");
    }
    void duration()
    {
        QFETCH(qint64, ns);
        QFETCH(QString, text);
        QCOMPARE(formatDuration(ns), text);
    }

    void axis_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << qint64(1000) << "0";
        QTest::newRow("ms step half") << qint64(1'500'000) << qint64(500'000) << "1.5 ms";
        QTest::newRow("whole ms") << qint64(2'000'000) << qint64(1'000'000) << "2 ms";
        QTest::newRow("negative us") << qint64(-2000) << qint64(1000) << QString::fromUtf8("-2 µs");
        QTest::newRow("s with ms step") << qint64(12'345'000'000) << qint64(5'000'000) << "12.345 s";
        QTest::newRow("small step big value") << qint64(3'000'000'020) << qint64(20) << "3.00000002 s";
        QTest::newRow("ns") << qint64(40) << qint64(20) << "40 ns";
        // An hour in: exact integer arithmetic, no double rounding.
        QTest::newRow("hour") << qint64(3'600'000'000'001) << qint64(1) << "3600.000000001 s";
    }
    void axis()
    {
        QFETCH(qint64, ns);
        QFETCH(qint64, step);
        QFETCH(QString, text);
        QCOMPARE(formatAxisTime(ns, step), text);
    }

    void steps_data()
    {
        QTest::addColumn<qint64>("duration");
        QTest::addColumn<double>("width");
        QTest::addColumn<qint64>("step");
        QTest::newRow("1 s on 1000 px, 90 px apart") << qint64(1'000'000'000) << 1000.0 << qint64(100'000'000);
        QTest::newRow("needs 2") << qint64(1'500'000) << 1000.0 << qint64(200'000);
        QTest::newRow("needs 5") << qint64(4'000) << 1000.0 << qint64(500);
        QTest::newRow("tiny") << qint64(100) << 1000.0 << qint64(10);
    }
    void steps()
    {
        QFETCH(qint64, duration);
        QFETCH(double, width);
        QFETCH(qint64, step);
        QCOMPARE(tickStep(duration, width, 90), step);
    }

    // A window in UTC epoch time has labels like "1736410576.45 s": ticks spread until the
    // labels fit between them (they overlapped on the Ascend sample); short labels keep 90 px.
    void readableTicksLeaveRoomForTheirLabels()
    {
        const int64_t start = 1'736'410'576'371'876'000, end = 1'736'410'576'550'726'000;
        const double width = 800, charWidth = 7;
        const AxisTicks t = computeReadableTicks(start, end, width, charWidth);
        QVERIFY(t.ticks.size() >= 2);
        const double spacingPx = width * double(t.step) / double(end - start);
        const double labelPx = charWidth * double(formatAxisTime(t.ticks.front(), t.step).size());
        QVERIFY2(spacingPx >= labelPx + 12, qPrintable(QString("%1 px for %2 px").arg(spacingPx).arg(labelPx)));
        QCOMPARE(computeReadableTicks(0, 100'000'000, 1000, 7).step, computeTicks(0, 100'000'000, 1000).step);
    }

    void ticksAreMultiplesInsideTheWindow()
    {
        const AxisTicks t = computeTicks(-1'234'567, 8'765'432, 1000);
        QVERIFY(!t.ticks.isEmpty());
        for (qint64 v : t.ticks) {
            QCOMPARE(v % t.step, 0);
            QVERIFY(v >= -1'234'567 && v <= 8'765'432);
        }
        QVERIFY(t.ticks.front() - t.step < -1'234'567);
        QVERIFY(t.ticks.size() <= 12);
    }

    // The ruler says where it starts and ends, not only how long it is (#38), with the decimals
    // its length needs, on a relative axis and on one in UTC.
    void rulerSaysStartEndAndDuration()
    {
        QCOMPARE(rulerLabel(44'001'200'000, 44'013'500'000, std::nullopt),
                 QStringLiteral("12.3 ms: 44.0012 s → 44.0135 s"));
        QCOMPARE(rulerLabel(1'500, 2'250, std::nullopt), QStringLiteral("750 ns: 1.5 µs → 2.25 µs"));
        const int64_t origin = 1'736'410'576'000'000'000; // 2025-01-09 08:16:16 UTC
        const QString utc = rulerLabel(380'000'000, 392'000'000, origin);
        QVERIFY2(utc.startsWith(QStringLiteral("12.0 ms: 2025-01-09 08:16:16.380")) &&
                     utc.contains(QStringLiteral("→ 2025-01-09 08:16:16.392")),
                 qPrintable(utc));
    }
};

QTEST_GUILESS_MAIN(TestTimeFormat)
#include "tst_timeformat.moc"
