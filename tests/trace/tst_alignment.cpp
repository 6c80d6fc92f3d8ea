// Alignment on real reports: the Extra-P sweep by UTC (offsets = differences of utcEpochNs read
// by SQL), the 2021 export without UTC origin falling back, NVTX range anchors with residuals.

#include "core/trace/alignment.h"
#include "core/trace/rangeoccurrences.h"
#include "core/trace/read/traceloader.h"
#include "tests/support/reportload.h"
#include "tests/support/sqlref.h"
#include "tests/support/testdata.h"

#include <QtTest>

using namespace ps::core::trace;

namespace {

ReportPtr load(const QString &name)
{
    return ps::test::loadTestReport(ps::test::nsysDir() + "/" + name);
}

int64_t sqlScalar(const QString &name, const std::string &sql)
{
    ps::test::SqlRef db((ps::test::nsysDir() + "/" + name).toStdString());
    return db.scalar(sql).value_or(INT64_MIN);
}

// Start and end of the K-th NVTX range named `range`, by independent SQL.
std::pair<int64_t, int64_t> sqlRange(const QString &name, const std::string &range, int k)
{
    const std::string base = "FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId WHERE n.eventType IN "
                             "(59,60,70,71) AND COALESCE(n.text, s.value) = '" +
                             range + "' ORDER BY n.start LIMIT 1 OFFSET " + std::to_string(k - 1);
    return {sqlScalar(name, "SELECT n.start " + base), sqlScalar(name, "SELECT n.end " + base)};
}

const QStringList kSweep = {"extrap__concurrent.s1.sqlite", "extrap__concurrent.s2.sqlite",
                            "extrap__concurrent.s4.sqlite", "extrap__concurrent.s8.sqlite"};

} // namespace

