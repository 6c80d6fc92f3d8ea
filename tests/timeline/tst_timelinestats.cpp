// Stats over what the timeline shows: nvtx_sum / kernel_sum in a time window agree with the
// engine's summarize() over whole reports, the window restricts them, the cross-rank chart's
// data (durations per rank and step, straggler) and its bars, and the Stats pane's table
// (sorting, filtering, CSV).
#include "testreports.h"
#include "views/stats/crossrankchart.h"
#include "views/stats/crossrankdata.h"
#include "views/stats/rangestats.h"
#include "views/stats/statspane.h"
#include "views/stats/statstablemodel.h"

#include "core/trace/traceloader.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>
#include <qcustomplot.h>

using namespace ps::views;
using namespace ps::core::trace;

namespace {
constexpr int64_t kMs = 1'000'000;

// Ranks 0..3, three steps each; rank 2 is the straggler (15 ms steps instead of 10 ms).
std::shared_ptr<const TimelineScene> run()
{
    std::vector<PreparedReportPtr> reps;
    for (int r = 0; r < 4; ++r)
        reps.push_back(PreparedReport::prepare(ps::test::makeRank(r, 3, r == 2 ? 15 * kMs : 10 * kMs)));
    return std::make_shared<TimelineScene>(buildScene(reps, {}));
}

std::vector<int> all(const TimelineScene &s)
{
    std::vector<int> v;
    for (size_t i = 0; i < s.entries.size(); ++i)
        v.push_back(int(i));
    return v;
}

const StatRow *find(const std::vector<StatRow> &rows, const std::string &name)
{
    for (const StatRow &r : rows)
        if (r.name == name)
            return &r;
    return nullptr;
}
} // namespace

class TestTimelineStats : public QObject
{
    Q_OBJECT
private slots:
    void windowedSummaryMatchesTheEngineOnRealReports()
    {
        std::vector<std::string> paths;
        for (const char *s : {"s1", "s2", "s4", "s8"})
            paths.push_back(std::string(PS_TESTDATA_DIR "/traces/nsys/extrap__concurrent.") + s + ".sqlite");
        LoadOptions opt;
        opt.useCache = false;
        const LoadResult lr = loadReports(paths, opt);
        QCOMPARE(lr.reports.size(), size_t(4));
        std::vector<PreparedReportPtr> reps;
        for (const auto &r : lr.reports)
            reps.push_back(PreparedReport::prepare(r));
        const TimelineScene scene = buildScene(reps, {});
        for (StatsKind kind : {StatsKind::NvtxSum, StatsKind::KernelSum}) {
            const auto mine = summarizeWindow(scene, all(scene), {INT64_MIN / 4, INT64_MAX / 4}, kind);
            const auto engine = summarize(lr.reports, kind).overall;
            QCOMPARE(mine.size(), engine.size());
            QVERIFY(!mine.empty());
            for (size_t i = 0; i < mine.size(); ++i) {
                QCOMPARE(mine[i].name, engine[i].name);
                QCOMPARE(mine[i].count, engine[i].count);
                QCOMPARE(mine[i].totalNs, engine[i].totalNs);
                QCOMPARE(mine[i].minNs, engine[i].minNs);
                QCOMPARE(mine[i].maxNs, engine[i].maxNs);
                QCOMPARE(mine[i].medNs, engine[i].medNs);
                QVERIFY(qAbs(mine[i].stddevNs - engine[i].stddevNs) < 1e-6 * (1 + engine[i].stddevNs));
            }
        }
    }

    void windowRestrictsToEventsStartingInside()
    {
        const auto s = run();
        // Step k starts at 1 ms + k * 100 ms: [0, 150 ms) holds steps 0 and 1 of every rank.
        const auto rows = summarizeWindow(*s, all(*s), {0, 150 * kMs}, StatsKind::NvtxSum);
        const StatRow *step = find(rows, "step");
        QVERIFY(step);
        QCOMPARE(step->count, 8ull);
        QCOMPARE(step->totalNs, 6 * 10 * kMs + 2 * 15 * kMs);
        QCOMPARE(step->maxNs, 15 * kMs);
        QCOMPARE(step->medNs, double(10 * kMs));
        // Only rank 2.
        const auto r2 = summarizeWindow(*s, {2}, {0, 400 * kMs}, StatsKind::NvtxSum);
        QCOMPARE(find(r2, "step")->count, 3ull);
        QCOMPARE(find(r2, "step")->stddevNs, 0.0);
        const auto kernels = summarizeWindow(*s, all(*s), {0, 400 * kMs}, StatsKind::KernelSum);
        QCOMPARE(kernels.size(), size_t(1));
        QCOMPARE(kernels[0].name, std::string("gemm"));
        QCOMPARE(kernels[0].count, 12ull);
    }

