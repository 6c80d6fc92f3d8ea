// nvtx_sum / kernel_sum / compare against independent SQL aggregation of the same files:
// nvtx_sum with nsys's own grouping (Range, Style), domain names joined per process, Time (%);
// the windowed, offset-aware summarize() against the same SQL restricted to a window.

#include "core/trace/nsys/nvtxeventtype.h"
#include "core/trace/read/traceloader.h"
#include "core/trace/store/storebuilder.h"
#include "core/trace/tracestats.h"
#include "tests/support/reportload.h"
#include "tests/support/sqlref.h"
#include "tests/support/testdata.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>

using namespace ps::core::trace;
using ps::core::CancelToken;

namespace nsys = ps::core::trace::nsys;

namespace {

const char *kKernelSql =
    "SELECT s.value, count(*), sum(k.end - k.start), min(k.end - k.start), max(k.end - k.start) "
    "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName GROUP BY s.value";

const QString kSaxpy = "pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite";

// nsys stats --report nvtx_sum, as its SQL does it: domains per (domainId, globalTid) from the
// eventType 75 rows, joined on the process bits of globalTid; unended ranges end at the largest
// timestamp of NVTX_EVENTS; rows per (Range, Style). `where` further restricts the ranges
// (columns of NVTX_EVENTS AS ne). Median and the sum of squared deviations are computed in SQL
// too (window functions), the square root in C++.
std::string nvtxSumSql(const std::string &where)
{
    return "WITH"
           "  domains AS (SELECT min(start), domainId AS id, globalTid, text AS name FROM NVTX_EVENTS"
           "              WHERE eventType == " +
           nsys::sqlList({nsys::NvtxEventType::DomainCreate}) +
           " GROUP BY 2, 3),"
           "  maxts AS (SELECT max(max(start), max(end)) AS m FROM NVTX_EVENTS),"
           "  nvtx AS ("
           "    SELECT ifnull(ne.end, (SELECT m FROM maxts)) - ne.start AS duration,"
           "           CASE WHEN d.name IS NOT NULL THEN d.name || ':' || COALESCE(ne.text, s.value)"
           "                ELSE COALESCE(ne.text, s.value) END AS tag,"
           "           CASE WHEN ne.eventType IN (" +
           nsys::sqlList({nsys::NvtxEventType::PushPopRange, nsys::NvtxEventType::NvtxtPushPop}) +
           ") THEN 'PushPop' ELSE 'StartEnd' END AS style"
           "    FROM NVTX_EVENTS AS ne"
           "    LEFT JOIN domains AS d ON ne.domainId == d.id"
           "         AND (ne.globalTid & 0x0000FFFFFF000000) == (d.globalTid & 0x0000FFFFFF000000)"
           "    LEFT JOIN StringIds AS s ON s.id == ne.textId"
           "    WHERE ne.eventType IN (" +
           nsys::rangeTypesSql() + ") AND (" + where +
           ")),"
           "  ranked AS (SELECT tag, style, duration,"
           "                    row_number() OVER (PARTITION BY tag, style ORDER BY duration) AS rn,"
           "                    count(*) OVER (PARTITION BY tag, style) AS n FROM nvtx),"
           "  summary AS (SELECT tag, style, count(*) AS num, sum(duration) AS total, avg(duration) AS mean,"
           "                     min(duration) AS mn, max(duration) AS mx FROM nvtx GROUP BY tag, style)"
           "SELECT ifnull(st.tag, ''), st.style, st.num, st.total, st.mn, st.mx, st.mean,"
           "  (SELECT avg(r.duration) FROM ranked AS r WHERE r.tag IS st.tag AND r.style == st.style"
           "     AND r.rn IN ((r.n + 1) / 2, (r.n + 2) / 2)),"
           "  (SELECT sum((x.duration - st.mean) * (x.duration - st.mean)) FROM nvtx AS x"
           "     WHERE x.tag IS st.tag AND x.style == st.style),"
           "  st.total * 100.0 / (SELECT sum(total) FROM summary)"
           " FROM summary AS st";
}

struct RefRow
{
    int64_t count = 0, total = 0, min = 0, max = 0;
    double avg = 0, med = 0, stddev = 0, pct = 0;
};
using Key = std::pair<std::string, std::string>; // (Range, Style)
using RefRows = std::map<Key, RefRow>;

// Runs `sql` on a file, read-only, calling `row` per result row.
template <typename F> void eachRow(const QString &path, const std::string &sql, F row)
{
    ps::test::SqlRef(path).forEachRow(sql, row);
}

Key keyOf(sqlite3_stmt *s)
{
    return {reinterpret_cast<const char *>(sqlite3_column_text(s, 0)),
            reinterpret_cast<const char *>(sqlite3_column_text(s, 1))};
}

RefRows nvtxSumRef(const QString &path, const std::string &where = "1")
{
    RefRows out;
    eachRow(path, nvtxSumSql(where), [&](sqlite3_stmt *s) {
        RefRow r;
        r.count = sqlite3_column_int64(s, 2);
        r.total = sqlite3_column_int64(s, 3);
        r.min = sqlite3_column_int64(s, 4);
        r.max = sqlite3_column_int64(s, 5);
        r.avg = sqlite3_column_double(s, 6);
        r.med = sqlite3_column_double(s, 7);
        r.stddev = r.count > 1 ? std::sqrt(sqlite3_column_double(s, 8) / double(r.count - 1)) : 0.0;
        r.pct = sqlite3_column_double(s, 9);
        out[keyOf(s)] = r;
    });
    return out;
}

// Range durations per (Range, Style), the same SQL's `nvtx` rows: the reference for overall
// medians and standard deviations over several files.
std::map<Key, std::vector<int64_t>> nvtxDurationsRef(const QString &path)
{
    std::map<Key, std::vector<int64_t>> out;
    std::string sql = nvtxSumSql("1");
    sql = sql.substr(0, sql.find("SELECT ifnull(st.tag")) + "SELECT ifnull(tag, ''), style, duration FROM nvtx";
    eachRow(path, sql, [&](sqlite3_stmt *s) { out[keyOf(s)].push_back(sqlite3_column_int64(s, 2)); });
    return out;
}

bool near(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::max(1.0, std::max(std::abs(a), std::abs(b)));
}

// Compares rows of one group (one report, or overall) with the reference, field by field.
void compareRows(const std::vector<StatRow> &rows, const RefRows &ref, const QString &what)
{
    QVERIFY2(rows.size() == ref.size(),
             qPrintable(QString("%1: %2 rows, SQL %3").arg(what).arg(rows.size()).arg(ref.size())));
    double pctSum = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        const StatRow &r = rows[i];
        const auto it = ref.find({r.name, r.style});
        QVERIFY2(it != ref.end(),
                 qPrintable(what + ": unexpected row " + QString::fromStdString(r.name + " " + r.style)));
        const RefRow &e = it->second;
        const QString ctx = what + ": " + QString::fromStdString(r.name + " / " + r.style);
        QVERIFY2(int64_t(r.count) == e.count, qPrintable(ctx));
        QVERIFY2(r.totalNs == e.total, qPrintable(ctx));
        QVERIFY2(r.minNs == e.min, qPrintable(ctx));
        QVERIFY2(r.maxNs == e.max, qPrintable(ctx));
        QVERIFY2(near(r.avgNs, e.avg), qPrintable(ctx + QString(" avg %1 vs %2").arg(r.avgNs).arg(e.avg)));
        QVERIFY2(near(r.medNs, e.med), qPrintable(ctx + QString(" med %1 vs %2").arg(r.medNs).arg(e.med)));
        QVERIFY2(near(r.stddevNs, e.stddev, 1e-6),
                 qPrintable(ctx + QString(" sd %1 vs %2").arg(r.stddevNs).arg(e.stddev)));
        QVERIFY2(near(r.timePct, e.pct), qPrintable(ctx + QString(" pct %1 vs %2").arg(r.timePct).arg(e.pct)));
        pctSum += r.timePct;
        if (i) // by total, descending
            QVERIFY(rows[i - 1].totalNs >= r.totalNs);
    }
    if (!rows.empty())
        QVERIFY(near(pctSum, 100.0, 1e-9));
}

