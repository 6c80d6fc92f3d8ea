// The launch flow: selecting a kernel draws an arrow from the CUDA API call that launched it,
// selecting the call draws one to each kernel it launched; the arrow starts on the call and ends
// on the kernel as the canvas hit-tests them, on generated ranks and on a real nsys export.
#include "testreports.h"
#include "views/timeline/launchflow.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineworkspace.h"
#include "workspacewait.h"

#include <QtTest>

#include <algorithm>
#include <tuple>

using namespace ps::views;
using namespace ps::core::trace;
using ps::test::waitIdle;

namespace {
const QString kNsys = QStringLiteral(PS_TESTDATA_DIR "/traces/nsys/extrap__concurrent.s1.sqlite");

// A point just inside the event an arrow end touches: a pixel right of the start edge, a few
// pixels away from the other end vertically.
QPoint inside(QPointF end, QPointF other)
{
    const double away = end.y() == other.y() ? 0 : (end.y() < other.y() ? -3 : 3);
    return QPoint(int(end.x()) + 1, int(end.y() + away));
}

// The window from the start of `first` to the end of `last` in entry `entry`, with margins.
TimeWindow spanning(const TimelineScene &scene, int entry, EventRef first, EventRef last)
{
    const TimelineEntry &e = scene.entries[size_t(entry)];
    const EventStore &s = e.report->store();
    const int64_t a = s.track(first.track).start(first.index) + e.offset;
    const int64_t b = s.track(last.track).end(last.index) + e.offset;
    const int64_t pad = std::max<int64_t>(1000, (b - a) / 5);
    return {a - pad, b + pad};
}

// One call (a graph launch) with `kernels` kernels of its correlation id, 1 µs apart.
ReportPtr graphLaunch(int kernels)
{
    return ps::test::makeReport("/runs/run/graph.sqlite", [&](StoreBuilder &b) {
        const TrackHandle api = b.track({TrackKind::CudaApi, 100, 11, 0});
        const TrackHandle kern = b.track({TrackKind::Kernel, 100, 7, 0});
        b.add(api, 1000, 3000, b.intern("cudaGraphLaunch"), 5, uint16_t(ApiClass::Runtime));
        for (int k = 0; k < kernels; ++k)
            b.add(kern, 5000 + k * 1000, 5800 + k * 1000, b.intern("node"), 5, kNoLaunchConfig);
    });
}
// graphLaunch's call and kernels with `threads` other API threads between the call's row and the
// kernels' (calls that launch nothing), so that the two rows lie a screen apart.
ReportPtr graphLaunchBelowThreads(int threads)
{
    return ps::test::makeReport("/runs/run/graph.sqlite", [&](StoreBuilder &b) {
        const TrackHandle api = b.track({TrackKind::CudaApi, 100, 11, 0});
        b.add(api, 1000, 3000, b.intern("cudaGraphLaunch"), 5, uint16_t(ApiClass::Runtime));
        for (int t = 0; t < threads; ++t) {
            const TrackHandle other = b.track({TrackKind::CudaApi, 100, uint32_t(12 + t), 0});
            b.add(other, 1500, 2500, b.intern("cudaStreamSynchronize"), 0, uint16_t(ApiClass::Runtime));
        }
        const TrackHandle kern = b.track({TrackKind::Kernel, 100, 7, 0});
        b.add(kern, 5000, 5800, b.intern("node"), 5, kNoLaunchConfig);
    });
}
} // namespace

class TestLaunchFlow : public QObject
{
    Q_OBJECT

    // Draws the canvas and checks that every arrow runs from its call to its kernel: each end
    // on screen lies on its event as the canvas hit-tests it (an end may leave the screen, as
    // when the call's thread is scrolled away). Returns the ends checked, -1 when one missed.
    static int arrowEndsOnTheirEvents(TimelineWorkspace &w)
    {
        w.canvas()->grab();
        const QRect screen = w.canvas()->rect();
        const int entry = w.canvas()->selection()->entry;
        int checked = 0;
        for (const DrawnFlow &f : w.canvas()->launchFlow().lastFlows()) {
            for (const auto &[end, other, want, offScreen] :
                 {std::tuple{f.line.p1(), f.line.p2(), f.api, f.apiOffScreen},
                  std::tuple{f.line.p2(), f.line.p1(), f.work, f.workOffScreen}}) {
                const QPoint at = inside(end, other);
                if (!screen.contains(at) || offScreen) // an end at the lanes' edge marks an event past it
                    continue;
                const auto hit = w.canvas()->eventAt(at);
                if (!hit || *hit != TimelineSelection{entry, want}) {
                    qWarning("arrow (%g,%g)-(%g,%g) misses its %s at (%d,%d)", f.line.x1(), f.line.y1(), f.line.x2(),
                             f.line.y2(), want == f.api ? "call" : "work", at.x(), at.y());
                    return -1;
                }
                ++checked;
            }
        }
        return checked;
    }

