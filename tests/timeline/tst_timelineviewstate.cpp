// The timeline's view state (views/timeline/timelineviewstate.h): window, scroll, selection and
// ruler emit exactly once per real change and never for a value they already hold.
#include "views/timeline/timelineviewstate.h"

#include <QSignalSpy>
#include <QtTest>

using ps::views::TimelineSelection;
using ps::views::TimelineViewState;
using ps::views::TimeMapping;
using ps::views::TimeWindow;

class TestTimelineViewState : public QObject
{
    Q_OBJECT
private slots:
    void windowEmitsOnlyOnChange()
    {
        TimelineViewState s;
        s.setWidth(1000);
        QSignalSpy spy(&s, &TimelineViewState::windowChanged);
        const TimeWindow limits{-1'000'000, 1'000'000};
        s.setMapping(TimeMapping({0, 5000}, 1000), limits);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(s.window(), (TimeWindow{0, 5000}));
        s.setMapping(TimeMapping({0, 5000}, 1000), limits); // the same again
        QCOMPARE(spy.count(), 1);
        s.setWidth(1000); // same width
        QCOMPARE(spy.count(), 1);
        s.setWidth(800);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(s.mapping().width(), 800.0);
        QCOMPARE(s.window(), (TimeWindow{0, 5000})); // a resize keeps the window
    }

    void windowIsClampedToTheLimits()
    {
        TimelineViewState s;
        s.setWidth(1000);
        // A window inside the limits' length is moved back inside them...
        s.setMapping(TimeMapping({-2'000, 3'000}, 1000), {0, 10'000});
        QCOMPARE(s.window(), (TimeWindow{0, 5'000}));
        s.setMapping(TimeMapping({8'000, 13'000}, 1000), {0, 10'000});
        QCOMPARE(s.window(), (TimeWindow{5'000, 10'000}));
        // ...one wider than the limits (zoomed out past the data) is centred on them.
        s.setMapping(TimeMapping({-50'000, 50'000}, 1000), {0, 10'000});
        QCOMPARE(s.window(), (TimeWindow{-45'000, 55'000}));
    }

    void scrollIsClampedAndEmitsOnlyOnChange()
    {
        TimelineViewState s;
        QSignalSpy spy(&s, &TimelineViewState::scrollChanged);
        s.setScrollY(-20, 100);
        QCOMPARE(spy.count(), 0); // already 0
        s.setScrollY(500, 100);
        QCOMPARE(s.scrollY(), 100);
        QCOMPARE(spy.count(), 1);
        s.setScrollY(120, 100);
        QCOMPARE(spy.count(), 1);
    }

    void selectionAndRulerEmitOnlyOnChange()
    {
        TimelineViewState s;
        QSignalSpy sel(&s, &TimelineViewState::selectionChanged);
        QSignalSpy ruler(&s, &TimelineViewState::rulerChanged);
        s.select(std::nullopt);
        QCOMPARE(sel.count(), 0);
        s.select(TimelineSelection{2, {3, 4}});
        s.select(TimelineSelection{2, {3, 4}});
        QCOMPARE(sel.count(), 1);
        s.select(TimelineSelection{2, {3, 5}});
        QCOMPARE(sel.count(), 2);
        s.setRuler(TimeWindow{10, 20});
        s.setRuler(TimeWindow{10, 20});
        QCOMPARE(ruler.count(), 1);
        s.setRuler(std::nullopt);
        QCOMPARE(ruler.count(), 2);
        QVERIFY(!s.ruler());
    }
};

QTEST_GUILESS_MAIN(TestTimelineViewState)
#include "tst_timelineviewstate.moc"