std::vector<StatRow> rowsOf(const StatsResult &s, std::optional<size_t> report)
{
    if (!report)
        return s.overall;
    std::vector<StatRow> out;
    for (const StatRow &r : s.perReport)
        if (r.report == report)
            out.push_back(r);
    return out;
}

const StatRow *findRow(const std::vector<StatRow> &rows, const std::string &name, const std::string &style)
{
    for (const StatRow &r : rows)
        if (r.name == name && r.style == style)
            return &r;
    return nullptr;
}

ReportPtr load(const QString &path)
{
    return ps::test::loadTestReport(path);
}

std::vector<ReportPtr> loadAll(const QStringList &names)
{
    std::vector<ReportPtr> out;
    for (const QString &n : names)
        out.push_back(load(ps::test::nsysDir() + "/" + n));
    return out;
}

// The exports of the shared test data that have NVTX ranges.
QStringList nvtxExports()
{
    QStringList out;
    for (const QString &f : ps::test::nsysFiles()) {
        ps::test::SqlRef db(f.toStdString());
        if (db.countWhere("NVTX_EVENTS", "eventType IN (" + nsys::rangeTypesSql() + ")") > 0)
            out << f;
    }
    return out;
}

constexpr int64_t gtid(int64_t pid, int64_t tid)
{
    return pid << 24 | tid;
}

