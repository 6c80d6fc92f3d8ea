// The lanes a user arranges: pinned lanes stay at the top while the rest scrolls (drawn there,
// and clicks there reach them), lanes move by dragging their label within their report or the
// Pinned section, and kinds hidden in one run stay in that run and go with it when it closes.
// Geometry (testreports.h): ranks of 4 steps, canvas 1260 px wide = 260 px labels + 1000 px lanes.
#include "canvasinput.h"
#include "testreports.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/trackdrag.h"

#include <QMenu>
#include <QtTest>

using namespace ps::views;
using namespace ps::core::trace;
using namespace ps::test; // canvasinput.h

namespace {
constexpr int64_t kMs = 1'000'000;

// Ranks of run "run", then ranks of run "other" (their own folder).
std::shared_ptr<const TimelineScene> runs(int ranks, int otherRanks = 0)
{
    std::vector<PreparedReportPtr> reps;
    for (int r = 0; r < ranks; ++r)
        reps.push_back(PreparedReport::prepare(ps::test::makeRank(r, 4, 10 * kMs)));
    for (int r = 0; r < otherRanks; ++r) {
        auto rep = std::const_pointer_cast<Report>(ps::test::makeRank(r, 4, 10 * kMs));
        rep->path = "/runs/other/rlinf_profile_ActorGroup_" + std::to_string(r) + ".sqlite";
        rep->identity.run = "other";
        reps.push_back(PreparedReport::prepare(rep));
    }
    return std::make_shared<TimelineScene>(buildScene(reps, {}));
}

struct Fixture
{
    TimelineCanvas canvas;
    explicit Fixture(std::shared_ptr<const TimelineScene> scene = runs(3), int height = 600)
    {
        canvas.resize(1260, height);
        canvas.setScene(std::move(scene));
        canvas.setWindow({0, 20 * kMs});
        canvas.show();
        QVERIFY(QTest::qWaitForWindowExposed(&canvas));
    }
};

// The labels of an entry's lanes, top to bottom, by their kind word.
QStringList laneKinds(const TimelineCanvas &c, int entry)
{
    QStringList kinds;
    for (const Row &r : c.layout().rows())
        if (r.entry == entry && !r.isHeader() && r.y >= c.layout().pinnedHeight())
            kinds << RowLayout::kindOf(r.label);
    return kinds;
}

QImage band(const QImage &img, int top, int height)
{
    return img.copy(0, top, img.width(), height);
}
} // namespace

class TestTrackOrder : public QObject
{
    Q_OBJECT
private slots:
    // Pinned lanes stay at the top when the rows scroll: drawn in the same pixels, and a click
    // or tooltip there reaches the pinned lane, not what scrolled under it.
    void pinnedLanesStayWhileTheRestScrolls()
    {
        Fixture f(runs(3), 160);
        const Row *kernels2 = findRow(f.canvas, 2, "Kernels");
        QVERIFY(kernels2);
        f.canvas.togglePinned(kernels2->key);
        const RowLayout &l = f.canvas.layout();
        QCOMPARE(l.rows()[0].label, QString("Pinned"));
        QCOMPARE(l.pinnedRows(), 2);
        QCOMPARE(l.pinnedHeight(), RowLayout::kHeaderHeight + RowLayout::kLaneHeight);
        const QImage top = f.canvas.grab().toImage();
        f.canvas.setScrollY(f.canvas.maxScrollY());
        QVERIFY(f.canvas.scrollY() > 150);
        const QImage scrolled = f.canvas.grab().toImage();
        const int pinned = l.pinnedHeight();
        QCOMPARE(band(scrolled, 0, pinned), band(top, 0, pinned));                 // the Pinned section stays
        QVERIFY(band(scrolled, pinned, 100) != band(top, pinned, 100));            // the rest scrolled
        QCOMPARE(l.rowAt(f.canvas.layoutY(5)), 0);                                 // the Pinned header
        QCOMPARE(l.rowAt(f.canvas.layoutY(pinned - 4)), 1);                        // the pinned lane
        QCOMPARE(f.canvas.layoutY(pinned + 10), pinned + 10 + f.canvas.scrollY()); // below: scrolled
        // The pinned lane's kernel (step 0: 1.01 ms to 3.51 ms, 20 µs per pixel) is clickable there.
        const QPoint kernel(260 + 100, pinned - 6);
        const auto hit = f.canvas.eventAt(kernel);
        QVERIFY(hit);
        QCOMPARE(hit->entry, 2);
        QCOMPARE(hit->ref.track, l.rows()[1].track);
        QVERIFY(f.canvas.toolTipAt(kernel).contains("gemm"));
    }

