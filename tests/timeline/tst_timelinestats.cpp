// Stats over what the timeline shows: nvtx_sum / kernel_sum in a time window agree with the
// engine's summarize() over whole reports, the window restricts them and the entries' offsets
// move them, the cross-rank chart's data (durations per rank and step, straggler; per Range and
// Style) and its bars, and the Stats pane's table (Style column, sorting, filtering, CSV).
#include "testreports.h"
#include "views/stats/crossrankchart.h"
#include "views/stats/crossrankdata.h"
#include "views/stats/rangestats.h"
#include "views/stats/statspane.h"
#include "views/stats/statstablemodel.h"

#include "core/trace/read/traceloader.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>
#include <qcustomplot.h>

using namespace ps::views;
using namespace ps::core::trace;

namespace {
constexpr int64_t kMs = 1'000'000;

// Waits for the pane's background jobs, starting debounced work at once.
bool settled(StatsPane &pane)
{
    QElapsedTimer t;
    t.start();
    while (pane.isBusy() && t.elapsed() < 30000) {
        pane.flushDeferred();
        QTest::qWait(2);
    }
    return !pane.isBusy();
}

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

const StatRow *find(const std::vector<StatRow> &rows, const std::string &name, const std::string &style = "PushPop")
{
    for (const StatRow &r : rows)
        if (r.name == name && r.style == style)
            return &r;
    return nullptr;
}

// Ranks 0..2 with one Range in two styles: "train:step" push/pop ranges (10 ms, NVTX domain
// "train") and "step" start/end ranges without domain (5 ms + 1 ms per rank), three steps each.
std::shared_ptr<const TimelineScene> styledRun(const std::vector<int64_t> &offsets = {})
{
    std::vector<PreparedReportPtr> reps;
    for (int r = 0; r < 3; ++r)
        reps.push_back(PreparedReport::prepare(ps::test::makeReport(
            "/runs/styled/rlinf_profile_ActorGroup_" + std::to_string(r) + "_" + std::to_string(200 + r) + ".sqlite",
            [&](StoreBuilder &b) {
                const uint32_t pid = 200 + uint32_t(r);
                const uint16_t train = b.nvtxScope({pid, 1, b.intern("train"), 0, kNoName});
                const uint16_t plain = b.nvtxScope({pid, 0, kNoName, 0, kNoName});
                const TrackHandle pp = b.track({TrackKind::NvtxPushPop, pid, 11, 0});
                const TrackHandle se = b.track({TrackKind::NvtxStartEnd, pid, 11, 0});
                const NameId step = b.intern("step");
                for (int k = 0; k < 3; ++k) {
                    const int64_t t = 1 * kMs + k * 100 * kMs;
                    b.add(pp, t, t + 10 * kMs, step, 0, train);
                    b.add(se, t + 20 * kMs, t + 25 * kMs + r * kMs, step, 0, plain);
                }
            },
            r)));
    return std::make_shared<TimelineScene>(buildScene(reps, offsets));
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
            QCOMPARE(mine.front().style, std::string(kind == StatsKind::NvtxSum ? "PushPop" : ""));
            for (size_t i = 0; i < mine.size(); ++i) {
                QCOMPARE(mine[i].name, engine[i].name);
                QCOMPARE(mine[i].style, engine[i].style);
                QCOMPARE(mine[i].timePct, engine[i].timePct);
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
        QCOMPARE(kernels[0].style, std::string());
        QCOMPARE(kernels[0].count, 12ull);
        QCOMPARE(kernels[0].timePct, 100.0);
        // Time (%) is the share of the window's total (step and forward).
        const StatRow *fwd = find(rows, "forward");
        QVERIFY(fwd);
        QCOMPARE(step->timePct, double(step->totalNs) * 100 / double(step->totalNs + fwd->totalNs));
        QCOMPARE(step->timePct + fwd->timePct, 100.0);
        // An event starting exactly at the window's start counts, one starting at its end does not.
        QCOMPARE(find(summarizeWindow(*s, all(*s), {1 * kMs, 101 * kMs}, StatsKind::NvtxSum), "step")->count, 4ull);
        QCOMPARE(find(summarizeWindow(*s, all(*s), {1 * kMs + 1, 101 * kMs + 1}, StatsKind::NvtxSum), "step")->count,
                 4ull);
        QVERIFY(!find(summarizeWindow(*s, all(*s), {1 * kMs + 1, 101 * kMs}, StatsKind::NvtxSum), "step"));
    }

    // The entries' offsets put the reports on the shared axis before the window applies.
    void offsetsMoveEntries()
    {
        // Ranks 1 and 2 are shifted by 1 s and 50 ms; ranks 0 as is.
        const auto s = styledRun({0, 1000 * kMs, 50 * kMs});
        QCOMPARE(s->entries.size(), size_t(3));
        // [0, 120 ms): rank 0's first two steps (1 ms, 101 ms), rank 2's first (51 ms).
        const auto rows = summarizeWindow(*s, all(*s), {0, 120 * kMs}, StatsKind::NvtxSum);
        QCOMPARE(find(rows, "train:step")->count, 3ull);
        // start/end ranges starting in it: 21 ms (rank 0, 5 ms) and 71 ms (rank 2, 7 ms).
        QCOMPARE(find(rows, "step", "StartEnd")->count, 2ull);
        QCOMPARE(find(rows, "step", "StartEnd")->totalNs, 5 * kMs + 7 * kMs);
        // [1 s, 1.2 s) holds only rank 1.
        const auto late = summarizeWindow(*s, all(*s), {1000 * kMs, 1200 * kMs}, StatsKind::NvtxSum);
        QCOMPARE(find(late, "train:step")->count, 2ull);
        QCOMPARE(find(late, "step", "StartEnd")->maxNs, 6 * kMs);
        // Only the entries given: rank 1 alone has nothing before 1 s.
        int rank1 = -1;
        for (size_t i = 0; i < s->entries.size(); ++i)
            if (s->entries[i].offset == 1000 * kMs)
                rank1 = int(i);
        QVERIFY(rank1 >= 0);
        QVERIFY(summarizeWindow(*s, {rank1}, {0, 120 * kMs}, StatsKind::NvtxSum).empty());
        QCOMPARE(find(summarizeWindow(*s, {rank1}, {1000 * kMs, 1200 * kMs}, StatsKind::NvtxSum), "train:step")->count,
                 2ull);
        ps::core::CancelToken cancelled;
        cancelled.cancel();
        QVERIFY(summarizeWindow(*s, all(*s), {0, 120 * kMs}, StatsKind::NvtxSum, &cancelled).empty());
    }

    void crossRankData()
    {
        const auto s = run();
        const CrossRankData d = ps::views::crossRankData(*s, QStringLiteral("step"));
        QCOMPARE(d.ranks, (QStringList{"rank 0", "rank 1", "rank 2", "rank 3"}));
        QCOMPARE(d.steps, 3);
        QCOMPARE(d.stepLabels, (QStringList{"#1", "#2", "#3"})); // counted: one report holds all steps
        QCOMPARE(int(d.bars.size()), 12);
        QCOMPARE(d.longest, 2);
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
        QVERIFY(settled(pane));
        QCOMPARE(pane.model()->rowCount(), 2); // step, forward
        QCOMPARE(pane.proxy()->index(0, StatsTableModel::Name).data().toString(), QStringLiteral("step"));
        QCOMPARE(pane.proxy()->index(0, StatsTableModel::Style).data().toString(), QStringLiteral("PushPop"));
        QCOMPARE(pane.model()->headerData(StatsTableModel::Style, Qt::Horizontal, Qt::DisplayRole).toString(),
                 QStringLiteral("Style"));
        QVERIFY(!pane.table()->isColumnHidden(StatsTableModel::Style));
        QCOMPARE(pane.proxy()->index(0, StatsTableModel::TimePct).data().toString(), QStringLiteral("66.7 %"));
        // Sorting by total, ascending, puts the shorter range first.
        pane.table()->sortByColumn(StatsTableModel::Total, Qt::AscendingOrder);
        QCOMPARE(pane.proxy()->index(0, StatsTableModel::Name).data().toString(), QStringLiteral("forward"));
        QCOMPARE(pane.proxy()->index(0, StatsTableModel::Total).data().toString(), QStringLiteral("67.5 ms"));
        pane.filterEdit()->setText(QStringLiteral("STE"));
        QCOMPARE(pane.proxy()->rowCount(), 1);
        QCOMPARE(pane.visibleCsv(),
                 QStringLiteral("name,count,total_ns,avg_ns,med_ns,min_ns,max_ns,stddev_ns,time_pct,style\n"
                                "step,12,135000000,11250000.0,10000000.0,10000000,15000000,"
                                "2261335.1,66.7,PushPop\n"));
        pane.setKind(StatsKind::KernelSum);
        QVERIFY(settled(pane));
        pane.filterEdit()->clear();
        QCOMPARE(pane.model()->rowCount(), 1);
        QCOMPARE(pane.proxy()->index(0, 0).data().toString(), QStringLiteral("gemm"));
        // Kernels have no style: the column is hidden and not in the CSV.
        QVERIFY(pane.table()->isColumnHidden(StatsTableModel::Style));
        QVERIFY(pane.visibleCsv().startsWith(
            QStringLiteral("name,count,total_ns,avg_ns,med_ns,min_ns,max_ns,stddev_ns,time_pct\ngemm,12,")));
        pane.setKind(StatsKind::NvtxSum);
        QVERIFY(settled(pane));
        QVERIFY(!pane.table()->isColumnHidden(StatsTableModel::Style));
    }

    // One Range in two styles gives two rows; the Style column sorts; the CSV has it; selecting
    // a row shows that Range and Style across ranks.
    void paneStyleColumn()
    {
        StatsPane pane;
        QAbstractItemModelTester tester(pane.model());
        const auto s = styledRun();
        pane.setInput(s, all(*s), {0, 400 * kMs});
        QVERIFY(settled(pane));
        QCOMPARE(pane.model()->rowCount(), 2);
        auto cell = [&](int row, int col) { return pane.proxy()->index(row, col).data().toString(); };
        pane.table()->sortByColumn(StatsTableModel::Style, Qt::AscendingOrder);
        QCOMPARE(cell(0, StatsTableModel::Style), QStringLiteral("PushPop"));
        QCOMPARE(cell(0, StatsTableModel::Name), QStringLiteral("train:step"));
        QCOMPARE(cell(1, StatsTableModel::Style), QStringLiteral("StartEnd"));
        QCOMPARE(cell(1, StatsTableModel::Name), QStringLiteral("step"));
        pane.table()->sortByColumn(StatsTableModel::Style, Qt::DescendingOrder);
        QCOMPARE(cell(0, StatsTableModel::Style), QStringLiteral("StartEnd"));
        // CSV in view order: StartEnd (3 x 5 ms + 3 x 6 ms + 3 x 7 ms = 54 ms) first.
        const QStringList csv = pane.visibleCsv().split('\n', Qt::SkipEmptyParts);
        QCOMPARE(csv.size(), 3);
        QVERIFY(csv[1].startsWith(QStringLiteral("step,9,54000000,")));
        QVERIFY(csv[1].endsWith(QStringLiteral(",37.5,StartEnd")));
        QVERIFY(csv[2].startsWith(QStringLiteral("train:step,9,90000000,")));
        QVERIFY(csv[2].endsWith(QStringLiteral(",62.5,PushPop")));
        // Selecting the start/end row charts the start/end ranges only.
        pane.table()->selectRow(0);
        QVERIFY(settled(pane));
        QCOMPARE(pane.chart()->data().name, QStringLiteral("step"));
        QCOMPARE(pane.chart()->data().style, QStringLiteral("StartEnd"));
        QCOMPARE(int(pane.chart()->data().bars.size()), 9);
        QCOMPARE(pane.chart()->data().longest, 2); // 7 ms ranges
        // The longest total is called that, not "straggler" (RL Phases' word, by arrival; #38).
        QVERIFY2(pane.chart()->title().contains(QStringLiteral("longest total")), qPrintable(pane.chart()->title()));
        QVERIFY(!pane.chart()->title().contains(QStringLiteral("straggler")));
        pane.table()->selectRow(1);
        QVERIFY(settled(pane));
        QCOMPARE(pane.chart()->data().name, QStringLiteral("train:step"));
        QCOMPARE(pane.chart()->data().totals[0], 30 * kMs);
    }

    // The cross-rank chart matches the Range as nvtx_sum names it and, when given, the Style.
    // Per-step exports (verl's discrete mode): the legend names the steps the run profiled.
    void crossRankNamesProfiledSteps()
    {
        std::vector<PreparedReportPtr> reps;
        for (int rank = 0; rank < 2; ++rank)
            for (int step : {2, 3, 4}) {
                auto r = ps::test::makeRank(rank, 1, 10 * kMs);
                auto m = std::const_pointer_cast<Report>(r);
                m->path += "." + std::to_string(step);
                m->identity.step = step;
                reps.push_back(PreparedReport::prepare(r));
            }
        const TimelineScene scene = buildScene(reps, {});
        const CrossRankData d = ps::views::crossRankData(scene, QStringLiteral("step"));
        QCOMPARE(d.steps, 3);
        QCOMPARE(d.stepLabels, (QStringList{"step 2", "step 3", "step 4"}));
    }

    void crossRankByRangeAndStyle()
    {
        const auto s = styledRun();
        const CrossRankData pp = ps::views::crossRankData(*s, QStringLiteral("train:step"), QStringLiteral("PushPop"));
        QCOMPARE(int(pp.bars.size()), 9);
        for (const CrossRankBar &b : pp.bars)
            QCOMPARE(b.durationNs, 10 * kMs);
        // Any style: "train:step" only exists as push/pop.
        QCOMPARE(int(ps::views::crossRankData(*s, QStringLiteral("train:step")).bars.size()), 9);
        // "step" is the start/end Range (the push/pop ones are "train:step").
        const CrossRankData se = ps::views::crossRankData(*s, QStringLiteral("step"));
        QCOMPARE(int(se.bars.size()), 9);
        QCOMPARE(se.totals[1], 18 * kMs);
        QVERIFY(ps::views::crossRankData(*s, QStringLiteral("step"), QStringLiteral("PushPop")).isEmpty());
        QVERIFY(ps::views::crossRankData(*s, QStringLiteral("train:step"), QStringLiteral("StartEnd")).isEmpty());
    }

    void selectingARangeShowsItAcrossRanks()
    {
        StatsPane pane;
        const auto s = run();
        pane.setInput(s, all(*s), {0, 400 * kMs});
        QVERIFY(settled(pane));
        pane.table()->selectRow(0); // "step"
        QVERIFY(settled(pane));
        QCOMPARE(pane.chart()->data().name, QStringLiteral("step"));
        QCOMPARE(pane.chart()->data().longest, 2);
        QSignalSpy jump(&pane, &StatsPane::jumpTo);
        QVERIFY(pane.chart()->activateBar(3, 0));
        QCOMPARE(jump.count(), 1);
        QCOMPARE(jump.at(0).at(0).toInt(), 3);

        // The step legend sits above the plot, never over the bars.
        pane.resize(900, 400);
        pane.show();
        auto *plot = pane.chart()->findChild<QCustomPlot *>("crossRankPlot");
        plot->replot();
        QVERIFY(plot->legend->visible());
        QVERIFY(!plot->legend->outerRect().intersects(plot->axisRect()->rect()));

        // New reports make a new scene: the chart follows it instead of showing the old ranks.
        const int ranksBefore = int(pane.chart()->data().ranks.size());
        const auto fewer = std::make_shared<TimelineScene>(*s);
        fewer->entries.pop_back();
        pane.setInput(fewer, all(*fewer), {0, 400 * kMs});
        QVERIFY(settled(pane));
        QCOMPARE(pane.chart()->data().name, QStringLiteral("step"));
        QCOMPARE(int(pane.chart()->data().ranks.size()), ranksBefore - 1);
    }
};

QTEST_MAIN(TestTimelineStats)
#include "tst_timelinestats.moc"
