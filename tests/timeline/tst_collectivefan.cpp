// At 64 ranks an arrow from every member to the last arrival is a solid wedge: the timeline draws
// arrows from the longest waits only (CollectiveOverlay::kShownArrows) and counts the others in a
// note beside the last arrival. Per-rank Kineto traces of a synchronous loop
// (tests/support/syncloop.h) with rank 37 late to the world allreduce of step 1.
#include "core/trace/alignment.h"
#include "views/timeline/collectivewiring.h"
#include "views/timeline/timelinecanvas.h"

#include "../support/reportload.h"
#include "../support/syncloop.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <numeric>
#include <set>

using namespace ps::views;
using namespace ps::core::trace;
using ps::core::CancelToken;
namespace an = ps::core::analysis;

namespace {
constexpr int kRanks = 64, kLate = 37;
} // namespace

class TestCollectiveFan : public QObject
{
    Q_OBJECT

private slots:
    void manyMembersGetArrowsFromTheLongestWaits()
    {
        QTemporaryDir dir;
        ps::test::SyncLoopSpec spec;
        spec.ranks = kRanks;
        spec.steps = 2;
        spec.delays.push_back({kLate, 1, 1, false, 60'000'000});
        // Staggered arrivals: rank r is r x 0.5 ms late to the allreduce of step 1 (more than the
        // generator's jitter), so the waits differ and ranks 0-7 waited longest.
        for (int r = 1; r < kRanks; ++r)
            if (r != kLate)
                spec.delays.push_back({r, 1, 1, false, int64_t(r) * 500'000});
        const auto expected = ps::test::SyncLoopWriter(spec).write(dir.path().toStdString());
        std::vector<ReportPtr> reports;
        for (int r = 0; r < kRanks; ++r)
            reports.push_back(
                ps::test::loadTestReport(QDir(dir.path()).filePath(QStringLiteral("rank-%1.pt.trace.json").arg(r))));
        const AlignResult aligned = alignReports(reports, AlignSpec{});
        std::vector<PreparedReportPtr> prepared;
        for (const ReportPtr &r : reports)
            prepared.push_back(PreparedReport::prepare(r));
        auto scene = std::make_shared<TimelineScene>(buildScene(prepared, aligned.offsets));
        std::vector<int> entries(scene->entries.size());
        std::iota(entries.begin(), entries.end(), 0);
        CancelToken never;
        const CollectiveViewPtr view = buildCollectiveView(scene, entries, never);

        TimelineCanvas canvas;
        canvas.resize(1366, 700);
        canvas.setScene(scene); // 64 reports: one density row each
        canvas.setCollectives(view);
        std::optional<size_t> instance;
        for (size_t i = 0; i < view->analysis.instances.size(); ++i)
            if (view->analysis.instances[i].group == "0" && view->analysis.instances[i].index == 1)
                instance = i;
        QVERIFY(instance);
        const an::CollectiveInstance &inst = view->analysis.instances[*instance];
        QCOMPARE(inst.lastRank, kLate);
        QCOMPARE(int(inst.members.size()), kRanks);
        revealCollective(canvas, *view, *instance);
        QCOMPARE(canvas.collectiveOverlay().focus(), instance);
        canvas.grab();

        const CollectiveOverlay &o = canvas.collectiveOverlay();
        QCOMPARE(o.lastArrows().size(), CollectiveOverlay::kShownArrows);
        QCOMPARE(o.lastArrowsLeftOut(), size_t(kRanks - 1) - CollectiveOverlay::kShownArrows);
        QVERIFY2(o.lastNote().contains(QStringLiteral("%1 more rank(s) waited").arg(o.lastArrowsLeftOut())),
                 qPrintable(o.lastNote()));
        // The arrows come from the ranks that waited longest: the earliest arrivals, ranks 0-7.
        std::vector<std::pair<int64_t, int>> waits;
        for (const an::CollectiveMember &m : inst.members)
            if (m.rank != kLate)
                waits.emplace_back(m.waitNs, m.rank);
        std::sort(waits.rbegin(), waits.rend());
        std::set<int> longest, drawn;
        for (size_t i = 0; i < CollectiveOverlay::kShownArrows; ++i)
            longest.insert(waits[i].second);
        for (const DrawnArrow &a : o.lastArrows()) {
            drawn.insert(a.fromRank);
            QCOMPARE(a.toRank, kLate);
        }
        QCOMPARE(drawn, longest);
        QCOMPARE(longest, (std::set<int>{0, 1, 2, 3, 4, 5, 6, 7}));
        Q_UNUSED(expected);
    }
};

QTEST_MAIN(TestCollectiveFan)
#include "tst_collectivefan.moc"