// A copy of the saxpy export's NVTX_EVENTS and StringIds (real schema) with rows the samples
// lack: a second process whose domain 1 has another name ("Other"), a third with domain-1
// ranges but no domain row (so no prefix), start/end (60) and NVTXT (70/71) ranges, one Range
// in both styles, and, when `unended`, a push/pop range without end.
bool makeVariant(const QString &path, bool unended)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open(path.toUtf8().constData(), &db) != SQLITE_OK)
        return false;
    const int64_t p1 = 5001, p2 = 5002;
    auto ins = [](int64_t start, const QString &end, int type, const QString &text, int64_t g, const QString &textId,
                  int domain, int64_t endG = 0) {
        return QString("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId, domainId, "
                       "endGlobalTid) VALUES (%1, %2, %3, %4, %5, %6, %7, %8);")
            .arg(start)
            .arg(end)
            .arg(type)
            .arg(text)
            .arg(g)
            .arg(textId)
            .arg(domain)
            .arg(endG ? QString::number(endG) : QString("NULL"));
    };
    QString sql =
        QString::fromStdString(ps::test::attachReadOnlySql((ps::test::nsysDir() + "/" + kSaxpy).toStdString(), "src")) +
        "CREATE TABLE StringIds AS SELECT * FROM src.StringIds;"
        "CREATE TABLE NVTX_EVENTS AS SELECT * FROM src.NVTX_EVENTS; DETACH src;";
    sql += ins(1000, "NULL", nsys::number(nsys::NvtxEventType::DomainCreate), "'Other'", gtid(p1, 1), "NULL", 1);
    // textId 85 is "MPI_Send" in saxpy: the same text in another process's domain 1.
    sql += ins(100'000'000, "130000000", nsys::number(nsys::NvtxEventType::PushPopRange), "NULL", gtid(p1, 1), "85", 1);
    sql += ins(200'000'000, "260000000", nsys::number(nsys::NvtxEventType::PushPopRange), "NULL", gtid(p1, 1), "85", 1);
    sql += ins(300'000'000, "310000000", nsys::number(nsys::NvtxEventType::PushPopRange), "'step'", gtid(p1, 1), "NULL",
               1);
    sql += ins(300'000'000, "340000000", nsys::number(nsys::NvtxEventType::StartEndRange), "'step'", gtid(p1, 1),
               "NULL", 1, gtid(p1, 2));
    sql += ins(400'000'000, "420000000", nsys::number(nsys::NvtxEventType::StartEndRange), "'step'", gtid(p1, 2),
               "NULL", 1);
    sql += ins(500'000'000, "505000000", nsys::number(nsys::NvtxEventType::NvtxtPushPop), "'nvtxt push'", gtid(p1, 1),
               "NULL", 0);
    sql += ins(600'000'000, "607000000", nsys::number(nsys::NvtxEventType::NvtxtStartEnd), "'nvtxt start'", gtid(p1, 1),
               "NULL", 0);
    sql += ins(700'000'000, "700000100", nsys::number(nsys::NvtxEventType::PushPopRange), "'MPI_Send'", gtid(p1, 1),
               "NULL", 0);
    sql += ins(800'000'000, "800500000", nsys::number(nsys::NvtxEventType::PushPopRange), "'orphan'", gtid(p2, 1),
               "NULL", 1);
    sql +=
        ins(900'000'000, "903000000", nsys::number(nsys::NvtxEventType::StartEndRange), "NULL", gtid(p2, 1), "85", 1);
    if (unended)
        sql += ins(1'500'000'000, "NULL", nsys::number(nsys::NvtxEventType::PushPopRange), "'open'", gtid(p2, 1),
                   "NULL", 0);
    const bool ok = sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return ok;
}

} // namespace