    static bool arrowsTouchTheirEnds(TimelineWorkspace &w)
    {
        return arrowEndsOnTheirEvents(w) == 2 * int(w.canvas()->launchFlow().lastFlows().size());
    }

private slots:
    void kernelAndItsCallPointAtEachOther()
    {
        TimelineWorkspace w;
        w.resize(1400, 900);
        w.show();
        w.addReports({ps::test::makeRank(0, 3, 40'000), ps::test::makeRank(1, 3, 40'000)});
        QVERIFY(waitIdle(w));
        const int entry = 1;
        const EventRef call{1, 1}, kernel{2, 1}; // makeRank: API track 1, kernel track 2
        w.canvas()->reveal({entry, kernel});
        w.canvas()->setWindow(spanning(*w.scene(), entry, call, kernel));
        QVERIFY(arrowsTouchTheirEnds(w));
        QCOMPARE(w.canvas()->launchFlow().lastFlows().size(), size_t(1));
        QCOMPARE(w.canvas()->launchFlow().lastFlows()[0].api, call);
        QCOMPARE(w.canvas()->launchFlow().lastFlows()[0].work, kernel);

        w.canvas()->select(TimelineSelection{entry, call});
        QVERIFY(arrowsTouchTheirEnds(w));
        QCOMPARE(w.canvas()->launchFlow().lastFlows().size(), size_t(1));
        QCOMPARE(w.canvas()->launchFlow().lastFlows()[0].work, kernel);

        w.canvas()->select(TimelineSelection{entry, {0, 0}}); // an NVTX range launches nothing
        w.canvas()->grab();
        QVERIFY(w.canvas()->launchFlow().lastFlows().empty());
        w.canvas()->select(TimelineSelection{entry, kernel});
        QTest::keyClick(w.canvas(), Qt::Key_Escape);
        w.canvas()->grab();
        QVERIFY(w.canvas()->launchFlow().lastFlows().empty());
    }

    // A graph launch of 40 kernels: the first kMaxFlows in time get arrows, the rest are counted.
    void manyKernelsOfOneCallAreBounded()
    {
        TimelineWorkspace w;
        w.resize(1400, 900);
        w.show();
        w.addReports({graphLaunch(40)});
        QVERIFY(waitIdle(w));
        const EventRef call{0, 0};
        w.canvas()->reveal({0, call});
        w.canvas()->setWindow(spanning(*w.scene(), 0, call, {1, 39}));
        QVERIFY(arrowsTouchTheirEnds(w));
        const auto &flows = w.canvas()->launchFlow().lastFlows();
        QCOMPARE(flows.size(), LaunchFlow::kMaxFlows);
        QCOMPARE(w.canvas()->launchFlow().lastLeftOut(), 40 - LaunchFlow::kMaxFlows);
        for (size_t i = 0; i < flows.size(); ++i)
            QCOMPARE(flows[i].work, (EventRef{1, uint32_t(i)}));
    }