    // A Pinned section taller than half the canvas scrolls with the rest: the other lanes keep room.
    void aTallPinnedSectionScrolls()
    {
        Fixture f(runs(3), 300);
        for (int e = 0; e < 3; ++e)
            for (const char *kind : {"NVTX", "CUDA API", "Kernels"})
                f.canvas.togglePinned(findRow(f.canvas, e, kind)->key);
        QVERIFY(f.canvas.layout().pinnedHeight() > 150);
        const RowViewport vp(f.canvas.layout(), 100, 300);
        QCOMPARE(vp.sticky, 0);
        QCOMPARE(f.canvas.layoutY(5), 5 + f.canvas.scrollY());
    }

    // Dragging a lane's label moves it within its report; the other reports keep their order,
    // the view neither pans nor scrolls, and a relayout keeps the order.
    void dragALabelMovesTheLaneInItsReport()
    {
        Fixture f;
        const QStringList before = laneKinds(f.canvas, 0);
        QCOMPARE(before, (QStringList{"GPU util", "NVTX", "CUDA API", "Kernels"}));
        const TimeWindow window = f.canvas.window();
        const Row *kernels = findRow(f.canvas, 0, "Kernels");
        const Row *nvtx = findRow(f.canvas, 0, "NVTX");
        drag(&f.canvas, {60, kernels->y + 8}, {60, nvtx->y + 2});
        QCOMPARE(laneKinds(f.canvas, 0), (QStringList{"GPU util", "Kernels", "NVTX", "CUDA API"}));
        QCOMPARE(laneKinds(f.canvas, 1), before);
        QCOMPARE(f.canvas.window(), window);
        QCOMPARE(f.canvas.scrollY(), 0);
        QVERIFY(f.canvas.trackView().order.contains(RowLayout::reportKey(f.canvas.scene()->entries[0])));
        f.canvas.setScene(runs(3), true); // rebuilt (realigned, a report paged in): kept
        QCOMPARE(laneKinds(f.canvas, 0), (QStringList{"GPU util", "Kernels", "NVTX", "CUDA API"}));
        // Dropped past its report's last lane (over the next report): it goes last in its own.
        const Row *util = findRow(f.canvas, 0, "GPU util");
        drag(&f.canvas, {60, util->y + 8}, {60, findRow(f.canvas, 1, "Kernels")->y});
        QCOMPARE(laneKinds(f.canvas, 0), (QStringList{"Kernels", "NVTX", "CUDA API", "GPU util"}));
        QCOMPARE(laneKinds(f.canvas, 1), before);
        // A press that does not move is still a click: a header folds.
        const int header = f.canvas.layout().rows()[size_t(f.canvas.layout().reportRowOf(0))].y;
        QTest::mouseClick(&f.canvas, Qt::LeftButton, {}, {60, header + 5});
        QVERIFY(f.canvas.collapsed().contains(RowLayout::reportKey(f.canvas.scene()->entries[0])));
    }

