// nvtx_sum / kernel_sum / compare against independent SQL aggregation of the same files.

#include "core/trace/traceloader.h"
#include "core/trace/tracestats.h"
#include "sqlref.h"

#include <QtTest>

#include <cmath>
#include <map>

using namespace ps::core::trace;

namespace {

const char *kKernelSql = "SELECT s.value, count(*), sum(k.end - k.start), min(k.end - k.start), max(k.end - k.start) "
                         "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName GROUP BY s.value";
const char *kNvtxSql = "SELECT COALESCE(n.text, s.value) AS name, count(*), sum(n.end - n.start), min(n.end - n.start), "
                       "max(n.end - n.start) FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId WHERE "
                       "n.eventType IN (59,60,70,71) GROUP BY name";

std::vector<ReportPtr> loadAll(const QStringList &names)
{
    std::vector<ReportPtr> out;
    for (const QString &n : names) {
        std::string error;
        out.push_back(loadReport((sqlref::nsysDir() + "/" + n).toStdString(), ReadContext{}, error));
    }
    return out;
}

} // namespace

class TestTraceStats : public QObject
{
    Q_OBJECT
private slots:
    void matchesSql_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<bool>("kernels");
        QTest::newRow("kernel_sum dlprof") << QStringList{"dlprof__nsys_profile.sqlite"} << true;
        QTest::newRow("kernel_sum sweep") << QStringList{"extrap__concurrent.s1.sqlite", "extrap__concurrent.s2.sqlite",
                                                         "extrap__concurrent.s8.sqlite"}
                                          << true;
        QTest::newRow("nvtx_sum saxpy") << QStringList{"pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite"} << false;
        QTest::newRow("nvtx_sum sweep+dlprof")
            << QStringList{"extrap__concurrent.s1.sqlite", "extrap__concurrent.s4.sqlite", "dlprof__nsys_profile.sqlite"}
            << false;
    }
    void matchesSql()
    {
        QFETCH(QStringList, files);
        QFETCH(bool, kernels);
        const auto reports = loadAll(files);
        for (auto &r : reports)
            QVERIFY(r);
        const StatsResult s = summarize(reports, kernels ? StatsKind::KernelSum : StatsKind::NvtxSum);
        std::map<std::string, sqlref::Db::Row> all;
        size_t perReportRows = 0;
        for (int fi = 0; fi < files.size(); ++fi) {
            sqlref::Db db((sqlref::nsysDir() + "/" + files[fi]).toStdString());
            const auto rows = db.rows(kernels ? kKernelSql : kNvtxSql);
            perReportRows += rows.size();
            for (const auto &row : rows) {
                auto [it, fresh] = all.try_emplace(row.name, row);
                if (!fresh) {
                    it->second.count += row.count;
                    it->second.total += row.total;
                    it->second.min = std::min(it->second.min, row.min);
                    it->second.max = std::max(it->second.max, row.max);
                }
                // The per-report row says the same for this report alone.
                auto pr = std::find_if(s.perReport.begin(), s.perReport.end(), [&](const StatRow &x) {
                    return x.report == size_t(fi) && x.name == row.name;
                });
                QVERIFY(pr != s.perReport.end());
                QCOMPARE(int64_t(pr->count), row.count);
                QCOMPARE(pr->totalNs, row.total);
            }
        }
        QVERIFY(!all.empty());
        QCOMPARE(s.overall.size(), all.size());
        QCOMPARE(s.perReport.size(), perReportRows);
        for (size_t i = 0; i < s.overall.size(); ++i) {
            const StatRow &r = s.overall[i];
            QVERIFY(!r.report);
            QVERIFY(all.count(r.name));
            const auto &e = all[r.name];
            QCOMPARE(int64_t(r.count), e.count);
            QCOMPARE(r.totalNs, e.total);
            QCOMPARE(r.minNs, e.min);
            QCOMPARE(r.maxNs, e.max);
            QVERIFY(std::abs(r.avgNs - double(e.total) / double(e.count)) < 1e-6 * std::max(1.0, r.avgNs));
            if (i)
                QVERIFY(s.overall[i - 1].totalNs >= r.totalNs); // ordered by total
        }
    }

    // Median and sample stddev on one name, from durations fetched by SQL.
    void medianAndStddev()
    {
        const QString f = "pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite";
        const auto reports = loadAll({f});
        const StatsResult s = summarize(reports, StatsKind::NvtxSum);
        sqlref::Db db((sqlref::nsysDir() + "/" + f).toStdString());
        auto rows = db.rows("SELECT '', n.end - n.start, 0, 0, 0 FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = "
                            "n.textId WHERE n.eventType IN (59,60,70,71) AND COALESCE(n.text, s.value) = 'MPI_Send' "
                            "ORDER BY 2");
        QCOMPARE(rows.size(), size_t(10));
        std::vector<double> d;
        for (auto &r : rows)
            d.push_back(double(r.count));
        const double med = (d[4] + d[5]) / 2;
        double mean = 0;
        for (double v : d)
            mean += v / d.size();
        double sq = 0;
        for (double v : d)
            sq += (v - mean) * (v - mean);
        const double sd = std::sqrt(sq / (d.size() - 1));
        auto it = std::find_if(s.overall.begin(), s.overall.end(), [](const StatRow &r) { return r.name == "MPI_Send"; });
        QVERIFY(it != s.overall.end());
        QCOMPARE(it->medNs, med);
        QVERIFY(std::abs(it->stddevNs - sd) < 1e-6 * sd);
    }

    // compare: one cell per report and the straggler is the report with the largest total.
    void compareFlagsStraggler()
    {
        const QStringList files{"extrap__concurrent.s1.sqlite", "extrap__concurrent.s2.sqlite",
                                "extrap__concurrent.s4.sqlite", "extrap__concurrent.s8.sqlite"};
        const auto reports = loadAll(files);
        const auto rows = compareReports(reports, StatsKind::NvtxSum);
        QVERIFY(!rows.empty());
        for (const CompareRow &row : rows) {
            QCOMPARE(row.cells.size(), size_t(files.size()));
            int64_t best = -1;
            std::optional<size_t> bestIdx;
            for (int fi = 0; fi < files.size(); ++fi) {
                sqlref::Db db((sqlref::nsysDir() + "/" + files[fi]).toStdString());
                int64_t total = 0;
                for (auto &r : db.rows(kNvtxSql))
                    if (r.name == row.name)
                        total = r.total;
                QCOMPARE(row.cells[size_t(fi)].totalNs, total);
                if (total > best && total > 0) {
                    best = total;
                    bestIdx = size_t(fi);
                }
            }
            QCOMPARE(row.slowest, bestIdx);
        }
    }
};

QTEST_GUILESS_MAIN(TestTraceStats)
#include "tst_tracestats.moc"