    // A call scrolled off the left of the screen: the arrow still starts on screen, at the lanes'
    // edge and marked, and ends on its kernel; and where the call's row touches the kernel's, the
    // arrow enters the kernel through its middle instead of running along the rows' border.
    void callOffScreenStartsAtTheEdge()
    {
        TimelineWorkspace w;
        w.resize(1400, 900);
        w.show();
        w.addReports({graphLaunch(3)});
        QVERIFY(waitIdle(w));
        const EventRef call{0, 0}, kernel{1, 2};
        w.canvas()->reveal({0, kernel});
        const TimelineEntry &e = w.scene()->entries[0];
        const int64_t kernelStart = e.report->store().track(1).start(2) + e.offset;
        w.canvas()->setWindow({kernelStart - 500, kernelStart + 1500}); // the call ended 4 µs before
        QCOMPARE(arrowEndsOnTheirEvents(w), 1);
        const DrawnFlow f = w.canvas()->launchFlow().lastFlows().at(0);
        QVERIFY(f.apiOffScreen && !f.workOffScreen);
        QCOMPARE(f.api, call);
        const int lanesStart = TimelineCanvas::kDefaultLabelWidth; // the label column at 1400 px
        QVERIFY2(f.line.x1() >= lanesStart && f.line.x1() <= lanesStart + 2, qPrintable(QString::number(f.line.x1())));
        QVERIFY(w.canvas()->rect().contains(f.line.p1().toPoint()));
        // The API row lies right above the kernel row: the line is no horizontal along their border.
        QVERIFY2(f.line.y2() - f.line.y1() >= 3, qPrintable(QString("%1 -> %2").arg(f.line.y1()).arg(f.line.y2())));
        const auto hit = w.canvas()->eventAt(f.line.p2().toPoint() + QPoint(1, 0));
        QVERIFY(hit && *hit == (TimelineSelection{0, kernel}));
    }

    // The call's row scrolled above the screen: the arrow starts at the lanes' top edge, marked,
    // pointing the way to its call, and ends on the kernel.
    void callScrolledAboveStartsAtTheTop()
    {
        TimelineWorkspace w;
        w.resize(1400, 500);
        w.show();
        w.addReports({graphLaunchBelowThreads(40)});
        QVERIFY(waitIdle(w));
        const uint32_t kernelTrack = 41;
        const EventRef call{0, 0}, kernel{kernelTrack, 0};
        QCOMPARE(w.scene()->entries[0].report->store().track(kernelTrack).kind(), TrackKind::Kernel);
        w.canvas()->reveal({0, kernel});
        w.canvas()->setWindow(spanning(*w.scene(), 0, call, kernel));
        w.canvas()->grab();
        const auto &flows = w.canvas()->launchFlow().lastFlows();
        QCOMPARE(flows.size(), size_t(1));
        const DrawnFlow f = flows[0];
        QCOMPARE(f.api, call);
        QVERIFY2(f.apiOffScreen && !f.workOffScreen, "the call's row is a screen above its kernel's");
        QVERIFY(w.canvas()->rect().contains(f.line.p1().toPoint()));
        QVERIFY2(f.line.y1() <= 3, qPrintable(QString::number(f.line.y1()))); // at the top edge
        QVERIFY(f.line.y2() > f.line.y1());
        QCOMPARE(arrowEndsOnTheirEvents(w), 1); // the kernel end lies on the kernel
    }

    // On a real export: every kernel the store correlates gets the arrow from its own call.
    void realExportKernelsPointAtTheirCalls()
    {
        TimelineWorkspace w;
        w.resize(1400, 900);
        w.show();
        w.openPaths({kNsys});
        QVERIFY(waitIdle(w));
        const EventStore &s = w.scene()->entries[0].report->store();
        int checked = 0, endsOnScreen = 0;
        for (uint32_t t = 0; t < s.tracks().size(); ++t) {
            if (s.track(t).kind() != TrackKind::Kernel)
                continue;
            for (uint32_t i = 0; i < s.track(t).size(); ++i) {
                const auto call = s.apiCallFor({t, i});
                if (!call)
                    continue;
                w.canvas()->reveal({0, {t, i}});
                w.canvas()->setWindow(spanning(*w.scene(), 0, *call, {t, i}));
                const int ends = arrowEndsOnTheirEvents(w);
                QVERIFY(ends >= 1); // the kernel, revealed; its call when its thread is on screen too
                endsOnScreen += ends;
                QCOMPARE(w.canvas()->launchFlow().lastFlows().size(), size_t(1));
                QCOMPARE(w.canvas()->launchFlow().lastFlows()[0].api, *call);
                ++checked;
            }
        }
        QVERIFY2(checked >= 10, qPrintable(QString::number(checked))); // the export has 12 kernels
        QVERIFY2(endsOnScreen > checked, "no call end was ever on screen beside its kernel");
    }
};

QTEST_MAIN(TestLaunchFlow)
#include "tst_launchflow.moc"
