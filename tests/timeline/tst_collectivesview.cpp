// Who waits for whom, in the GUI: per-rank Kineto traces of a synchronous loop with a planted
// late rank (tests/support/syncloop.h, the real schema), matched across ranks. Selecting a
// collective kernel focuses its instance on every rank with an arrow from each member to the
// last arrival and a details line; the waiting part of each kernel is hatched over exactly its
// wait; the Collectives tab lists groups x instances, sorts by skew and wait, copies, selects the
// instance in the timeline from a row, and cancels on Esc.
#include "core/trace/alignment.h"
#include "views/collectives/collectivesmodel.h"
#include "views/collectives/collectivespane.h"
#include "views/common/tablecopy.h"
#include "views/scene/runanalyses.h"
#include "views/scene/timeformat.h"
#include "views/stats/breakdownmodel.h"
#include "views/stats/breakdownpane.h"
#include "views/stats/phasespane.h"
#include "views/timeline/collectivewiring.h"
#include "views/timeline/detailspane.h"
#include "views/timeline/timelinecanvas.h"

#include "../support/reportload.h"
#include "../support/syncloop.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <numeric>
#include <set>

using namespace ps::views;
using namespace ps::core::trace;
using ps::core::CancelToken;
namespace an = ps::core::analysis;

namespace {

constexpr int kRanks = 8, kSteps = 6, kLate = 5;
constexpr int64_t kLateNs = 25'000'000;

struct SyncRun
{
    std::vector<ps::test::ExpectedInstance> expected;
    std::shared_ptr<const TimelineScene> scene;
    std::vector<int> entries;
};

// Rank 5 computes 25 ms longer before the world allreduce in steps 2-4.
SyncRun writeSyncRun(const QString &dir)
{
    ps::test::SyncLoopSpec spec;
    spec.ranks = kRanks;
    spec.steps = kSteps;
    spec.delays.push_back({kLate, 2, 4, false, kLateNs});
    SyncRun run;
    run.expected = ps::test::SyncLoopWriter(spec).write(dir.toStdString());
    std::vector<ReportPtr> reports;
    for (int r = 0; r < kRanks; ++r)
        reports.push_back(ps::test::loadTestReport(QDir(dir).filePath(QStringLiteral("rank-%1.pt.trace.json").arg(r))));
    const AlignResult aligned = alignReports(reports, AlignSpec{});
    std::vector<PreparedReportPtr> prepared;
    for (const ReportPtr &r : reports)
        prepared.push_back(PreparedReport::prepare(r));
    run.scene = std::make_shared<TimelineScene>(buildScene(prepared, aligned.offsets));
    run.entries.resize(run.scene->entries.size());
    std::iota(run.entries.begin(), run.entries.end(), 0);
    return run;
}

// The world allreduce of a step (group "0", k-th collective of the group).
size_t allreduceOfStep(const CollectiveView &v, int step)
{
    for (size_t i = 0; i < v.analysis.instances.size(); ++i) {
        const an::CollectiveInstance &inst = v.analysis.instances[i];
        if (inst.group == "0" && inst.index == step)
            return i;
    }
    qFatal("no allreduce of step %d", step);
}

const an::CollectiveMember &memberOf(const an::CollectiveInstance &inst, int rank)
{
    for (const an::CollectiveMember &m : inst.members)
        if (m.rank == rank)
            return m;
    qFatal("rank %d is not a member", rank);
}

} // namespace

