// The one range search (core/trace/rangeoccurrences.h) on a real export with a named NVTX domain
// (pipit's MPI ranges): by text in any domain, by nvtx_sum's qualified name, by style, each
// equal to independent SQL over the export; and a summary-only digest answers as the events do.

#include "core/trace/persist/digest.h"
#include "core/trace/rangeoccurrences.h"
#include "tests/support/reportload.h"
#include "tests/support/sqlref.h"
#include "tests/support/testdata.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace ps::core::trace;

namespace {

const QString kSample = "pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite";

QString samplePath()
{
    return ps::test::nsysDir() + "/" + kSample;
}

// [start, end) of every NVTX range with this text (in the domain, when one is named), by SQL.
std::vector<std::pair<int64_t, int64_t>> sqlRanges(const std::string &text, const std::string &domain)
{
    ps::test::SqlRef db(samplePath().toStdString());
    std::string sql = "SELECT n.start FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId WHERE n.eventType "
                      "IN (59,60,70,71) AND COALESCE(n.text, s.value) = '" +
                      text + "'";
    if (!domain.empty())
        sql += " AND n.domainId = (SELECT domainId FROM NVTX_EVENTS WHERE eventType = 75 AND text = '" + domain + "')";
    std::vector<std::pair<int64_t, int64_t>> out;
    const auto count = db.scalar("SELECT COUNT(*) FROM (" + sql + ")").value_or(0);
    for (int64_t k = 0; k < count; ++k) {
        const std::string row = " ORDER BY n.start LIMIT 1 OFFSET " + std::to_string(k);
        const std::string end = "SELECT n.end" + sql.substr(std::string("SELECT n.start").size()) + row;
        out.emplace_back(db.scalar(sql + row).value_or(-1), db.scalar(end).value_or(-1));
    }
    return out;
}

std::vector<std::pair<int64_t, int64_t>> spansOf(const std::vector<RangeHit> &hits)
{
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const RangeHit &h : hits)
        out.emplace_back(h.start, h.end);
    return out;
}

} // namespace

class TestRangeOccurrences : public QObject
{
    Q_OBJECT

    ReportPtr m_report;
    QTemporaryDir m_tmp;

private slots:
    void initTestCase()
    {
        m_report = ps::test::loadTestReport(samplePath());
        QVERIFY(m_report && m_report->store);
    }

    // "MPI_Send" is stored in the MPI domain: its text finds it, nvtx_sum's name is "MPI:MPI_Send".
    void namedByTextOrQualified()
    {
        const auto sends = sqlRanges("MPI_Send", "MPI");
        QCOMPARE(sends.size(), size_t(10));
        std::string error;
        QCOMPARE(spansOf(findRanges(*m_report, {"MPI_Send"}, error)), sends);
        QCOMPARE(spansOf(findRanges(*m_report, {"MPI:MPI_Send", RangeNaming::Qualified}, error)), sends);
        QVERIFY(findRanges(*m_report, {"MPI_Send", RangeNaming::Qualified}, error).empty());
        QVERIFY(findRanges(*m_report, {"MPI:MPI_Send"}, error).empty()); // no range has that text
        // The default domain's ranges carry no prefix either way.
        const auto saxpy = sqlRanges("saxpy", "");
        QCOMPARE(saxpy.size(), size_t(5));
        QCOMPARE(spansOf(findRanges(*m_report, {"saxpy", RangeNaming::Qualified}, error)), saxpy);
        QVERIFY(error.empty());
    }

    void styleFilters()
    {
        std::string error;
        QCOMPARE(findRanges(*m_report, {"MPI_Send", RangeNaming::Text, "PushPop"}, error).size(), size_t(10));
        QVERIFY(findRanges(*m_report, {"MPI_Send", RangeNaming::Text, "StartEnd"}, error).empty());
        QVERIFY(findRanges(*m_report, {""}, error).empty());
    }

    // Each hit names its event: the range it found, in start order.
    void hitsNameTheirEvents()
    {
        std::string error;
        const auto hits = findRanges(*m_report, {"MPI_Recv"}, error);
        QCOMPARE(hits.size(), size_t(5));
        for (size_t i = 0; i < hits.size(); ++i) {
            const Track &t = m_report->store->track(hits[i].event.track);
            QCOMPARE(m_report->store->name(t.name(hits[i].event.index)), std::string_view("MPI_Recv"));
            QCOMPARE(t.start(hits[i].event.index), hits[i].start);
            QVERIFY(i == 0 || hits[i - 1].start <= hits[i].start);
        }
        QCOMPARE(rangeOccurrenceOf(*m_report, "MPI_Recv", 2), std::optional(std::pair(hits[1].start, hits[1].end)));
        QVERIFY(!rangeOccurrenceOf(*m_report, "MPI_Recv", 6));
        QVERIFY(!rangeOccurrenceOf(*m_report, "MPI_Recv", 0));
    }

    // A digest without its events answers from its statistics summary, the same ranges.
    void summaryOnlyDigestAnswersTheSame()
    {
        DigestOptions options;
        options.summaryOnly = true;
        const std::string path = m_tmp.filePath(kSample).toStdString() + std::string(kDigestSuffix);
        QCOMPARE(QString::fromStdString(writeDigest(*m_report, path, options)), QString());
        std::string error;
        const ReportPtr outline = readDigestOutline(path, error);
        QVERIFY2(outline && !outline->store, error.c_str());
        for (const RangeQuery &q : {RangeQuery{"MPI_Send"}, RangeQuery{"MPI:MPI_Send", RangeNaming::Qualified},
                                    RangeQuery{"saxpy", RangeNaming::Qualified, "PushPop"}}) {
            const auto fromEvents = findRanges(*m_report, q, error);
            const auto fromSummary = findRanges(*outline, q, error);
            QVERIFY2(error.empty(), error.c_str());
            QVERIFY(!fromEvents.empty());
            QCOMPARE(spansOf(fromSummary), spansOf(fromEvents));
            for (size_t i = 0; i < fromEvents.size(); ++i)
                QVERIFY(fromSummary[i].event == fromEvents[i].event);
        }
    }
};

QTEST_GUILESS_MAIN(TestRangeOccurrences)
#include "tst_rangeoccurrences.moc"
