// The timeline canvas driven like a user would: wheel and Ctrl+wheel zoom about the cursor, drag
// pans, W/A/S/D, click selects, double-click zooms to the event, Shift-drag measures, F fits,
// Esc clears, a click on a header collapses it; asserting the visible window, the selection,
// the ruler, the tooltip text and the pixels drawn. Geometry (see testreports.h): three ranks,
// canvas 1260 px wide = 260 px labels + 1000 px lanes; rows of rank 0: header y 40, NVTX
// y 60..92 (two levels), CUDA API y 92..108, kernels y 108..124.
#include "canvasinput.h"
#include "testreports.h"
#include "views/common/namecolors.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineview.h"

#include <algorithm>

#include <QMenu>
#include <QToolTip>
#include <QtTest>
#include <qcustomplot.h>

using namespace ps::views;
using namespace ps::core::trace;
using namespace ps::test; // canvasinput.h

Q_DECLARE_METATYPE(TimeWindow)

namespace {
constexpr int64_t kMs = 1'000'000;

std::shared_ptr<const TimelineScene> threeRanks()
{
    std::vector<PreparedReportPtr> reps;
    for (int r = 0; r < 3; ++r)
        reps.push_back(PreparedReport::prepare(ps::test::makeRank(r, 4, 10 * kMs)));
    return std::make_shared<TimelineScene>(buildScene(reps, {}));
}

struct Fixture
{
    TimelineCanvas canvas;
    Fixture()
    {
        canvas.resize(1260, 600);
        canvas.setScene(threeRanks());
        canvas.setWindow({0, 20 * kMs}); // 20 µs per pixel
        canvas.show();
        QVERIFY(QTest::qWaitForWindowExposed(&canvas));
    }
};

void wheel(QWidget *w, QPoint pos, int dy, Qt::KeyboardModifiers mods = Qt::NoModifier)
{
    QWheelEvent e(QPointF(pos), w->mapToGlobal(QPointF(pos)), QPoint(), QPoint(0, dy), Qt::NoButton, mods,
                  Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(w, &e);
}
} // namespace

class TestTimelineCanvas : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QCoreApplication::setAttribute(Qt::AA_Use96Dpi); }

    void fitsTheDataOnFirstScene()
    {
        TimelineCanvas c;
        c.resize(1260, 600);
        c.setScene(threeRanks());
        // Steps start at 1 ms and the last ends at 311 ms; 2 % air on each side.
        QCOMPARE(c.window(), (TimeWindow{1 * kMs - 6'200'000, 311 * kMs + 6'200'000}));
    }

    // Nsight Systems / Perfetto conventions: Ctrl+wheel zooms about the cursor, the wheel
    // scrolls the rows, Shift+wheel and a horizontal wheel pan.
    void ctrlWheelZoomsAboutTheCursor()
    {
        Fixture f;
        const int64_t under = f.canvas.mapping().time(500); // 10 ms, at canvas x 760
        QCOMPARE(under, 10 * kMs);
        wheel(&f.canvas, {760, 300}, 120, Qt::ControlModifier);
        QVERIFY(qAbs(f.canvas.mapping().time(500) - under) <= 1);
        QVERIFY(qAbs(double(f.canvas.window().duration()) - 20.0 * kMs / std::pow(2.0, 0.25)) < 2);
        wheel(&f.canvas, {760, 300}, -120, Qt::ControlModifier);
        QVERIFY(qAbs(f.canvas.window().duration() - 20 * kMs) <= 2);
    }

    void wheelScrollsAndShiftWheelPans()
    {
        Fixture f;
        f.canvas.resize(1260, 120); // fewer rows fit than there are
        const TimeWindow before = f.canvas.window();
        wheel(&f.canvas, {760, 60}, -120, Qt::NoModifier);
        QCOMPARE(f.canvas.scrollY(), 60);
        QCOMPARE(f.canvas.window(), before); // no zoom
        wheel(&f.canvas, {760, 60}, 120, Qt::NoModifier);
        QCOMPARE(f.canvas.scrollY(), 0);
        wheel(&f.canvas, {760, 60}, -120, Qt::ShiftModifier);
        QCOMPARE(f.canvas.window(), (TimeWindow{before.start + 60 * 20'000, before.end + 60 * 20'000}));
        QCOMPARE(f.canvas.scrollY(), 0);
    }

    void dragPans()
    {
        Fixture f;
        QSignalSpy spy(&f.canvas, &TimelineCanvas::windowChanged);
        drag(&f.canvas, {700, 300}, {600, 300});
        QCOMPARE(f.canvas.window(), (TimeWindow{2 * kMs, 22 * kMs})); // 100 px * 20 µs
        QVERIFY(spy.count() >= 1);
        QVERIFY(!f.canvas.selection()); // a drag is not a click
    }

    void homeEndAndArrowKeys()
    {
        Fixture f;
        QTest::keyClick(&f.canvas, Qt::Key_End);
        const TimeWindow extent = f.canvas.scene()->extent();
        QCOMPARE(f.canvas.window().end, extent.end);
        QCOMPARE(f.canvas.window().duration(), 20 * kMs);
        QTest::keyClick(&f.canvas, Qt::Key_Home);
        QCOMPARE(f.canvas.window(), (TimeWindow{extent.start, extent.start + 20 * kMs}));
        QTest::keyClick(&f.canvas, Qt::Key_Right);
        QCOMPARE(f.canvas.window().start, extent.start + 3 * kMs);
        QTest::keyClick(&f.canvas, Qt::Key_Minus);
        QCOMPARE(f.canvas.window().duration(), 25 * kMs);
        QTest::keyClick(&f.canvas, Qt::Key_Plus);
        QCOMPARE(f.canvas.window().duration(), 20 * kMs);
    }

    void keysZoomAndPan()
    {
        Fixture f;
        QTest::keyClick(&f.canvas, Qt::Key_D);
        QCOMPARE(f.canvas.window(), (TimeWindow{3 * kMs, 23 * kMs})); // 15 % of 1000 px
        QTest::keyClick(&f.canvas, Qt::Key_A);
        QCOMPARE(f.canvas.window(), (TimeWindow{0, 20 * kMs}));
        QTest::keyClick(&f.canvas, Qt::Key_W);
        QCOMPARE(f.canvas.window(), (TimeWindow{2 * kMs, 18 * kMs})); // x1.25 about the centre
        QTest::keyClick(&f.canvas, Qt::Key_S);
        QCOMPARE(f.canvas.window(), (TimeWindow{0, 20 * kMs}));
    }

    void clickSelectsAndEscClears()
    {
        Fixture f;
        QSignalSpy sel(&f.canvas, &TimelineCanvas::selectionChanged);
        QTest::mouseClick(&f.canvas, Qt::LeftButton, {}, {560, 88}); // step 0, lane 0 of rank 0
        QVERIFY(f.canvas.selection());
        QCOMPARE(*f.canvas.selection(), (TimelineSelection{0, {0, 0}}));
        QTest::mouseClick(&f.canvas, Qt::LeftButton, {}, {400, 104}); // forward 0, lane 1
        QCOMPARE(*f.canvas.selection(), (TimelineSelection{0, {0, 1}}));
        QTest::mouseClick(&f.canvas, Qt::LeftButton, {}, {370, 136}); // gemm 0 on the kernel row
        QCOMPARE(f.canvas.selection()->ref.track, 2u);
        QSignalSpy esc(&f.canvas, &TimelineCanvas::escapePressed);
        QTest::keyClick(&f.canvas, Qt::Key_Escape);
        QVERIFY(!f.canvas.selection());
        QCOMPARE(esc.count(), 1);
        QCOMPARE(sel.count(), 4);
        QTest::mouseClick(&f.canvas, Qt::LeftButton, {}, {1200, 136}); // empty part of the row
        QVERIFY(!f.canvas.selection());
    }

    void doubleClickZoomsToTheEventAndFFits()
    {
        Fixture f;
        QTest::mouseDClick(&f.canvas, Qt::LeftButton, {}, {560, 88});
        QCOMPARE(f.canvas.window(), (TimeWindow{kMs / 2, 11 * kMs + kMs / 2})); // 5 % air
        f.canvas.setWindow({0, 100 * kMs});
        QTest::keyClick(&f.canvas, Qt::Key_F); // fit the selection
        QCOMPARE(f.canvas.window(), (TimeWindow{kMs / 2, 11 * kMs + kMs / 2}));
        QTest::keyClick(&f.canvas, Qt::Key_Escape);
        QTest::keyClick(&f.canvas, Qt::Key_F); // nothing selected: fit everything
        QCOMPARE(f.canvas.window(), (TimeWindow{1 * kMs - 6'200'000, 311 * kMs + 6'200'000}));
    }

    void shiftDragMeasures()
    {
        Fixture f;
        drag(&f.canvas, {360, 300}, {460, 300}, Qt::ShiftModifier);
        QVERIFY(f.canvas.ruler());
        QCOMPARE(*f.canvas.ruler(), (TimeWindow{2 * kMs, 4 * kMs}));
        QCOMPARE(f.canvas.window(), (TimeWindow{0, 20 * kMs})); // measuring does not pan
        // Right to left measures the same span.
        drag(&f.canvas, {460, 300}, {410, 300}, Qt::ShiftModifier);
        QCOMPARE(*f.canvas.ruler(), (TimeWindow{3 * kMs, 4 * kMs}));
        QTest::keyClick(&f.canvas, Qt::Key_F); // F fits the ruler when nothing is selected
        QCOMPARE(f.canvas.window(), (TimeWindow{3 * kMs, 4 * kMs}));
        QTest::keyClick(&f.canvas, Qt::Key_Escape);
        QVERIFY(!f.canvas.ruler());
    }

    void tooltipDescribesTheEvent()
    {
        Fixture f;
        const QString tip = f.canvas.toolTipAt({370, 136});
        for (const char *part :
             {"gemm", "Kernel", "2.50 ms", "ActorGroup r0", "GPU 0 · stream 7", "launched by cudaLaunchKernel"})
            QVERIFY2(tip.contains(QString::fromUtf8(part)), qPrintable(tip));
        QVERIFY(f.canvas.toolTipAt({1200, 136}).isEmpty());
        // Through the real tooltip event.
        QHelpEvent he(QEvent::ToolTip, QPoint(560, 88), f.canvas.mapToGlobal(QPoint(560, 88)));
        QCoreApplication::sendEvent(&f.canvas, &he);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY(QToolTip::text().startsWith("step\n"));
        // Over the label column: the report's path.
        QVERIFY(f.canvas.toolTipAt({50, 45}).contains("rlinf_profile_ActorGroup_0_100.sqlite"));
    }

    void foldedMarkSaysHowManyEvents()
    {
        auto rep = ps::test::makeReport("/dense.sqlite", [](StoreBuilder &b) {
            const TrackHandle t = b.track({TrackKind::Kernel, 1, 7, 0});
            const NameId n = b.intern("tiny");
            for (int i = 0; i < 10000; ++i)
                b.add(t, i * 100, i * 100 + 10, n);
        });
        TimelineCanvas c;
        c.resize(1260, 400);
        c.setScene(std::make_shared<TimelineScene>(buildScene({PreparedReport::prepare(rep)}, {})));
        c.setWindow({0, 1'000'000});
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        c.grab(); // paints, which folds
        QCOMPARE(c.lastFoldedCount(), size_t(1));
        const int y = c.layout().rows().back().y + 8;
        QCOMPARE(c.toolTipAt({760, y}),
                 QStringLiteral("10000 events too small to show (1000 µs)\nDouble-click to zoom in"));
        QTest::mouseDClick(&c, Qt::LeftButton, {}, {760, y});
        QVERIFY(c.window().duration() < 1'050'000 && c.window().start <= 0);
    }

    void drawsBoxesInTheirNameColour()
    {
        Fixture f;
        const QImage img = f.canvas.grab().toImage();
        QCOMPARE(img.pixel(560, 88), colorForName("step").rgb());
        QCOMPARE(img.pixel(400, 104), colorForName("forward").rgb());
        QCOMPARE(img.pixel(300, 88), qRgb(0xff, 0xff, 0xff)); // before the step: the lane background
        QVERIFY(f.canvas.lastMarkCount() > 0);
        // The utilization lane above: a full bar while gemm 0 runs (1.01-3.51 ms: x 310-435 at
        // 20 µs per pixel), nothing before it.
        const Row &util = f.canvas.layout().rows()[3];
        QCOMPARE(int(util.kind), int(RowKind::Utilization));
        QCOMPARE(util.label, QStringLiteral("GPU util · GPU 0"));
        QCOMPARE(img.pixel(370, util.y + 2), qRgb(0x43, 0xa0, 0x47));
        QCOMPARE(img.pixel(370, util.bottom() - 3), qRgb(0x43, 0xa0, 0x47));
        QCOMPARE(img.pixel(300, util.bottom() - 3) == qRgb(0x43, 0xa0, 0x47), false);
        // Selection draws a black outline around the event.
        QTest::mouseClick(&f.canvas, Qt::LeftButton, {}, {560, 88});
        const QImage sel = f.canvas.grab().toImage();
        QCOMPARE(sel.pixel(309, 88), QColor(Qt::black).rgb());
    }

    // A memory lane: the value in force per pixel column as a bar scaled to the peak, the peak
    // marked in red and named in the label column; nothing after the report ends.
    void memoryLaneDrawsTheSeriesAndItsPeak()
    {
        auto rep = ps::test::makeReport("/mem.sqlite", [](StoreBuilder &b) {
            b.add(b.track({TrackKind::Kernel, 1, 7, 0}), 0, 10 * kMs, b.intern("k"));
        });
        MemorySeriesBuilder mem(0, "CUDA device memory");
        mem.add(0, 1 << 20);
        mem.add(5 * kMs, 4 << 20);
        mem.add(6 * kMs, 2 << 20);
        std::const_pointer_cast<Report>(rep)->meta.memory.push_back(std::move(mem).build());
        TimelineCanvas c;
        c.resize(1260, 300);
        c.setScene(std::make_shared<TimelineScene>(buildScene({PreparedReport::prepare(rep)}, {})));
        c.setWindow({0, 20 * kMs}); // clamped to the report's extent
        c.show();
        const TimeWindow w = c.window();
        const auto xAt = [&](int64_t t) { return 260 + int((t - w.start) * 1000 / w.duration()); };
        const auto &rows = c.layout().rows();
        const auto it = std::find_if(rows.begin(), rows.end(), [](const Row &r) { return r.kind == RowKind::Memory; });
        QVERIFY(it != rows.end());
        QCOMPARE(it->detail, QStringLiteral("peak 4.0 MiB"));
        const QImage img = c.grab().toImage();
        const QRgb memory = qRgb(0x5c, 0x6b, 0xc0), peak = qRgb(0xe5, 0x39, 0x35);
        const int top = it->y + 3, bottom = it->bottom() - 3;
        QCOMPARE(img.pixel(xAt(2 * kMs), bottom), memory); // 1 MiB: a quarter bar
        QVERIFY(img.pixel(xAt(2 * kMs), top) != memory);
        QCOMPARE(img.pixel(xAt(5 * kMs), top), peak);             // the peak marker
        QCOMPARE(img.pixel(xAt(5 * kMs + kMs / 2), top), memory); // 4 MiB: a full bar
        QCOMPARE(img.pixel(xAt(8 * kMs), bottom), memory);        // 2 MiB
        QVERIFY(img.pixel(xAt(8 * kMs), top) != memory);
        QVERIFY(xAt(10 * kMs) + 3 < 1260);                       // the view shows the report's end, with air
        QVERIFY(img.pixel(xAt(10 * kMs) + 3, bottom) != memory); // after it: no bar
    }

    void clickOnAHeaderCollapsesIt()
    {
        Fixture f;
        const int rows = int(f.canvas.layout().rows().size());
        QSignalSpy spy(&f.canvas, &TimelineCanvas::collapsedChanged);
        QTest::mouseClick(&f.canvas, Qt::LeftButton, {}, {50, 45}); // rank 0 report header
        QCOMPARE(int(f.canvas.layout().rows().size()), rows - 4);   // utilization, NVTX, API, kernels
        QCOMPARE(spy.count(), 1);
        QVERIFY(f.canvas.collapsed().contains("report:/runs/run/rlinf_profile_ActorGroup_0_100.sqlite"));
        QTest::mouseClick(&f.canvas, Qt::LeftButton, {}, {50, 45});
        QCOMPARE(int(f.canvas.layout().rows().size()), rows);
        // A counter lane's label is not a header: a click there collapses nothing.
        const Row &util = f.canvas.layout().rows()[3];
        QCOMPARE(int(util.kind), int(RowKind::Utilization));
        QTest::mouseClick(&f.canvas, Qt::LeftButton, {}, {50, util.y + 5});
        QVERIFY(f.canvas.collapsed().isEmpty());
        QCOMPARE(spy.count(), 2);
    }

    // The right-click menu hides a track or a kind, pins a track to the top, collapses reports
    // into density rows, and brings hidden tracks back.
    void trackMenuHidesPinsAndCollapses()
    {
        Fixture f;
        const Row *kernels0 = findRow(f.canvas, 0, "Kernels");
        QVERIFY(kernels0);
        const QString pinnedKey = kernels0->key;
        QVERIFY(triggerMenu(f.canvas.contextMenuAt({50, kernels0->y + 2}), "Pin to Top"));
        const auto &rows = f.canvas.layout().rows();
        QCOMPARE(rows[0].label, QString("Pinned"));
        QCOMPARE(rows[1].key, pinnedKey);
        QVERIFY2(rows[1].label.startsWith(f.canvas.scene()->entries[0].label + " · Kernels"),
                 qPrintable(rows[1].label));
        QVERIFY(!findRow(f.canvas, 0, "Kernels", 2)); // moved, not copied

        const Row *kernels1 = findRow(f.canvas, 1, "Kernels");
        QVERIFY(kernels1);
        QVERIFY(triggerMenu(f.canvas.contextMenuAt({50, kernels1->y + 2}), "Hide All “Kernels” Tracks"));
        for (int e = 0; e < 3; ++e)
            QVERIFY(!findRow(f.canvas, e, "Kernels", 2));
        QCOMPARE(f.canvas.layout().rows()[1].key, pinnedKey); // a pinned track stays
        QVERIFY(triggerMenu(f.canvas.contextMenuAt({50, 5}), "Show All"));
        QVERIFY(findRow(f.canvas, 2, "Kernels", 2));

        const Row *api2 = findRow(f.canvas, 2, "CUDA API");
        QVERIFY(api2);
        const QString apiKey = api2->key;
        QVERIFY(triggerMenu(f.canvas.contextMenuAt({50, api2->y + 2}), "Hide This Track"));
        QVERIFY(!findRow(f.canvas, 2, "CUDA API"));
        QVERIFY(findRow(f.canvas, 1, "CUDA API"));
        QVERIFY(f.canvas.trackView().hiddenTracks.contains(apiKey));
        QVERIFY(triggerMenu(f.canvas.contextMenuAt({50, 5}), "CUDA API · " + apiKey.section(" · ", 1)));
        QVERIFY(findRow(f.canvas, 2, "CUDA API"));

        // Collapsed reports are one density row each: a header with its GPU's busy share.
        QVERIFY(triggerMenu(f.canvas.contextMenuAt({50, 5}), "Collapse All Reports"));
        int headers = 0;
        for (const Row &r : f.canvas.layout().rows())
            if (r.kind == RowKind::Report) {
                ++headers;
                QVERIFY(r.collapsed);
            }
        QCOMPARE(headers, 3);
        const Row *report0 = nullptr;
        for (const Row &r : f.canvas.layout().rows())
            if (r.kind == RowKind::Report && r.entry == 0)
                report0 = &r;
        const QImage img = f.canvas.grab().toImage();
        const TimeWindow w = f.canvas.window();
        const auto xAt = [&](int64_t t) { return 260 + int((t - w.start) * 1000 / w.duration()); };
        QCOMPARE(img.pixel(xAt(1 * kMs + 500'000), report0->bottom() - 3), qRgb(0x43, 0xa0, 0x47)); // a gemm runs
        QVERIFY(triggerMenu(f.canvas.contextMenuAt({50, 5}), "Expand All"));
        QVERIFY(f.canvas.collapsed().isEmpty());
    }

    // A track whose label was made unique (a thread's start/end ranges beside its push/pop ones)
    // hides and comes back by that label: revealing one of its events shows it again.
    void revealShowsAHiddenDisambiguatedTrack()
    {
        auto r = ps::test::makeReport("/x/a.sqlite", [](StoreBuilder &b) {
            b.add(b.track({TrackKind::NvtxPushPop, 1, 2, 0}), 0, 10 * kMs, b.intern("step"));
            b.add(b.track({TrackKind::NvtxStartEnd, 1, 2, 0}), kMs, 5 * kMs, b.intern("async"));
        });
        TimelineCanvas c;
        c.resize(1260, 400);
        c.setScene(std::make_shared<TimelineScene>(buildScene({PreparedReport::prepare(r)}, {})));
        const Row *startEnd = nullptr;
        for (const Row &row : c.layout().rows())
            if (row.kind == RowKind::Track && row.label.endsWith(" · start/end"))
                startEnd = &row;
        QVERIFY(startEnd);
        const uint32_t track = startEnd->track;
        c.hideTrack(startEnd->key);
        QCOMPARE(c.layout().rowOf(0, track), -1);
        c.reveal({0, {track, 0}});
        QVERIFY(c.layout().rowOf(0, track) >= 0);
        QVERIFY(c.trackView().hiddenTracks.isEmpty());
    }

    // The label column's edge drags; names elide and their tooltip gives them whole.
    void labelColumnResizes()
    {
        Fixture f;
        QCOMPARE(f.canvas.lanesLeft(), 260);
        drag(&f.canvas, {260, 200}, {400, 200});
        QCOMPARE(f.canvas.lanesLeft(), 400);
        QCOMPARE(int(f.canvas.mapping().width()), 1260 - 400);
        drag(&f.canvas, {400, 200}, {1200, 200});
        QCOMPARE(f.canvas.lanesLeft(), 630); // never more than half the canvas
        drag(&f.canvas, {630, 200}, {10, 200});
        QCOMPARE(f.canvas.lanesLeft(), TimelineCanvas::kMinLabelWidth);
        const Row *api = findRow(f.canvas, 0, "CUDA API");
        QCOMPARE(f.canvas.toolTipAt({40, api->y + 2}), api->label);
    }

    void revealExpandsScrollsAndCentres()
    {
        Fixture f;
        f.canvas.resize(1260, 100); // only a few rows fit
        f.canvas.setCollapsed({"report:/runs/run/rlinf_profile_ActorGroup_2_102.sqlite"});
        const TimelineSelection s{2, {2, 3}}; // rank 2's last gemm, at 301.01 ms
        f.canvas.reveal(s);
        QCOMPARE(*f.canvas.selection(), s);
        QVERIFY(!f.canvas.collapsed().contains("report:/runs/run/rlinf_profile_ActorGroup_2_102.sqlite"));
        const Row &row = f.canvas.layout().rows()[size_t(f.canvas.layout().rowOf(2, 2))];
        QVERIFY(row.y >= f.canvas.scrollY() && row.bottom() <= f.canvas.scrollY() + 100);
        const TimeWindow w = f.canvas.window();
        QCOMPARE(w.duration(), 20 * kMs);
        QVERIFY(w.contains(301 * kMs + 10'000));
    }

    void axisTicksLineUpWithTheLanes()
    {
        TimelineView v;
        v.resize(1300, 500);
        v.canvas()->setScene(threeRanks());
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.canvas()->setWindow({0, 20 * kMs});
        v.axisPlot()->replot();
        const QStringList labels = v.axisLabels();
        QVERIFY2(labels.contains("10 ms") && labels.contains("0"), qPrintable(labels.join(',')));
        // The axis pixel of 10 ms equals the canvas pixel of 10 ms.
        const double axisX = v.axisPlot()->xAxis2->coordToPixel(10.0 * kMs) + v.axisPlot()->x();
        const double laneX = v.canvas()->x() + v.canvas()->lanesLeft() + v.canvas()->mapping().x(10 * kMs);
        QVERIFY2(qAbs(axisX - laneX) <= 1.0, qPrintable(QString("%1 vs %2").arg(axisX).arg(laneX)));
        // Zooming the canvas moves the axis.
        wheel(v.canvas(), {v.canvas()->lanesLeft() + 100, 100}, 480);
        QCOMPARE(v.axisPlot()->xAxis2->range().size(), double(v.canvas()->window().duration()));
    }

    // Past kDenseReports, a run opens as one density row per report; a report the user expands
    // stays expanded when the scene is rebuilt, and reports added later start collapsed too.
    void manyReportsOpenAsDensityRows()
    {
        const auto ranks = [](int from, int to) {
            std::vector<PreparedReportPtr> reps;
            for (int r = from; r < to; ++r)
                reps.push_back(PreparedReport::prepare(ps::test::makeRank(r, 1, kMs)));
            return reps;
        };
        const int dense = int(TimelineCanvas::kDenseReports);
        TimelineCanvas few;
        few.setScene(std::make_shared<TimelineScene>(buildScene(ranks(0, dense), {})));
        QVERIFY(few.collapsed().isEmpty());

        TimelineCanvas c;
        c.resize(1260, 700);
        std::vector<PreparedReportPtr> reps = ranks(0, dense + 1);
        c.setScene(std::make_shared<TimelineScene>(buildScene(reps, {})));
        QCOMPARE(int(c.collapsed().size()), dense + 1);
        int headers = 0;
        for (const Row &r : c.layout().rows())
            headers += r.kind == RowKind::Report && r.collapsed;
        QCOMPARE(headers, dense + 1);
        const QString first = *c.collapsed().constBegin();
        c.toggleCollapsed(first); // the user expands one
        for (const PreparedReportPtr &r : ranks(dense + 1, dense + 3))
            reps.push_back(r);
        c.setScene(std::make_shared<TimelineScene>(buildScene(reps, {})), true);
        QVERIFY(!c.collapsed().contains(first));
        QCOMPARE(int(c.collapsed().size()), dense + 2);
    }
};

QTEST_MAIN(TestTimelineCanvas)
#include "tst_timelinecanvas.moc"