class TestCollectives : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    SyncRun m_run;
    CollectiveViewPtr m_view;

    CollectiveViewPtr match()
    {
        CancelToken never;
        return buildCollectiveView(m_run.scene, m_run.entries, never);
    }

    void showRun(TimelineCanvas &canvas)
    {
        canvas.resize(1400, 900);
        canvas.setScene(m_run.scene);
        canvas.setCollectives(m_view);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_run = writeSyncRun(m_dir.path());
        m_view = match();
        QVERIFY(m_view);
        QVERIFY2(m_view->analysis.errors.empty(),
                 m_view->analysis.errors.empty() ? "" : m_view->analysis.errors[0].c_str());
        QCOMPARE(m_view->analysis.instances.size(), m_run.expected.size());
    }

    // Selecting rank 2's allreduce kernel of a late step focuses the instance: every other
    // member's arrow ends at rank 5's arrival, and the details line names rank 5 and the waits.
    void selectedKernelShowsItsInstance()
    {
        TimelineCanvas canvas;
        showRun(canvas);
        const size_t i = allreduceOfStep(*m_view, 3);
        const an::CollectiveInstance &inst = m_view->analysis.instances[i];
        QCOMPARE(inst.lastRank, kLate);
        const an::CollectiveMember &m2 = memberOf(inst, 2);
        canvas.reveal({m_view->entries[m2.report], m2.event});
        QCOMPARE(canvas.collectiveOverlay().focus(), std::optional<size_t>(i));
        canvas.grab();
        const auto &arrows = canvas.collectiveOverlay().lastArrows();
        QCOMPARE(int(arrows.size()), kRanks - 1);
        const an::CollectiveMember &last = memberOf(inst, kLate);
        const TimelineEntry &lastEntry = m_run.scene->entries[size_t(m_view->entries[last.report])];
        const double lastX =
            canvas.lanesLeft() + canvas.mapping().x(last.startNs - m_view->offsets[last.report], lastEntry.offset);
        std::set<int> from;
        for (const DrawnArrow &a : arrows) {
            QCOMPARE(a.toRank, kLate);
            QVERIFY(std::abs(a.line.p2().x() - lastX) < 0.5);
            QCOMPARE(a.line.p2(), arrows.front().line.p2());
            QVERIFY2(a.line.p1().x() < a.line.p2().x(), "every member arrived before the late rank");
            from.insert(a.fromRank);
        }
        QCOMPARE(from, (std::set<int>{0, 1, 2, 3, 4, 6, 7}));
        // The generator's figures: 25 ms of wait (plus the jitter), 5 ms of transfer, its busbw.
        const ps::test::ExpectedInstance &e = m_run.expected[size_t(3 * (1 + kRanks / 4))];
        QCOMPARE(e.lastRank, kLate);
        std::vector<int64_t> waits;
        for (const auto &[rank, wait] : e.waitNs)
            if (rank != kLate)
                waits.push_back(wait);
        std::sort(waits.begin(), waits.end());
        QVERIFY(waits.front() > kLateNs - 500'000);
        const QString line = instanceSummary(inst);
        QCOMPARE(line, QStringLiteral("rank 5 arrived last; the others waited %1 (median); transfer %2; busbw %3")
                           .arg(formatDuration(waits[waits.size() / 2]), formatDuration(e.transferNs),
                                bandwidthText(e.busbwGBps)));
        // A kernel that is no collective focuses nothing.
        canvas.select(std::nullopt);
        QCOMPARE(canvas.collectiveOverlay().focus(), std::nullopt);
        canvas.grab();
        QVERIFY(canvas.collectiveOverlay().lastArrows().empty());
    }

    // The hatched part of each member's kernel spans its wait: from its arrival to the last
    // arrival, to the pixel; the last rank's kernel has none.
    void hatchingExtentEqualsWait()
    {
        TimelineCanvas canvas;
        showRun(canvas);
        const size_t i = allreduceOfStep(*m_view, 2);
        revealCollective(canvas, *m_view, i);
        const QImage img = canvas.grab().toImage();
        const an::CollectiveInstance &inst = m_view->analysis.instances[i];
        int checked = 0;
        for (const an::CollectiveMember &m : inst.members) {
            const int entry = m_view->entries[m.report];
            const auto &waits = canvas.collectiveOverlay().lastWaits();
            const auto w = std::find_if(waits.begin(), waits.end(),
                                        [&](const DrawnWait &d) { return d.entry == entry && d.instance == i; });
            if (m.rank == kLate) {
                QVERIFY(w == waits.end());
                continue;
            }
            if (canvas.layout().rowOf(entry, m.event.track) < 0)
                continue; // collapsed or off the layout
            const int row = canvas.layout().rowOf(entry, m.event.track);
            const int rowY = canvas.layout().rows()[size_t(row)].y - canvas.scrollY();
            if (rowY < 0 || rowY > canvas.height())
                continue; // scrolled away: not drawn
            QVERIFY2(w != waits.end(), qPrintable(QStringLiteral("rank %1's wait is hatched").arg(m.rank)));
            const int64_t offset = m_run.scene->entries[size_t(entry)].offset;
            const int64_t own = m.startNs - m_view->offsets[m.report];
            const double x0 = canvas.lanesLeft() + canvas.mapping().x(own, offset);
            const double x1 = canvas.lanesLeft() + canvas.mapping().x(own + m.waitNs, offset);
            QVERIFY(std::abs(w->rect.left() - x0) <= 1.0);
            QVERIFY2(std::abs(w->rect.left() + w->rect.width() - x1) <= 1.0,
                     qPrintable(QStringLiteral("rank %1: hatch ends at %2, the wait at %3")
                                    .arg(m.rank)
                                    .arg(w->rect.left() + w->rect.width())
                                    .arg(x1)));
            QCOMPARE(m.waitNs, memberOf(inst, kLate).startNs - m.startNs);
            // Drawn: the hatching's dark lines inside, none in the transfer part after it (on the
            // lane's top pixel row, above the kernel's name and below the focus outline).
            const int y = w->rect.top() + 1;
            auto darkIn = [&](int from, int to) {
                int dark = 0;
                for (int x = from; x < to; ++x)
                    dark += qGray(img.pixel(x, y)) < 80 ? 1 : 0;
                return dark;
            };
            QVERIFY(darkIn(w->rect.left() + 2, w->rect.right() - 2) > 3);
            const double end = canvas.lanesLeft() + canvas.mapping().x(m.endNs - m_view->offsets[m.report], offset);
            QCOMPARE(darkIn(w->rect.right() + 3, int(end) - 3), 0);
            ++checked;
        }
        QVERIFY(checked >= 3);
    }

    void tableRowsAndSort()
    {
        CollectivesPane pane;
        pane.resize(1200, 400);
        // Qt's model contract kept through the reset and sorts (the tester only observes).
        QAbstractItemModelTester tester(const_cast<CollectivesModel *>(pane.model()));
        pane.setInput(m_run.scene, m_run.entries);
        QTRY_VERIFY(!pane.isBusy());
        QVERIFY(pane.collectiveView());
        // Groups x instances: per step the world allreduce and an allgather per group of four.
        QCOMPARE(pane.model()->rowCount(), kSteps * (1 + kRanks / 4));
        QVERIFY2(pane.summaryText().contains(QStringLiteral("group 0: 6 instances (6 complete)")),
                 qPrintable(pane.summaryText()));
        QVERIFY(pane.summaryText().contains(QStringLiteral("rank 5 arrived last 3 times")));
        // Each figure says what it sums, and the jargon is explained where it shows.
        QVERIFY2(pane.summaryText().contains(QStringLiteral("over 8 ranks")), qPrintable(pane.summaryText()));
        QVERIFY(pane.summaryText().contains(QStringLiteral("over the instances")));
        const QString tip = pane.findChild<QLabel *>(QStringLiteral("collectivesSummary"))->toolTip();
        QVERIFY2(tip.contains(QStringLiteral("instances matched across ranks")), qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("bytes each collective moved")));
        QVERIFY(pane.model()
                    ->headerData(CollectivesModel::Busbw, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("bytes")));
        QSortFilterProxyModel *proxy = pane.proxy();
        for (int column : {int(CollectivesModel::Skew), int(CollectivesModel::MedianWait)}) {
            pane.table()->sortByColumn(column, Qt::DescendingOrder);
            for (int row = 0; row < 3; ++row) {
                QCOMPARE(proxy->index(row, CollectivesModel::LastRank).data().toString(), QStringLiteral("5"));
                QCOMPARE(proxy->index(row, CollectivesModel::Op).data().toString(), QStringLiteral("allreduce"));
            }
            for (int row = 1; row < proxy->rowCount(); ++row)
                QVERIFY(proxy->index(row - 1, column).data(CollectivesModel::kSortRole).toLongLong() >=
                        proxy->index(row, column).data(CollectivesModel::kSortRole).toLongLong());
            QVERIFY(proxy->index(3, column).data(CollectivesModel::kSortRole).toLongLong() < kLateNs / 2);
        }
        // Copy gives the selected rows as text and CSV.
        pane.table()->selectRow(0);
        const QString tsv = selectedCellsText(pane.table(), CellFormat::Tsv);
        QVERIFY2(tsv.startsWith(QStringLiteral("0\tallreduce\t")), qPrintable(tsv));
        QVERIFY(tsv.contains(QStringLiteral("longest wait 25.")));
        QVERIFY(selectedCellsText(pane.table(), CellFormat::Csv).startsWith(QStringLiteral("0,allreduce,")));
    }

    // Past its member budget (a large run), the view keeps the instances with the largest skew:
    // here the late steps' world allreduces, for a budget of 3 instances' members; the groups
    // still sum every instance, and the pane says what the table holds.
    void largeRunKeepsTheWorstInstances()
    {
        CancelToken never;
        const CollectiveViewPtr all = match();
        const CollectiveViewPtr capped = buildCollectiveView(m_run.scene, m_run.entries, never, 3 * kRanks);
        QVERIFY(capped && capped->capped() && !all->capped());
        QCOMPARE(capped->analysis.instances.size(), size_t(3));
        QCOMPARE(capped->analysis.instanceCount, all->analysis.instances.size());
        for (const an::CollectiveInstance &inst : capped->analysis.instances)
            QCOMPARE(inst.lastRank, kLate); // the planted rank made the three longest waits
        QCOMPARE(capped->analysis.groups.size(), all->analysis.groups.size());
        for (size_t g = 0; g < all->analysis.groups.size(); ++g) {
            QCOMPARE(capped->analysis.groups[g].waitNs, all->analysis.groups[g].waitNs);
            QCOMPARE(capped->analysis.groups[g].instances, all->analysis.groups[g].instances);
        }
        // A kernel of a kept instance still finds it; one of another instance finds none.
        const an::CollectiveMember &kept = capped->analysis.instances.front().members.front();
        QVERIFY(capped->instanceOf(int(kept.report), capped->reports[kept.report], kept.event));
        const an::CollectiveMember &early = all->analysis.instances.front().members.front();
        QVERIFY(!capped->instanceOf(int(early.report), capped->reports[early.report], early.event));
    }

    // A row selects its instance in the timeline: the last rank's kernel selected, the instance
    // focused with its arrows, every member's kernel in the window, the details line shown.
    void rowSelectsInstance()
    {
        QTabWidget tabs;
        TimelineCanvas canvas;
        DetailsPane details;
        canvas.resize(1400, 900);
        canvas.setScene(m_run.scene);
        CollectivesPane *pane = addCollectivesTab(&tabs, &canvas, &details);
        pane->setInput(m_run.scene, m_run.entries);
        QTRY_VERIFY(!pane->isBusy());
        QVERIFY(canvas.collectiveOverlay().view());
        pane->table()->sortByColumn(CollectivesModel::Skew, Qt::DescendingOrder);
        pane->table()->selectRow(0);
        const size_t i = size_t(pane->proxy()->index(0, 0).data(CollectivesModel::kInstanceRole).toInt());
        QCOMPARE(canvas.collectiveOverlay().focus(), std::optional<size_t>(i));
        const an::CollectiveInstance &inst = pane->collectiveView()->analysis.instances[i];
        const auto sel = canvas.selection();
        QVERIFY(sel);
        const an::CollectiveMember &last = memberOf(inst, kLate);
        QCOMPARE(sel->ref, last.event);
        QCOMPARE(sel->entry, pane->collectiveView()->entries[last.report]);
        for (const an::CollectiveMember &m : inst.members) {
            QVERIFY(canvas.window().start <= m.startNs);
            QVERIFY(canvas.window().end >= m.endNs);
        }
        QVERIFY2(details.collectiveNote().contains(QStringLiteral("rank 5 arrived last")),
                 qPrintable(details.collectiveNote()));
        // The match word in the note's title ("stream-order", "kineto-seq") is explained on hover.
        const std::string_view word = ps::core::analysis::matchMethodName(inst.method);
        const QString method = QString::fromUtf8(word.data(), qsizetype(word.size()));
        const QString tip = details.findChild<QLabel *>(QStringLiteral("collectiveNote"))->toolTip();
        QVERIFY2(details.collectiveNote().contains(method) &&
                     tip.startsWith(method + ": instances matched across ranks"),
                 qPrintable(tip));
        // And back: selecting another collective kernel in the timeline selects its row.
        const size_t other = allreduceOfStep(*pane->collectiveView(), 0);
        const an::CollectiveMember &m0 = memberOf(pane->collectiveView()->analysis.instances[other], 0);
        canvas.select(TimelineSelection{pane->collectiveView()->entries[m0.report], m0.event});
        const QModelIndex current = pane->table()->selectionModel()->currentIndex();
        QCOMPARE(size_t(current.data(CollectivesModel::kInstanceRole).toInt()), other);
    }

    // The Collectives, RL Phases and Breakdown panes read one matching of the scene: the matcher
    // runs once per scene change, not once per pane, and the three agree on who made whom wait.
    void oneMatchingPerSceneChange()
    {
        RunAnalysesJob job;
        PhasesPane phases;
        BreakdownPane breakdown(&phases);
        CollectivesPane collectives;
        phases.setRunJob(&job);
        collectives.setRunJob(&job);
        breakdown.show(); // the Breakdown computes only when looked at
        const uint64_t before = an::collectiveMatchPasses();
        phases.setInput(m_run.scene, m_run.entries);
        collectives.setInput(m_run.scene, m_run.entries);
        QTRY_VERIFY(!phases.isBusy() && !collectives.isBusy() && collectives.collectiveView());
        QTRY_VERIFY(!breakdown.isBusy() && breakdown.model()->rowCount() == kRanks);
        QCOMPARE(an::collectiveMatchPasses() - before, uint64_t(1));
        // RL Phases: the late steps' update_actor straggler is rank 5, by arrival.
        const an::PhaseTable &t = phases.shownTable();
        int late = 0;
        for (const an::PhaseRow &row : t.rows)
            if (row.phase == "update_actor" && row.step >= 2 && row.step <= 4) {
                QVERIFY(row.byArrival);
                QCOMPARE(t.columns[size_t(row.straggler)].report, size_t(kLate));
                ++late;
            }
        QCOMPARE(late, 3);
        // Breakdown: rank 0 waited at the collectives, rank 5 (last to arrive) hardly.
        const BreakdownModel *m = breakdown.model();
        const int waitColumn = m->nameColumns() + 4; // "Comm wait %"
        QCOMPARE(m->headerData(waitColumn, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Comm wait %"));
        QVERIFY(m->index(0, waitColumn).data(Qt::UserRole).toDouble() >= 3 * double(kLateNs) * 0.9);
        QVERIFY(m->index(kLate, waitColumn).data(Qt::UserRole).toDouble() < double(kLateNs));
        // Collectives: the instances rank 5 arrived last at are the late steps' allreduces.
        size_t lastAtFive = 0;
        for (const an::CollectiveInstance &inst : collectives.collectiveView()->analysis.instances)
            lastAtFive += inst.group == "0" && inst.lastRank == kLate;
        QCOMPARE(lastAtFive, size_t(3));
        // A new scene (the same reports realigned) is matched once more, for all three.
        auto realigned = std::make_shared<TimelineScene>(*m_run.scene);
        phases.setInput(realigned, m_run.entries);
        collectives.setInput(realigned, m_run.entries);
        QTRY_VERIFY(!phases.isBusy() && !collectives.isBusy() && phases.shownScene() == realigned);
        QTRY_VERIFY(!breakdown.isBusy());
        QCOMPARE(an::collectiveMatchPasses() - before, uint64_t(2));
        // Esc in the Collectives tab stops the one matching: the RL Phases pane says so instead
        // of waiting on it.
        auto third = std::make_shared<TimelineScene>(*m_run.scene);
        phases.setInput(third, m_run.entries);
        collectives.setInput(third, m_run.entries);
        QVERIFY(collectives.isBusy());
        collectives.cancel();
        QTRY_VERIFY(!phases.isBusy());
        const auto *summary = phases.findChild<QLabel *>(QStringLiteral("phasesSummary"));
        QVERIFY(summary);
        QVERIFY2(summary->text().startsWith(QStringLiteral("Cancelled")), qPrintable(summary->text()));
    }

    // Esc cancels a match in progress: nothing is delivered, and it can be started again.
    void escapeCancels()
    {
        CollectivesPane pane;
        QSignalSpy ready(&pane, &CollectivesPane::viewReady);
        pane.setInput(m_run.scene, m_run.entries);
        QVERIFY(pane.isBusy());
        pane.cancel();
        QTRY_VERIFY(!pane.isBusy());
        QCOMPARE(ready.count(), 0);
        QVERIFY(pane.summaryText().contains(QStringLiteral("cancelled")));
        QPushButton *again = pane.findChild<QPushButton *>();
        QVERIFY(again && !again->isHidden());
        again->click();
        QTRY_VERIFY(!pane.isBusy());
        QCOMPARE(ready.count(), 1);
        QCOMPARE(pane.model()->rowCount(), kSteps * (1 + kRanks / 4));
    }
};

QTEST_MAIN(TestCollectives)
#include "tst_collectivesview.moc"
