// The Statistics pane's summary line names the visible window as the time axis does: wall-clock
// dates when the reports are aligned by UTC ("2026-… UTC", not "1764000000.123456 s" of epoch
// seconds), time from the aligned origin otherwise. On a demo run (real nsys schema, UTC origins).
#include "tests/support/demorun.h"
#include "tests/support/testsandbox.h"
#include "tests/timeline/workspacewait.h"
#include "views/scene/timeformat.h"
#include "views/stats/statspane.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineworkspace.h"

#include <QLabel>
#include <QRegularExpression>
#include <QtTest>

using namespace ps::views;

class TestStatsSummary : public QObject
{
    Q_OBJECT
    ps::test::TestSandbox m_tmp; // scratch files and the report cache

private slots:
    void summaryTimesFollowTheAxis()
    {
        const auto demo = writeTestDemo(m_tmp.filePath("run"), 2, 2, ps::core::demo::DemoOptions{}.seed);
        TimelineWorkspace w;
        w.resize(1366, 768);
        w.show();
        w.openPaths({QString::fromStdString(demo.reportDir)});
        QVERIFY(ps::test::waitIdle(w));
        QVERIFY(w.setAlignment("utc"));
        QVERIFY(ps::test::waitIdle(w));
        const auto origin = w.canvas()->state()->wallClockOrigin();
        QVERIFY(origin); // the axis shows dates
        const QString utc = w.stats()->summary()->text();
        const TimeWindow win = w.canvas()->window();
        QVERIFY2(utc.contains(formatWallClock(*origin + win.start, 1000)), qPrintable(utc));
        QVERIFY2(utc.contains(formatWallClock(*origin + win.end, 1000)), qPrintable(utc));
        QVERIFY2(!utc.contains(QRegularExpression("\\d{9,}")), qPrintable(utc)); // no epoch seconds

        QVERIFY(w.setAlignment("start"));
        QVERIFY(ps::test::waitIdle(w));
        QVERIFY(!w.canvas()->state()->wallClockOrigin());
        const QString relative = w.stats()->summary()->text();
        QVERIFY2(!relative.contains("UTC"), qPrintable(relative));
        QVERIFY2(relative.contains(formatAxisTime(w.canvas()->window().start, 1000)), qPrintable(relative));
    }
};

QTEST_MAIN(TestStatsSummary)
#include "tst_statssummary.moc"