class TestTraceStats : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_variant, m_unended;

private slots:
    // trace compare's totals: the Total column of the overall rows (styles summed), on every sample.
    void totalsByNameMatchSummarize()
    {
        const QStringList files = ps::test::nsysFiles();
        QVERIFY(!files.isEmpty());
        std::vector<ReportPtr> reports;
        for (const QString &f : files)
            reports.push_back(ps::test::loadTestReport(f));
        for (StatsKind kind : {StatsKind::NvtxSum, StatsKind::KernelSum}) {
            std::map<std::string, int64_t> expected;
            for (const StatRow &r : summarize(reports, kind).overall)
                expected[r.name] += r.totalNs;
            QVERIFY(!expected.empty());
            QCOMPARE(totalsByName(reports, kind), std::optional(expected));
        }
    }

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_variant = m_dir.filePath("variant.sqlite");
        m_unended = m_dir.filePath("unended.sqlite");
        QVERIFY(makeVariant(m_variant, false));
        QVERIFY(makeVariant(m_unended, true));
    }

    // Every export with NVTX ranges, and the variant: nvtx_sum per report as nsys's SQL has it.
    void nvtxSumMatchesNsysSql_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files = nvtxExports();
        QVERIFY(files.size() >= 6); // dlprof, four extrap sweeps, saxpy
        QVERIFY(files.contains(ps::test::nsysDir() + "/" + kSaxpy));
        for (const QString &f : files)
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
        QTest::newRow("variant (processes, styles)") << m_variant;
    }
    void nvtxSumMatchesNsysSql()
    {
        QFETCH(QString, path);
        const ReportPtr rep = load(path);
        QVERIFY(rep);
        const RefRows ref = nvtxSumRef(path);
        QVERIFY(!ref.empty());
        const std::vector<ReportPtr> one{rep};
        const StatsResult s = summarize(one, StatsKind::NvtxSum);
        compareRows(rowsOf(s, 0), ref, "per report");
        compareRows(s.overall, ref, "overall");
        for (const StatRow &r : s.overall)
            QVERIFY(r.style == "PushPop" || r.style == "StartEnd");
    }

    // All exports with NVTX ranges together: overall rows merge the files' rows; per-report rows
    // are each file's own (with their own Time (%)).
    void nvtxSumOverAllExports()
    {
        const QStringList files = nvtxExports() << m_variant;
        std::vector<ReportPtr> reports;
        for (const QString &f : files) {
            reports.push_back(load(f));
            QVERIFY(reports.back());
        }
        const StatsResult s = summarize(reports, StatsKind::NvtxSum);
        std::map<Key, std::vector<int64_t>> all;
        for (int fi = 0; fi < files.size(); ++fi) {
            compareRows(rowsOf(s, size_t(fi)), nvtxSumRef(files[fi]), "report " + QFileInfo(files[fi]).fileName());
            for (auto &[k, d] : nvtxDurationsRef(files[fi]))
                all[k].insert(all[k].end(), d.begin(), d.end());
        }
        // Reference overall rows from the durations the SQL gives.
        RefRows ref;
        long double grand = 0;
        for (auto &[k, d] : all) {
            std::sort(d.begin(), d.end());
            RefRow r;
            r.count = int64_t(d.size());
            for (int64_t v : d)
                r.total += v;
            r.min = d.front();
            r.max = d.back();
            r.avg = double(r.total) / double(r.count);
            r.med =
                d.size() % 2 ? double(d[d.size() / 2]) : (double(d[d.size() / 2 - 1]) + double(d[d.size() / 2])) / 2;
            double sq = 0;
            for (int64_t v : d)
                sq += (double(v) - r.avg) * (double(v) - r.avg);
            r.stddev = d.size() > 1 ? std::sqrt(sq / double(d.size() - 1)) : 0.0;
            grand += r.total;
            ref[k] = r;
        }
        for (auto &[k, r] : ref)
            r.pct = double(r.total * 100.0L / grand);
        compareRows(s.overall, ref, "overall");
        size_t perReport = 0;
        for (const QString &f : files)
            perReport += nvtxSumRef(f).size();
        QCOMPARE(s.perReport.size(), perReport);
    }

    // The domain prefix and the style, spelled out on the samples that have them.
    void domainPrefixAndStyle()
    {
        const StatsResult saxpy = summarize(loadAll({kSaxpy}), StatsKind::NvtxSum);
        // nsys's MPI-domain ranges are textId strings in domain "MPI" of the same process.
        const StatRow *send = findRow(saxpy.overall, "MPI:MPI_Send", "PushPop");
        QVERIFY(send);
        QCOMPARE(send->count, 10ull);
        QVERIFY(findRow(saxpy.overall, "MPI:MPI_Init", "PushPop"));
        QVERIFY(findRow(saxpy.overall, "saxpy", "PushPop")); // default domain: no prefix
        for (const StatRow &r : saxpy.overall)
            QVERIFY(r.name != "MPI_Send");
        // extrap's ranges are text strings in a named domain.
        const StatsResult extrap = summarize(loadAll({"extrap__concurrent.s1.sqlite"}), StatsKind::NvtxSum);
        QVERIFY(findRow(extrap.overall, "de.tu-darmstadt.parallel.extra_prof:main", "PushPop"));

        // The variant: domain 1 is "MPI" in saxpy's process, "Other" in process 5001, unnamed in 5002.
        const std::vector<ReportPtr> v{load(m_variant)};
        const StatsResult s = summarize(v, StatsKind::NvtxSum);
        QCOMPARE(findRow(s.overall, "MPI:MPI_Send", "PushPop")->count, 10ull);
        QCOMPARE(findRow(s.overall, "Other:MPI_Send", "PushPop")->count, 2ull);
        QCOMPARE(findRow(s.overall, "Other:MPI_Send", "PushPop")->totalNs, int64_t(90'000'000));
        QCOMPARE(findRow(s.overall, "MPI_Send", "PushPop")->count, 1ull);
        QCOMPARE(findRow(s.overall, "MPI_Send", "StartEnd")->count, 1ull); // textId, process without domain row
        QCOMPARE(findRow(s.overall, "orphan", "PushPop")->count, 1ull);
        // One Range, two styles, two rows.
        QCOMPARE(findRow(s.overall, "Other:step", "PushPop")->totalNs, int64_t(10'000'000));
        QCOMPARE(findRow(s.overall, "Other:step", "StartEnd")->count, 2ull);
        QCOMPARE(findRow(s.overall, "Other:step", "StartEnd")->totalNs, int64_t(60'000'000));
        // NVTXT ranges: 70 is push/pop, 71 start/end.
        QVERIFY(findRow(s.overall, "nvtxt push", "PushPop"));
        QVERIFY(findRow(s.overall, "nvtxt start", "StartEnd"));
    }

    // nsys ends a range without end at the largest timestamp of NVTX_EVENTS; so does the nsys
    // reader, and every row agrees with nsys's SQL.
    void unendedRange()
    {
        const std::vector<ReportPtr> v{load(m_unended)};
        QVERIFY(v[0]);
        const StatsResult s = summarize(v, StatsKind::NvtxSum);
        RefRows ref = nvtxSumRef(m_unended);
        const StatRow *open = findRow(s.overall, "open", "PushPop");
        QVERIFY(open);
        QCOMPARE(open->count, 1ull);
        const int64_t expected = ref[{"open", "PushPop"}].total;
        QVERIFY(expected > 0);
        QCOMPARE(open->totalNs, expected);
        for (const StatRow &r : s.overall) {
            if (r.name == "open")
                continue;
            const RefRow &e = ref[{r.name, r.style}];
            QCOMPARE(int64_t(r.count), e.count);
            QCOMPARE(r.totalNs, e.total);
        }
    }

    void kernelSumMatchesSql_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::newRow("dlprof") << QStringList{"dlprof__nsys_profile.sqlite"};
        QTest::newRow("sweep") << QStringList{"extrap__concurrent.s1.sqlite", "extrap__concurrent.s2.sqlite",
                                              "extrap__concurrent.s8.sqlite"};
    }
    void kernelSumMatchesSql()
    {
        QFETCH(QStringList, files);
        const auto reports = loadAll(files);
        for (auto &r : reports)
            QVERIFY(r);
        const StatsResult s = summarize(reports, StatsKind::KernelSum);
        std::map<std::string, ps::test::SqlRef::SummaryRow> all;
        size_t perReportRows = 0;
        for (int fi = 0; fi < files.size(); ++fi) {
            ps::test::SqlRef db((ps::test::nsysDir() + "/" + files[fi]).toStdString());
            const auto rows = db.summaryRows(kKernelSql);
            perReportRows += rows.size();
            int64_t fileTotal = 0;
            for (const auto &row : rows)
                fileTotal += row.total;
            for (const auto &row : rows) {
                auto [it, fresh] = all.try_emplace(row.name, row);
                if (!fresh) {
                    it->second.count += row.count;
                    it->second.total += row.total;
                    it->second.min = std::min(it->second.min, row.min);
                    it->second.max = std::max(it->second.max, row.max);
                }
                auto pr = std::find_if(s.perReport.begin(), s.perReport.end(),
                                       [&](const StatRow &x) { return x.report == size_t(fi) && x.name == row.name; });
                QVERIFY(pr != s.perReport.end());
                QCOMPARE(int64_t(pr->count), row.count);
                QCOMPARE(pr->totalNs, row.total);
                QVERIFY(near(pr->timePct, double(row.total) * 100.0 / double(fileTotal)));
            }
        }
        QVERIFY(!all.empty());
        QCOMPARE(s.overall.size(), all.size());
        QCOMPARE(s.perReport.size(), perReportRows);
        int64_t grand = 0;
        for (const auto &[n, e] : all)
            grand += e.total;
        for (size_t i = 0; i < s.overall.size(); ++i) {
            const StatRow &r = s.overall[i];
            QVERIFY(!r.report);
            QVERIFY(r.style.empty()); // kernel_sum has no style
            QVERIFY(all.count(r.name));
            const auto &e = all[r.name];
            QCOMPARE(int64_t(r.count), e.count);
            QCOMPARE(r.totalNs, e.total);
            QCOMPARE(r.minNs, e.min);
            QCOMPARE(r.maxNs, e.max);
            QVERIFY(near(r.avgNs, double(e.total) / double(e.count)));
            QVERIFY(near(r.timePct, double(e.total) * 100.0 / double(grand)));
            if (i)
                QVERIFY(s.overall[i - 1].totalNs >= r.totalNs);
        }
    }

    // The window is [t0, t1) on the shared axis, over event starts; offsets move each input.
    void windowAndOffsets()
    {
        const QString path = ps::test::nsysDir() + "/" + kSaxpy;
        const ReportPtr rep = load(path);
        QVERIFY(rep);
        ps::test::SqlRef db(path.toStdString());
        // t0: the start of the second MPI_Send; t1: the start of the third "saxpy" range.
        const int64_t t0 =
            *db.scalar("SELECT start FROM NVTX_EVENTS WHERE textId = 85 ORDER BY start LIMIT 1 OFFSET 1");
        const int64_t t1 =
            *db.scalar("SELECT start FROM NVTX_EVENTS WHERE text = 'saxpy' ORDER BY start LIMIT 1 OFFSET 2");
        const int64_t off = 5'000'000'000; // saxpy spans ~2 s: shifted, nothing of it is left in [t0, t1)
        const std::string inWindow = "ne.start >= " + std::to_string(t0) + " AND ne.start < " + std::to_string(t1);

        SummarizeOptions o;
        o.offsets = {off};
        o.window = ps::core::TimeWindow{t0 + off, t1 + off};
        const std::vector<ReportPtr> one{rep};
        const StatsResult s = summarize(one, StatsKind::NvtxSum, o);
        QVERIFY(!s.cancelled);
        const RefRows ref = nvtxSumRef(path, inWindow);
        compareRows(rowsOf(s, 0), ref, "window");
        compareRows(s.overall, ref, "window overall");
        // The MPI_Send starting exactly at t0 counts (the one before it does not: 5 of the 6
        // before t1); the saxpy starting exactly at t1 does not.
        QCOMPARE(findRow(s.overall, "MPI:MPI_Send", "PushPop")->count, 5ull);
        QCOMPARE(findRow(s.overall, "saxpy", "PushPop")->count, 2ull);
        o.window = ps::core::TimeWindow{t0 + off, t1 + off + 1};
        QCOMPARE(findRow(summarize(one, StatsKind::NvtxSum, o).overall, "saxpy", "PushPop")->count, 3ull);
        o.window = ps::core::TimeWindow{t0 + off + 1, t1 + off};
        QCOMPARE(findRow(summarize(one, StatsKind::NvtxSum, o).overall, "MPI:MPI_Send", "PushPop")->count, 4ull);
        // Without the offset the same window on the report's own axis misses everything.
        o.offsets = {};
        o.window = ps::core::TimeWindow{t0 + off, t1 + off};
        QVERIFY(summarize(one, StatsKind::NvtxSum, o).overall.empty());

        // The same report twice, shifted by 0 and by `off`: only the shifted one is in the window.
        const std::vector<ReportPtr> two{rep, rep};
        o.offsets = {0, off};
        const StatsResult s2 = summarize(two, StatsKind::NvtxSum, o);
        QVERIFY(rowsOf(s2, 0).empty());
        compareRows(rowsOf(s2, 1), ref, "second input");
        compareRows(s2.overall, ref, "two inputs overall");
        // A window spanning both: each input contributes in full.
        o.window = ps::core::TimeWindow{std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
        const StatsResult both = summarize(two, StatsKind::NvtxSum, o);
        QCOMPARE(findRow(both.overall, "MPI:MPI_Send", "PushPop")->count, 20ull);
        // Without window, offsets do not matter.
        o.window.reset();
        QCOMPARE(findRow(summarize(two, StatsKind::NvtxSum, o).overall, "MPI:MPI_Send", "PushPop")->count, 20ull);

        // Kernels in the window, against SQL.
        o.offsets = {off};
        o.window = ps::core::TimeWindow{t0 + off, t1 + off};
        const StatsResult k = summarize(one, StatsKind::KernelSum, o);
        const auto kref = db.summaryRows(
            std::string(kKernelSql)
                .replace(std::string(kKernelSql).find(" GROUP BY"), 0,
                         " WHERE k.start >= " + std::to_string(t0) + " AND k.start < " + std::to_string(t1)));
        QVERIFY(!kref.empty());
        QCOMPARE(k.overall.size(), kref.size());
        for (const auto &e : kref) {
            const StatRow *r = findRow(k.overall, e.name, "");
            QVERIFY(r);
            QCOMPARE(int64_t(r->count), e.count);
            QCOMPARE(r->totalNs, e.total);
        }
    }

    // A subset of the inputs, overall rows only, and cancellation.
    void subsetPerReportAndCancel()
    {
        const auto reports = loadAll({kSaxpy, "extrap__concurrent.s1.sqlite", "extrap__concurrent.s2.sqlite"});
        SummarizeOptions o;
        o.reports = std::vector<size_t>{2, 7, 1, 2}; // out-of-range and repeated indices are ignored
        const StatsResult s = summarize(reports, StatsKind::NvtxSum, o);
        const auto whole = summarize(reports, StatsKind::NvtxSum);
        QVERIFY(!s.perReport.empty());
        QCOMPARE(s.perReport.front().report, std::optional<size_t>(2)); // in the order given
        for (const StatRow &r : s.perReport)
            QVERIFY(r.report == size_t(1) || r.report == size_t(2));
        QCOMPARE(s.perReport.size(), rowsOf(whole, 1).size() + rowsOf(whole, 2).size());
        QVERIFY(!findRow(s.overall, "MPI:MPI_Send", "PushPop")); // saxpy left out
        const std::vector<ReportPtr> sweep{reports[1], reports[2]};
        const StatsResult ref = summarize(sweep, StatsKind::NvtxSum);
        QCOMPARE(s.overall.size(), ref.overall.size());
        for (size_t i = 0; i < s.overall.size(); ++i) {
            QCOMPARE(s.overall[i].name, ref.overall[i].name);
            QCOMPARE(s.overall[i].totalNs, ref.overall[i].totalNs);
            QCOMPARE(s.overall[i].timePct, ref.overall[i].timePct);
        }
        o.perReport = false;
        const StatsResult lean = summarize(reports, StatsKind::NvtxSum, o);
        QVERIFY(lean.perReport.empty());
        QCOMPARE(lean.overall.size(), s.overall.size());
        QCOMPARE(lean.overall.front().medNs, s.overall.front().medNs);

        CancelToken cancel;
        cancel.cancel();
        o.cancel = &cancel;
        const StatsResult c = summarize(reports, StatsKind::NvtxSum, o);
        QVERIFY(c.cancelled);
        QVERIFY(c.overall.empty() && c.perReport.empty());
        QVERIFY(!s.cancelled);
    }

    // Any store's ranges come through scopes the same way: a domain prefix only where the scope
    // has a domain name (an NVTX domain); a category name (how the rocpd, Kineto and Ascend
    // readers label roctx, "cat" and torch_npu API types) prefixes nothing; a range whose attr
    // indexes no scope has none.
    void scopesOfOtherReaders()
    {
        StoreBuilder b;
        const uint16_t roctx = b.nvtxScope({7, 1, b.intern("roctx"), 0, kNoName});
        const uint16_t plain = b.nvtxScope({7, 2, kNoName, 3, b.intern("cat")});
        const NameId fwd = b.intern("forward");
        const TrackHandle pp = b.track({TrackKind::NvtxPushPop, 7, 1, 0});
        const TrackHandle se = b.track({TrackKind::NvtxStartEnd, 7, 1, 0});
        const TrackHandle mark = b.track({TrackKind::NvtxMark, 7, 1, 0});
        b.add(pp, 0, 10, fwd, 0, roctx);
        b.add(pp, 20, 25, fwd, 0, plain);
        b.add(pp, 30, 31, fwd, 0, 999); // no such scope
        b.add(se, 40, 70, fwd, 0, roctx);
        b.add(pp, 80, 90, kNoName, 0, roctx); // no text: "" as nsys's NULL, no prefix
        b.add(mark, 50, 50, fwd, 0, roctx);
        auto r = std::make_shared<Report>();
        r->store = std::make_shared<EventStore>(std::move(b).build());
        const std::vector<ReportPtr> in{r};
        const StatsResult s = summarize(in, StatsKind::NvtxSum);
        QCOMPARE(s.overall.size(), size_t(4));
        QCOMPARE(findRow(s.overall, "roctx:forward", "PushPop")->totalNs, int64_t(10));
        QCOMPARE(findRow(s.overall, "forward", "PushPop")->count, 2ull);
        QCOMPARE(findRow(s.overall, "roctx:forward", "StartEnd")->totalNs, int64_t(30));
        QCOMPARE(findRow(s.overall, "", "PushPop")->totalNs, int64_t(10));
        QCOMPARE(s.overall.front().name, std::string("roctx:forward")); // 30 ns, the largest
        QCOMPARE(s.overall.front().timePct, 30 * 100.0 / 56);
        QCOMPARE(nvtxRangeName(*r->store, fwd, roctx), std::string("roctx:forward"));
        QCOMPARE(nvtxRangeName(*r->store, fwd, plain), std::string("forward"));
        QCOMPARE(nvtxStyleName(TrackKind::NvtxStartEnd), std::string_view("StartEnd"));
        QCOMPARE(nvtxStyleName(TrackKind::Kernel), std::string_view(""));
        // Empty input.
        QVERIFY(summarize(std::span<const ReportPtr>(), StatsKind::NvtxSum).overall.empty());
    }

    // compare: one row per (Range, Style), one cell per report, the straggler has the largest total.
    void compareFlagsStraggler()
    {
        const QStringList files{"extrap__concurrent.s1.sqlite", "extrap__concurrent.s2.sqlite",
                                "extrap__concurrent.s4.sqlite", "extrap__concurrent.s8.sqlite"};
        std::vector<ReportPtr> reports = loadAll(files);
        reports.push_back(load(m_variant)); // rows in both styles
        std::vector<RefRows> refs;
        for (const QString &f : files)
            refs.push_back(nvtxSumRef(ps::test::nsysDir() + "/" + f));
        refs.push_back(nvtxSumRef(m_variant));
        const auto rows = compareReports(reports, StatsKind::NvtxSum);
        QVERIFY(!rows.empty());
        QCOMPARE(rows.size(), summarize(reports, StatsKind::NvtxSum).overall.size());
        bool bothStyles = false;
        for (const CompareRow &row : rows) {
            QCOMPARE(row.cells.size(), reports.size());
            bothStyles = bothStyles || (row.name == "Other:step" && row.style == "StartEnd");
            int64_t best = -1;
            std::optional<size_t> bestIdx;
            for (size_t fi = 0; fi < reports.size(); ++fi) {
                const auto it = refs[fi].find({row.name, row.style});
                const int64_t total = it == refs[fi].end() ? 0 : it->second.total;
                QCOMPARE(row.cells[fi].totalNs, total);
                QCOMPARE(row.cells[fi].style, row.style);
                if (total > best && total > 0) {
                    best = total;
                    bestIdx = fi;
                }
            }
            QCOMPARE(row.slowest, bestIdx);
        }
        QVERIFY(bothStyles);
    }
};

QTEST_GUILESS_MAIN(TestTraceStats)
#include "tst_tracestats.moc"