    void crossRankData()
    {
        const auto s = run();
        const CrossRankData d = ps::views::crossRankData(*s, QStringLiteral("step"));
        QCOMPARE(d.ranks, (QStringList{"rank 0", "rank 1", "rank 2", "rank 3"}));
        QCOMPARE(d.steps, 3);
        QCOMPARE(int(d.bars.size()), 12);
        QCOMPARE(d.straggler, 2);
        QCOMPARE(d.totals[2], 45 * kMs);
        QCOMPARE(d.totals[0], 30 * kMs);
        for (const CrossRankBar &b : d.bars) {
            QCOMPARE(b.durationNs, b.rank == 2 ? 15 * kMs : 10 * kMs);
            // The bar points at the event it stands for.
            const Track &t = s->entries[size_t(b.entry)].report->store().track(b.ref.track);
            QCOMPARE(t.start(b.ref.index), 1 * kMs + b.step * 100 * kMs);
            QCOMPARE(t.duration(b.ref.index), b.durationNs);
        }
        QVERIFY(ps::views::crossRankData(*s, QStringLiteral("nosuchrange")).isEmpty());
    }

    void chartShowsBarsAndClickJumps()
    {
        CrossRankChart chart;
        chart.resize(800, 400);
        chart.setData(ps::views::crossRankData(*run(), QStringLiteral("step")));
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.plot()->replot();
        QCOMPARE(chart.plot()->plottableCount(), 3); // one QCPBars per step
        auto *bars = qobject_cast<QCPBars *>(chart.plot()->plottable(1));
        QVERIFY(bars);
        QCOMPARE(bars->data()->size(), 4);
        QCOMPARE((bars->data()->constBegin() + 2)->value, 15.0); // rank 2, step 2, in ms
        QSignalSpy spy(&chart, &CrossRankChart::barActivated);
        // Click in the middle of rank 2's bar of step 2.
        const QPointF top = bars->dataPixelPosition(2);
        const QPoint click(int(top.x()), int(top.y()) + 20);
        QTest::mouseClick(chart.plot(), Qt::LeftButton, {}, click);
        QCOMPARE(spy.count(), 1);
        const EventRef ref = spy.at(0).at(1).value<EventRef>();
        QCOMPARE(spy.at(0).at(0).toInt(), 2);
        QCOMPARE(ref.index, chart.data().bar(2, 1)->ref.index);
    }

    void paneTableSortsFiltersAndCopies()
    {
        StatsPane pane;
        QAbstractItemModelTester tester(pane.model());
        const auto s = run();
        pane.setInput(s, all(*s), {0, 400 * kMs});
        QTRY_VERIFY(!pane.isBusy());
        QCOMPARE(pane.model()->rowCount(), 2); // step, forward
        QCOMPARE(pane.proxy()->index(0, StatsTableModel::Name).data().toString(), QStringLiteral("step"));
        // Sorting by total, ascending, puts the shorter range first.
        pane.table()->sortByColumn(StatsTableModel::Total, Qt::AscendingOrder);
        QCOMPARE(pane.proxy()->index(0, StatsTableModel::Name).data().toString(), QStringLiteral("forward"));
        QCOMPARE(pane.proxy()->index(0, StatsTableModel::Total).data().toString(), QStringLiteral("67.5 ms"));
        pane.filterEdit()->setText(QStringLiteral("STE"));
        QCOMPARE(pane.proxy()->rowCount(), 1);
        QCOMPARE(pane.visibleCsv(), QStringLiteral("name,count,total_ns,avg_ns,med_ns,min_ns,max_ns,stddev_ns\n"
                                                   "\"step\",12,135000000,11250000.0,10000000.0,10000000,15000000,"
                                                   "2261335.1\n"));
        pane.setKind(StatsKind::KernelSum);
        QTRY_VERIFY(!pane.isBusy());
        pane.filterEdit()->clear();
        QCOMPARE(pane.model()->rowCount(), 1);
        QCOMPARE(pane.proxy()->index(0, 0).data().toString(), QStringLiteral("gemm"));
    }

    void selectingARangeShowsItAcrossRanks()
    {
        StatsPane pane;
        const auto s = run();
        pane.setInput(s, all(*s), {0, 400 * kMs});
        QTRY_VERIFY(!pane.isBusy());
        pane.table()->selectRow(0); // "step"
        QTRY_VERIFY(!pane.isBusy());
        QCOMPARE(pane.chart()->data().name, QStringLiteral("step"));
        QCOMPARE(pane.chart()->data().straggler, 2);
        QSignalSpy jump(&pane, &StatsPane::jumpTo);
        QVERIFY(pane.chart()->activateBar(3, 0));
        QCOMPARE(jump.count(), 1);
        QCOMPARE(jump.at(0).at(0).toInt(), 3);
    }
};

QTEST_MAIN(TestTimelineStats)
#include "tst_timelinestats.moc"
