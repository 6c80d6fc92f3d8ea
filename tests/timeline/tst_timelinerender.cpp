// `profstudio --render`: argument checks, time-range parsing, and a real render of the Extra-P
// sweep whose PNG has the requested size and shows lanes (coloured boxes right of the labels).
#include "app/gui/render.h"
#include "tests/support/envguard.h"
#include "views/scene/timeparse.h"
#include "views/timeline/timelinecanvas.h"

#include <QImage>
#include <QtTest>

using ps::app::RenderRequest;

class TestTimelineRender : public QObject
{
    Q_OBJECT
    QTemporaryDir m_cache;
    ps::test::EnvGuard m_cacheEnv{"PROFSTUDIO_CACHE_DIR"}; // never the user's cache

private slots:
    void initTestCase() { m_cacheEnv.set(m_cache.path().toUtf8()); }

    void timeValues_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<bool>("ok");
        QTest::newRow("ns default") << "1234" << qint64(1234) << true;
        QTest::newRow("ms") << "1.5ms" << qint64(1'500'000) << true;
        QTest::newRow("us") << "-20us" << qint64(-20'000) << true;
        QTest::newRow("µs") << QString::fromUtf8("3µs") << qint64(3'000) << true;
        QTest::newRow("s") << "2s" << qint64(2'000'000'000) << true;
        QTest::newRow("fractional ns") << "1.5" << qint64(0) << false;
        QTest::newRow("unit only") << "ms" << qint64(0) << false;
        QTest::newRow("unknown unit") << "3h" << qint64(0) << false;
    }
    void timeValues()
    {
        QFETCH(QString, text);
        QFETCH(qint64, ns);
        QFETCH(bool, ok);
        const auto v = ps::views::parseTimeValue(text);
        QCOMPARE(v.has_value(), ok);
        if (ok)
            QCOMPARE(*v, ns);
    }

    void ranges()
    {
        QCOMPARE(ps::views::parseTimeRange("0:50ms"), (std::optional<std::pair<int64_t, int64_t>>{{0, 50'000'000}}));
        QCOMPARE(ps::views::parseTimeRange("-1ms:1ms"),
                 (std::optional<std::pair<int64_t, int64_t>>{{-1'000'000, 1'000'000}}));
        QVERIFY(!ps::views::parseTimeRange("5ms:1ms"));
        QVERIFY(!ps::views::parseTimeRange("5ms"));
    }

    void badUsage()
    {
        const QString sample = PS_TESTDATA_DIR "/traces/nsys/extrap__concurrent.s1.sqlite";
        QCOMPARE(ps::app::runRender({{sample}, "", "800x600", "", ""}), 2);
        QCOMPARE(ps::app::runRender({{}, "/tmp/x.png", "800x600", "", ""}), 2);
        QCOMPARE(ps::app::runRender({{sample}, "/tmp/x.png", "big", "", ""}), 2);
        QCOMPARE(ps::app::runRender({{sample}, "/tmp/x.png", "800x600", "9:1", ""}), 2);
        QCOMPARE(ps::app::runRender({{sample}, "/tmp/x.png", "800x600", "", "range:x#0"}), 2);
        QCOMPARE(ps::app::runRender({{"/nonexistent/a.sqlite"}, "/tmp/x.png", "800x600", "", ""}), 1);
    }

    void rendersTheSweep()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("sweep.png");
        QStringList reports;
        for (const char *s : {"s1", "s2", "s4", "s8"})
            reports
                << QStringLiteral(PS_TESTDATA_DIR "/traces/nsys/extrap__concurrent.%1.sqlite").arg(QLatin1String(s));
        QCOMPARE(ps::app::runRender({reports, out, "1200x700", "", "start"}), 0);
        const QImage img(out);
        QCOMPARE(img.size(), QSize(1200, 700));
        // Lanes: some saturated pixels right of the label column.
        int coloured = 0;
        for (int y = 40; y < img.height(); y += 2)
            for (int x = ps::views::TimelineCanvas::kDefaultLabelWidth + 2; x < img.width() - 20; x += 2) {
                const QColor c = img.pixelColor(x, y);
                coloured += c.saturation() > 40 ? 1 : 0;
            }
        QVERIFY2(coloured > 50, qPrintable(QString::number(coloured)));
    }
};

QTEST_MAIN(TestTimelineRender)
#include "tst_timelinerender.moc"