class TestAlignment : public QObject
{
    Q_OBJECT
private slots:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("k");
        QTest::newRow("utc") << "utc" << true << "" << 0;
        QTest::newRow("start") << "start" << true << "" << 0;
        QTest::newRow("range") << "range:actor/compute_adv" << true << "actor/compute_adv" << 1;
        QTest::newRow("range k") << "range:actor/compute_adv#2" << true << "actor/compute_adv" << 2;
        QTest::newRow("range with hash in name") << "range:a#b#3" << true << "a#b" << 3;
        QTest::newRow("k zero") << "range:x#0" << false << "" << 0;
        QTest::newRow("k text") << "range:x#two" << false << "" << 0;
        QTest::newRow("empty name") << "range:" << false << "" << 0;
        QTest::newRow("unknown") << "gps" << false << "" << 0;
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, name);
        QFETCH(int, k);
        std::string error;
        auto spec = parseAlignSpec(text.toStdString(), error);
        QCOMPARE(spec.has_value(), ok);
        if (!ok) {
            QVERIFY(!error.empty());
            return;
        }
        if (!name.isEmpty()) {
            QCOMPARE(spec->mode, AlignMode::Range);
            QCOMPARE(QString::fromStdString(spec->anchor->name), name);
            QCOMPARE(spec->anchor->occurrence, k);
            QCOMPARE(QString::fromStdString(alignSpecText(*spec)), QString("range:%1#%2").arg(name).arg(k));
        }
    }

    // Done-when: the Extra-P sweep aligns by UTC with offsets equal to utcEpochNs differences.
    void extrapSweepByUtc()
    {
        std::vector<ReportPtr> reports;
        std::vector<int64_t> utc;
        for (const QString &f : kSweep) {
            reports.push_back(load(f));
            QVERIFY(reports.back());
            utc.push_back(sqlScalar(f, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME"));
        }
        const int64_t minUtc = *std::min_element(utc.begin(), utc.end());
        const AlignResult r = alignReports(reports, AlignSpec{});
        QCOMPARE(r.used, AlignMode::Utc);
        QVERIFY(r.warnings.empty());
        for (size_t i = 0; i < reports.size(); ++i)
            QCOMPARE(r.offsets[i], utc[i] - minUtc);
        QCOMPARE(r.utcOriginNs, std::optional<int64_t>(minUtc));
        QVERIFY(!r.residualNs);
        QVERIFY(r.offsets[3] > 0); // separate runs: s8 started last
    }

    // Done-when: the 2021 export without a UTC origin loads and falls back, with a warning.
    void noUtcFallsBack()
    {
        std::vector<ReportPtr> reports{load("extrap__ex-gpu.s10.sqlite"), load(kSweep[0])};
        QVERIFY(reports[0] && reports[1]);
        QVERIFY(!reports[0]->meta.utcStartNs);
        const AlignResult r = alignReports(reports, AlignSpec{});
        QCOMPARE(r.used, AlignMode::Start);
        QVERIFY(!r.utcOriginNs);
        QCOMPARE(r.warnings.size(), size_t(1));
        QVERIFY(QString::fromStdString(r.warnings[0]).contains("extrap__ex-gpu.s10.sqlite"));
        QVERIFY(QString::fromStdString(r.warnings[0]).contains("no UTC origin"));
        QCOMPARE(r.offsets[0], -sqlScalar("extrap__ex-gpu.s10.sqlite",
                                          "SELECT min(m) FROM (SELECT min(start) m FROM CUPTI_ACTIVITY_KIND_KERNEL "
                                          "UNION ALL SELECT min(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE "
                                          "eventClass IN (0,1) UNION ALL SELECT min(start) FROM OSRT_API UNION ALL "
                                          "SELECT min(start) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION)"));
    }

    void byRangeWithResidual_data()
    {
        QTest::addColumn<QString>("range");
        QTest::addColumn<int>("k");
        QTest::newRow("main#1") << "main" << 1;
        QTest::newRow("main->process#1") << "main->process" << 1;
    }
    void byRangeWithResidual()
    {
        QFETCH(QString, range);
        QFETCH(int, k);
        std::vector<ReportPtr> reports;
        std::vector<std::pair<int64_t, int64_t>> anchors;
        for (const QString &f : kSweep) {
            reports.push_back(load(f));
            anchors.push_back(sqlRange(f, range.toStdString(), k));
            QVERIFY(anchors.back().first != INT64_MIN);
        }
        AlignSpec spec;
        spec.mode = AlignMode::Range;
        spec.anchor = RangeAnchor{range.toStdString(), k};
        const AlignResult r = alignReports(reports, spec);
        QVERIFY(r.warnings.empty());
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (size_t i = 0; i < reports.size(); ++i) {
            QCOMPARE(r.offsets[i], -anchors[i].first); // anchor starts at 0 on the shared axis
            lo = std::min(lo, anchors[i].second + r.offsets[i]);
            hi = std::max(hi, anchors[i].second + r.offsets[i]);
        }
        QCOMPARE(r.residualNs, std::optional<int64_t>(hi - lo));
    }

    // The K-th occurrence, counted by start over all threads.
    void kthOccurrence()
    {
        const QString f = "pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite";
        ReportPtr r = load(f);
        QVERIFY(r);
        for (int k = 1; k <= 3; ++k) {
            auto occ = rangeOccurrenceOf(*r, "MPI_Send", k);
            QVERIFY(occ);
            QCOMPARE(*occ, sqlRange(f, "MPI_Send", k));
        }
        QVERIFY(!rangeOccurrenceOf(*r, "MPI_Send", 1000));
        QVERIFY(!rangeOccurrenceOf(*r, "no such range", 1));
    }

    // A report without the anchor keeps its UTC placement relative to the anchored ones.
    void missingAnchorFallsBackToUtc()
    {
        std::vector<ReportPtr> reports{load(kSweep[0]), load("recon-stream__report14.sqlite")};
        AlignSpec spec;
        spec.mode = AlignMode::Range;
        spec.anchor = RangeAnchor{"main", 1};
        const AlignResult r = alignReports(reports, spec);
        QCOMPARE(r.warnings.size(), size_t(1));
        QVERIFY(QString::fromStdString(r.warnings[0]).contains("recon-stream__report14.sqlite"));
        const int64_t utc0 = *reports[0]->meta.utcStartNs, utc1 = *reports[1]->meta.utcStartNs;
        QCOMPARE(r.offsets[1] - r.offsets[0], utc1 - utc0);
    }

    // UTC with an anchor reports the anchor's spread (clock skew plus real lateness); manual
    // offsets add on top of any mode.
    void utcResidualAndManual()
    {
        std::vector<ReportPtr> reports{load(kSweep[0]), load(kSweep[1])};
        AlignSpec spec;
        spec.anchor = RangeAnchor{"main", 1};
        spec.manualOffsets = {0, 1000};
        const AlignResult r = alignReports(reports, spec);
        const auto a0 = sqlRange(kSweep[0], "main", 1), a1 = sqlRange(kSweep[1], "main", 1);
        const int64_t utc0 = *reports[0]->meta.utcStartNs, utc1 = *reports[1]->meta.utcStartNs;
        QCOMPARE(r.offsets[1], utc1 - std::min(utc0, utc1) + 1000);
        QCOMPARE(r.residualNs, std::optional<int64_t>(std::abs((a1.first + r.offsets[1]) - (a0.first + r.offsets[0]))));

        AlignSpec manual;
        manual.mode = AlignMode::Manual;
        manual.manualOffsets = {-5, 7};
        const AlignResult m = alignReports(reports, manual);
        QCOMPARE(m.offsets, (std::vector<int64_t>{-5, 7}));
    }
};

QTEST_GUILESS_MAIN(TestAlignment)
#include "tst_alignment.moc"
