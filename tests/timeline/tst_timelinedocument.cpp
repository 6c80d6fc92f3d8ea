// The Timeline document without its widgets: opening reports (in path order, fitted once),
// aligning them (offsets and the alignment said), selecting (a new scene clears it), the track
// view, closing a run or all, and the paging state (a digest's events swapped in for its outline
// and out again, the selection on the report going out cleared, closing drops what is paged).

#include "core/analysis/digestsummary.h"
#include "core/trace/persist/digest.h"
#include "core/trace/persist/reportoutline.h"
#include "testreports.h"
#include "views/timeline/reportpager.h"
#include "views/timeline/timelinedocument.h"
#include "workspacewait.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps::views;
using namespace ps::core::trace;

namespace {
constexpr int64_t kMs = 1'000'000;

using ps::test::waitIdle;

// Ranks whose first step starts `shiftMs` later per rank, so that aligning by start moves them.
std::vector<ReportPtr> shiftedRanks(int n, int64_t shiftMs)
{
    std::vector<ReportPtr> out;
    for (int r = n - 1; r >= 0; --r) { // handed over in reverse: the document sorts by path
        ReportPtr rank = ps::test::makeRank(r, 2, 10 * kMs);
        auto shifted = std::make_shared<Report>(*rank);
        shifted->meta.utcStartNs = *rank->meta.utcStartNs + r * shiftMs * kMs;
        out.push_back(shifted);
    }
    return out;
}
} // namespace

class TestTimelineDocument : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