    // In the Pinned section a drag changes the pin order.
    void dragInThePinnedSectionReordersPins()
    {
        Fixture f;
        const QString a = findRow(f.canvas, 0, "Kernels")->key, b = findRow(f.canvas, 2, "NVTX")->key;
        f.canvas.togglePinned(a);
        f.canvas.togglePinned(b);
        QCOMPARE(f.canvas.trackView().pinned, (QStringList{a, b}));
        const auto &rows = f.canvas.layout().rows();
        drag(&f.canvas, {60, rows[2].y + 8}, {60, rows[1].y + 2});
        QCOMPARE(f.canvas.trackView().pinned, (QStringList{b, a}));
        QCOMPARE(f.canvas.layout().rows()[1].key, b);
        // The pure rule: a lane moves only among its block's rows.
        const RowLayout &l = f.canvas.layout();
        QCOMPARE(movableBlock(l, 1), (std::pair<int, int>{1, 3}));
        QCOMPARE(dropSlot(l, 1, 10'000), 3);
        QCOMPARE(movedTrack(f.canvas.trackView(), l, *f.canvas.scene(), 1, 2), f.canvas.trackView()); // in place
    }

    // "Hide All Kernels" in one run leaves the other run's kernels; closing the run forgets it,
    // and Close All leaves neither hidden kinds nor an empty Pinned header for the next files.
    void hiddenKindsArePerRunAndGoWithIt()
    {
        Fixture f(runs(2, 1));
        // Scene order is run order: "other" first.
        const int other = 0, run0 = 1, run1 = 2;
        QCOMPARE(RowLayout::runOf(f.canvas.scene()->entries[other]), QString("other"));
        QCOMPARE(RowLayout::runOf(f.canvas.scene()->entries[run0]), QString("run"));
        const Row *kernels0 = findRow(f.canvas, run0, "Kernels");
        QVERIFY(triggerMenu(f.canvas.contextMenuAt({50, kernels0->y + 2}), "Hide All “Kernels” Tracks of Run “run”"));
        QVERIFY(!findRow(f.canvas, run0, "Kernels") && !findRow(f.canvas, run1, "Kernels"));
        QVERIFY(findRow(f.canvas, other, "Kernels")); // the other run's
        QVERIFY(triggerMenu(f.canvas.contextMenuAt({50, 5}), "All “Kernels” tracks of run “run”"));
        QVERIFY(findRow(f.canvas, run0, "Kernels"));
        f.canvas.hideKind(RowLayout::kindKey(f.canvas.scene()->entries[run0], "Kernels"));
        f.canvas.togglePinned(findRow(f.canvas, run0, "NVTX")->key);
        QCOMPARE(f.canvas.layout().rows()[0].label, QString("Pinned"));

        f.canvas.setScene(runs(0, 1)); // Close Run "run"
        QVERIFY(f.canvas.trackView().hiddenKinds.isEmpty());
        QVERIFY(f.canvas.trackView().pinned.isEmpty());
        QVERIFY(f.canvas.layout().rows()[0].label != "Pinned");

        f.canvas.hideKind(RowLayout::kindKey(f.canvas.scene()->entries[0], "CUDA API"));
        f.canvas.togglePinned(findRow(f.canvas, 0, "Kernels")->key);
        f.canvas.setScene(nullptr); // Close All
        QCOMPARE(f.canvas.trackView().hiddenCount(), 0);
        f.canvas.setScene(runs(1)); // unrelated files
        QVERIFY(f.canvas.layout().rows()[0].label != "Pinned");
        QVERIFY(findRow(f.canvas, 0, "CUDA API") && findRow(f.canvas, 0, "Kernels"));
    }

    // Two runs opened together both start on the first screen: when the second run would start
    // below the canvas, every report starts folded; one run, or runs that fit, stay expanded.
    void twoRunsOpenedTogetherBothStartOnScreen()
    {
        Fixture f(runs(2, 2), 300);
        for (const TimelineEntry &e : f.canvas.scene()->entries)
            QVERIFY(f.canvas.collapsed().contains(RowLayout::reportKey(e)));
        const int second = f.canvas.layout().reportRowOf(2); // run "run"'s first report
        QVERIFY(second >= 0 && f.canvas.layout().rows()[size_t(second)].bottom() <= 300);

        Fixture one(runs(4), 300); // one run: its reports stay expanded
        QVERIFY(one.canvas.collapsed().isEmpty());
        Fixture fits(runs(1, 1), 600); // two runs that fit
        QVERIFY(fits.canvas.collapsed().isEmpty());

        Fixture later(runs(2), 300); // a run open, then another opened beside it
        QVERIFY(later.canvas.collapsed().isEmpty());
        later.canvas.setScene(runs(2, 2), true);
        QCOMPARE(int(later.canvas.collapsed().size()), 4);
    }

    // Two runs loading report by report: the reports of a run opened folded that arrive later open
    // folded too; a run whose reports the user expanded gets its later reports expanded.
    void lateReportsFollowTheirRun()
    {
        Fixture f(runs(2, 2), 300);
        QCOMPARE(int(f.canvas.collapsed().size()), 4);
        f.canvas.setScene(runs(3, 3), true); // rank 2 of both runs arrives
        for (const TimelineEntry &e : f.canvas.scene()->entries)
            QVERIFY2(f.canvas.collapsed().contains(RowLayout::reportKey(e)), qPrintable(RowLayout::reportKey(e)));

        // The user opens run "other"'s reports; its rank 3 then arrives open, run "run"'s folded.
        for (const TimelineEntry &e : f.canvas.scene()->entries)
            if (RowLayout::runOf(e) == QStringLiteral("other"))
                f.canvas.toggleCollapsed(RowLayout::reportKey(e));
        f.canvas.setScene(runs(4, 4), true);
        for (const TimelineEntry &e : f.canvas.scene()->entries)
            QCOMPARE(f.canvas.collapsed().contains(RowLayout::reportKey(e)),
                     RowLayout::runOf(e) != QStringLiteral("other"));
    }

    // A session's bare kind word (before kinds were per run) still hides the kind in every run.
    void aBareKindWordHidesItEverywhere()
    {
        Fixture f(runs(1, 1));
        f.canvas.hideKind("Kernels");
        QVERIFY(!findRow(f.canvas, 0, "Kernels") && !findRow(f.canvas, 1, "Kernels"));
        QCOMPARE(RowLayout::splitKindKey("Kernels").second, std::nullopt);
        QCOMPARE(RowLayout::splitKindKey("run:a|b|Kernels"),
                 (std::pair<QString, std::optional<QString>>{"Kernels", "a|b"}));
    }
};

QTEST_MAIN(TestTrackOrder)
#include "tst_trackorder.moc"
