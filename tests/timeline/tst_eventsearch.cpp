// Search over names: substring (case-insensitive) and regex, match counts over every report,
// order on the shared axis (offsets applied), bad regex reported, highlight lookups.
#include "testreports.h"
#include "views/timeline/eventsearch.h"

#include "core/common/canceltoken.h"
#include "core/trace/store/report.h"

#include <QtTest>

using namespace ps::views;
using namespace ps::core::trace;

namespace {
TimelineScene scene()
{
    std::vector<PreparedReportPtr> reps;
    for (int r = 0; r < 3; ++r)
        reps.push_back(PreparedReport::prepare(ps::test::makeRank(r, 4, 10'000'000)));
    // Rank 2 is shifted earlier by 50 ms, so its events come first on the shared axis.
    return buildScene(reps, {0, 0, -50'000'000});
}
} // namespace

class TestEventSearch : public QObject
{
    Q_OBJECT
private slots:
    void counts_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("regex");
        QTest::addColumn<int>("count");
        // Per rank and step: step, forward, cudaLaunchKernel, gemm.
        QTest::newRow("substring") << "step" << false << 12;
        QTest::newRow("case-insensitive") << "FORWARD" << false << 12;
        QTest::newRow("substring of several names") << "e" << false << 36; // step, cudaLaunchKernel, gemm
        QTest::newRow("regex anchors") << "^(step|gemm)$" << true << 24;
        QTest::newRow("regex case-insensitive") << "^CUDA" << true << 12;
        QTest::newRow("no match") << "allreduce" << false << 0;
        QTest::newRow("empty") << "" << false << 0;
    }
    void counts()
    {
        QFETCH(QString, text);
        QFETCH(bool, regex);
        QFETCH(int, count);
        const SearchResult r = searchEvents(scene(), {text, regex});
        QVERIFY(r.error.isEmpty());
        QCOMPARE(int(r.count), count);
        QCOMPARE(int(r.matches.size()), count);
    }

    void matchesAreInSharedTimeOrder()
    {
        const TimelineScene s = scene();
        const SearchResult r = searchEvents(s, {QStringLiteral("step"), false});
        QCOMPARE(r.matches.front().entry, 2); // shifted 50 ms earlier
        for (size_t i = 1; i < r.matches.size(); ++i)
            QVERIFY(r.matches[i - 1].start <= r.matches[i].start);
        const SearchMatch &m = r.matches.front();
        const Track &t = s.entries[size_t(m.entry)].report->store().track(m.track);
        QCOMPARE(t.start(m.index) + s.entries[size_t(m.entry)].offset, m.start);
    }

    void badRegexIsAnError()
    {
        const SearchResult r = searchEvents(scene(), {QStringLiteral("(unclosed"), true});
        QVERIFY(!r.error.isEmpty());
        QCOMPARE(int(r.count), 0);
    }

    void nameMatchesDrivesHighlight()
    {
        const TimelineScene s = scene();
        const SearchResult r = searchEvents(s, {QStringLiteral("gemm"), false});
        const EventStore &st = s.entries[0].report->store();
        NameId gemm = kNoName, step = kNoName;
        for (size_t i = 0; i < st.names().size(); ++i) {
            if (st.names()[NameId(i)] == "gemm")
                gemm = NameId(i);
            if (st.names()[NameId(i)] == "step")
                step = NameId(i);
        }
        QVERIFY(r.nameMatches(0, gemm));
        QVERIFY(!r.nameMatches(0, step));
        QVERIFY(!r.nameMatches(99, gemm));
    }

    void cancelStopsEarly()
    {
        ps::core::CancelToken cancel;
        cancel.cancel();
        const SearchResult r = searchEvents(scene(), {QStringLiteral("step"), false}, &cancel);
        QCOMPARE(int(r.count), 0);
    }
};

QTEST_GUILESS_MAIN(TestEventSearch)
#include "tst_eventsearch.moc"