private slots:
    void openingSignalsTheSceneOnceFittedAndSaysWhenIdle()
    {
        TimelineDocument doc;
        QSignalSpy scenes(&doc, &TimelineDocument::sceneChanged);
        QSignalSpy busy(&doc, &TimelineDocument::busyChanged);
        QVERIFY(doc.addReports(shiftedRanks(3, 5)));
        QVERIFY(doc.isBusy());
        QVERIFY(waitIdle(doc));
        QCOMPARE(doc.reports().size(), size_t(3));
        for (size_t i = 1; i < doc.reports().size(); ++i) // path order, whatever order they came in
            QVERIFY(doc.reports()[i - 1]->report().path < doc.reports()[i]->report().path);
        QVERIFY(doc.scene());
        QCOMPARE(doc.scene()->entries.size(), size_t(3));
        QVERIFY(!scenes.isEmpty());
        QCOMPARE(scenes.first().at(0).toBool(), false); // a new load is fitted
        QVERIFY(!busy.isEmpty());
        QCOMPARE(busy.last().at(0).toBool(), false);
        QCOMPARE(doc.runNames(), QStringList{"run"});
    }

    void aligningMovesTheReportsAndSaysSo()
    {
        TimelineDocument doc;
        doc.addReports(shiftedRanks(3, 5));
        QVERIFY(waitIdle(doc));
        QCOMPARE(doc.alignment(), QString("utc"));
        // By UTC, rank r starts r x 5 ms after rank 0.
        const auto offsetOf = [&](int entry) { return doc.scene()->entries[size_t(entry)].offset; };
        QCOMPARE(offsetOf(1) - offsetOf(0), 5 * kMs);
        QCOMPARE(offsetOf(2) - offsetOf(0), 10 * kMs);
        QSignalSpy aligned(&doc, &TimelineDocument::alignmentChanged);
        QSignalSpy scenes(&doc, &TimelineDocument::sceneChanged);
        QString error;
        QVERIFY(doc.setAlignment("start", error));
        QCOMPARE(aligned.size(), 1);
        QCOMPARE(aligned.at(0).at(0).toString(), QString("start"));
        QVERIFY(waitIdle(doc));
        QVERIFY(!scenes.isEmpty());
        QCOMPARE(scenes.last().at(0).toBool(), true); // realigned: the window stays
        QCOMPARE(offsetOf(1), offsetOf(0));
        QCOMPARE(offsetOf(2), offsetOf(0));
        // A bad spec changes nothing and says why.
        QVERIFY(!doc.setAlignment("range:", error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(aligned.size(), 1);
        QCOMPARE(doc.alignment(), QString("start"));
        // A nudge moves one report on top of the alignment.
        doc.setNudge(2, 3 * kMs);
        QCOMPARE(offsetOf(2) - offsetOf(0), 3 * kMs);
        QCOMPARE(doc.session().nudges.size(), 1);
    }

    void aNewSceneClearsTheSelection()
    {
        TimelineDocument doc;
        doc.addReports(shiftedRanks(2, 0));
        QVERIFY(waitIdle(doc));
        QSignalSpy selected(doc.state(), &TimelineViewState::selectionChanged);
        const TimelineSelection s{1, {0, 1}};
        doc.select(s);
        QCOMPARE(selected.size(), 1);
        QCOMPARE(*doc.selection(), s);
        doc.setNudge(0, kMs); // a new scene: its entries are not the old one's
        QVERIFY(!doc.selection());
        QCOMPARE(selected.size(), 1); // cleared quietly; the view says so once it shows the scene
    }

    void trackViewChangesAreSignalled()
    {
        TimelineDocument doc;
        QSignalSpy changed(&doc, &TimelineDocument::trackViewChanged);
        doc.changeTrackView([](TrackView &v) { v.hiddenKinds.insert("Memcpy"); });
        QCOMPARE(changed.size(), 1);
        QVERIFY(doc.trackView().hiddenKinds.contains("Memcpy"));
        QVERIFY(doc.session().hiddenKinds.contains("Memcpy"));
    }

    void closingARunKeepsTheOthersAndClosingTheLastClosesAll()
    {
        TimelineDocument doc;
        std::vector<ReportPtr> reports = shiftedRanks(2, 0);
        auto other = std::make_shared<Report>(*ps::test::makeRank(5, 2, 10 * kMs));
        other->path = "/runs/other/rank5.sqlite";
        other->identity.run = "other";
        reports.push_back(other);
        doc.addReports(reports);
        QVERIFY(waitIdle(doc));
        QCOMPARE(doc.runNames(), (QStringList{"other", "run"}));
        QSignalSpy closedAll(&doc, &TimelineDocument::closedAll);
        QCOMPARE(doc.closeRun("run"), size_t(2));
        QVERIFY(waitIdle(doc));
        QCOMPARE(doc.runNames(), QStringList{"other"});
        QCOMPARE(doc.scene()->entries.size(), size_t(1));
        QCOMPARE(closedAll.size(), 0);
        QCOMPARE(doc.closeRun("nothing"), size_t(0));
        QCOMPARE(doc.closeRun("other"), size_t(1));
        QCOMPARE(closedAll.size(), 1);
        QVERIFY(doc.reports().empty());
        QVERIFY(!doc.scene());
    }

    // The paging state is the document's: the pager's events take the outline's place among the
    // open reports, and give it back when dropped.
    void pagedEventsTakeTheOutlinesPlace()
    {
        const ReportPtr source = ps::test::makeRank(0, 3, 10 * kMs);
        auto onDisk = std::make_shared<Report>(*source);
        onDisk->path = m_tmp.filePath("rank0.sqlite").toStdString();
        const std::string digest = onDisk->path + std::string(kDigestSuffix);
        QCOMPARE(QString::fromStdString(ps::core::analysis::writeDigestWithSummaries(*onDisk, digest)), QString());
        std::string error;
        const ReportPtr outline = readDigestOutline(digest, error);
        QVERIFY2(outline, error.c_str());

        TimelineDocument doc;
        doc.pager()->setUseCache(false);
        doc.addReports({outline});
        QVERIFY(waitIdle(doc));
        QVERIFY(doc.reports().front()->isOutline());
        doc.select(TimelineSelection{0, {0, 0}});
        QSignalSpy scenes(&doc, &TimelineDocument::sceneChanged);
        doc.pager()->requestNow(doc.reports().front());
        QVERIFY(scenes.wait(10000));
        QVERIFY(!doc.reports().front()->isOutline());
        QCOMPARE(doc.reports().front()->store().eventCount(), source->store->eventCount());
        QCOMPARE(doc.scene()->entries.front().report, doc.reports().front());
        QCOMPARE(doc.pager()->pagedCount(), size_t(1));

        doc.select(TimelineSelection{0, {0, 1}}); // on the report about to go out
        doc.pager()->clear();
        QVERIFY(QTest::qWaitFor([&] { return doc.reports().front()->isOutline(); }, 5000));
        QVERIFY(!doc.selection());
        QCOMPARE(doc.pager()->pagedCount(), size_t(0));

        doc.pager()->requestNow(doc.reports().front());
        QVERIFY(QTest::qWaitFor([&] { return !doc.reports().front()->isOutline(); }, 10000));
        doc.closeAll(); // drops what is paged: a report opened again starts from its outline
        QCOMPARE(doc.pager()->pagedCount(), size_t(0));
        QVERIFY(doc.reports().empty());
    }
};

QTEST_MAIN(TestTimelineDocument)
#include "tst_timelinedocument.moc"
