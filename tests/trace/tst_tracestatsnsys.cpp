// osrt_sum, cuda_api_sum, cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum against the real
// `nsys stats`, run at test time on a copy of every sample export (found through the PS_NSYS
// environment variable, the PS_NSYS CMake cache variable or PATH; without one the test
// fails under CI=true and skips otherwise), and against values nsys 2022.4 printed for the
// samples, so that the semantics are checked without nsys too.
//
// One known difference, by design: nsys counts the "CUDA backtrace" rows of CUDA API calls
// (eventClass 67, duplicates of the calls, spec 1.3) as calls of their own, listing each API
// twice; the reader does not read them. nsys runs on a copy without those rows.

#include "app/cli/cli.h"
#include "core/common/decimalround.h"
#include "core/trace/persist/digest.h"
#include "core/trace/tracestats.h"
#include "tests/support/clirun.h"
#include "tests/support/reportload.h"
#include "tests/support/testdata.h"

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <cmath>
#include <map>

using namespace ps::core::trace;

#ifndef PS_NSYS
#define PS_NSYS ""
#endif

namespace {

struct ReportName
{
    StatsKind kind;
    const char *oldName; // nsys before 2023: osrtsum, ...
};
constexpr ReportName kReports[] = {{StatsKind::OsrtSum, "osrtsum"},
                                   {StatsKind::CudaApiSum, "cudaapisum"},
                                   {StatsKind::GpuMemTimeSum, "gpumemtimesum"},
                                   {StatsKind::GpuMemSizeSum, "gpumemsizesum"}};

bool isExecutable(const QString &path)
{
    const QFileInfo f(path);
    return f.isFile() && f.isExecutable();
}

// The nsys binary: $PS_NSYS, the build's PS_NSYS (scripts/test.sh fetches one), then PATH.
// Empty when none.
QString findNsys()
{
    for (const QString &p : {qEnvironmentVariable("PS_NSYS"), QStringLiteral(PS_NSYS)})
        if (!p.isEmpty() && isExecutable(p))
            return p;
    return QStandardPaths::findExecutable(QStringLiteral("nsys"));
}

// One CSV line's fields (double-quoted fields may hold commas and doubled quotes).
QStringList csvFields(const QString &line)
{
    QStringList out;
    QString cur;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
            cur += c, ++i;
        else if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            out << cur, cur.clear();
        else
            cur += c;
    }
    return out << cur;
}

// nsys's rows of one report by name: the columns by their title's first word.
using NsysRow = std::map<QString, QString>;
std::map<QString, NsysRow> readNsysCsv(const QString &path, int &duplicates)
{
    std::map<QString, NsysRow> rows;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return rows; // SKIPPED: the report has none of the report's data
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    if (lines.isEmpty())
        return rows;
    QStringList titles = csvFields(lines[0]);
    for (QString &t : titles)
        t = t.section(' ', 0, 0) == "Num" ? QStringLiteral("Count") : t.section(' ', 0, 0);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList v = csvFields(lines[i]);
        NsysRow row;
        for (qsizetype c = 0; c < titles.size() && c < v.size(); ++c)
            row[titles[c]] = v[c];
        const QString name = row.count("Name") ? row["Name"] : row["Operation"];
        duplicates += rows.count(name);
        rows[name] = row;
    }
    return rows;
}

// Deletes the CUDA backtrace rows (eventClass 67) from a copy of an export.
bool dropBacktraceRows(const QString &copy)
{
    sqlite3 *db = nullptr;
    bool ok = sqlite3_open(copy.toUtf8().constData(), &db) == SQLITE_OK;
    char *error = nullptr;
    // No such table or column: nothing to drop.
    sqlite3_exec(db, "DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass == 67", nullptr, nullptr, &error);
    sqlite3_free(error);
    ok = sqlite3_close(db) == SQLITE_OK && ok;
    return ok;
}

// Sets every memset's byte count of a copy of an export.
bool setMemsetBytes(const QString &copy, int bytes)
{
    sqlite3 *db = nullptr;
    bool ok = sqlite3_open(copy.toUtf8().constData(), &db) == SQLITE_OK;
    const std::string sql = "UPDATE CUPTI_ACTIVITY_KIND_MEMSET SET bytes = " + std::to_string(bytes);
    ok = ok && sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
    ok = sqlite3_close(db) == SQLITE_OK && ok;
    return ok;
}

bool sameDecimal(double ours, const QString &theirs)
{
    const double t = theirs.toDouble();
    return std::fabs(ours - t) <= 1e-9 * std::max(1.0, std::fabs(t));
}

// Our rows of one kind against nsys's: the same names, every column to the ns (or byte); times
// as nsys rounds them (one decimal), the size report's decimals as nsys prints them unrounded.
void compareToNsys(const std::vector<StatRow> &ours, const std::map<QString, NsysRow> &nsys, StatsKind kind,
                   const QString &what)
{
    QVERIFY2(ours.size() == nsys.size(),
             qPrintable(QStringLiteral("%1: %2 rows, nsys %3").arg(what).arg(ours.size()).arg(nsys.size())));
    const auto d1 = [](double v) { return QString::fromStdString(ps::core::fixedHalfAwayFromZero(v, 1)); };
    for (const StatRow &r : ours) {
        const QString name = QString::fromStdString(r.name);
        const QString at = what + ": " + name;
        QVERIFY2(nsys.count(name), qPrintable(at + " is not in nsys's rows"));
        const NsysRow &n = nsys.at(name);
        QCOMPARE(QString::number(r.count), n.at("Count"));
        QCOMPARE(QString::number(r.totalNs), n.at("Total"));
        QCOMPARE(QString::number(r.minNs), n.at("Min"));
        QCOMPARE(QString::number(r.maxNs), n.at("Max"));
        if (isByteStats(kind)) {
            QVERIFY2(sameDecimal(r.avgNs, n.at("Avg")), qPrintable(at + " avg " + n.at("Avg")));
            QVERIFY2(sameDecimal(r.medNs, n.at("Med")), qPrintable(at + " med " + n.at("Med")));
            QVERIFY2(sameDecimal(r.stddevNs, n.at("StdDev")), qPrintable(at + " stddev " + n.at("StdDev")));
            continue;
        }
        QCOMPARE(d1(r.avgNs), n.at("Avg"));
        QCOMPARE(d1(r.medNs), n.at("Med"));
        QCOMPARE(d1(r.stddevNs), n.at("StdDev"));
        QCOMPARE(d1(r.timePct), n.at("Time"));
    }
}

const StatRow *rowNamed(const std::vector<StatRow> &rows, const std::string &name)
{
    for (const StatRow &r : rows)
        if (r.name == name)
            return &r;
    return nullptr;
}

std::vector<StatRow> rowsOf(const QString &file, StatsKind kind)
{
    const ReportPtr r = ps::test::loadTestReport(ps::test::nsysDir() + "/" + file);
    if (!r)
        return {};
    const ReportPtr one[] = {r};
    return summarize(one, kind).overall;
}

} // namespace

class TestTraceStatsNsys : public QObject
{
    Q_OBJECT

private slots:
    // The same rows as nsys stats, to the ns, on every sample export.
    void matchesRealNsys()
    {
        const QString nsys = findNsys();
        if (nsys.isEmpty()) {
            if (qEnvironmentVariable("CI") == "true")
                QFAIL("no nsys: set PS_NSYS (CMake cache or environment; scripts/fetch-nsys.sh fetches one)");
            QSKIP("no nsys found (PS_NSYS, /work/nsys, PATH)");
        }
        QProcess help;
        help.start(nsys, {"stats", "--help-reports"});
        QVERIFY(help.waitForFinished(120000));
        const bool newNames = help.readAllStandardOutput().contains("osrt_sum");
        QStringList names;
        for (const ReportName &r : kReports)
            names << (newNames
                          ? QString::fromLatin1(statsKindName(r.kind).data(), qsizetype(statsKindName(r.kind).size()))
                          : QString::fromLatin1(r.oldName));
        const QStringList files = ps::test::nsysFiles();
        QVERIFY(!files.isEmpty());
        int compared = 0;
        for (const QString &path : files) {
            QTemporaryDir dir;
            const QString copy = dir.filePath(QFileInfo(path).fileName());
            QVERIFY(QFile::copy(path, copy));
            QFile::setPermissions(copy, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
            QVERIFY(dropBacktraceRows(copy));
            QProcess p;
            p.start(nsys, {"stats", "-q", "--report", names.join(','), "--format", "csv:mem=B", "--force-overwrite",
                           "true", "--output", dir.filePath("out"), copy});
            QVERIFY(p.waitForFinished(600000));
            QVERIFY2(p.exitCode() == 0, qPrintable(path + ": " + p.readAllStandardError()));
            const ReportPtr ours = ps::test::loadTestReport(path);
            QVERIFY(ours);
            const ReportPtr one[] = {ours};
            for (size_t k = 0; k < std::size(kReports); ++k) {
                int duplicates = 0;
                const auto rows = readNsysCsv(dir.filePath("out_" + names[qsizetype(k)] + ".csv"), duplicates);
                QCOMPARE(duplicates, 0);
                compareToNsys(summarize(one, kReports[k].kind).overall, rows, kReports[k].kind,
                              QFileInfo(path).fileName() + " " + names[qsizetype(k)]);
                if (QTest::currentTestFailed())
                    return;
                compared += !rows.empty();
            }
        }
        qInfo("%d non-empty reports compared with %s", compared, qPrintable(nsys));
        QVERIFY(compared > 0);
    }

    // What nsys 2022.4.2 printed for the samples (nsys stats --format csv[:mem=B]).
    void knownValues()
    {
        // OSRT: the calls only (eventClass 27), not the profiler's own zero-length marks.
        const auto osrt = rowsOf("cupqc__report1.sqlite", StatsKind::OsrtSum);
        QCOMPARE(osrt.size(), size_t(2));
        QCOMPARE(osrt[0].name, std::string("fwrite"));
        QCOMPARE(osrt[0].totalNs, int64_t(8605));
        QCOMPARE(osrt[1].name, std::string("fopen64"));
        QCOMPARE(ps::core::fixedHalfAwayFromZero(osrt[0].timePct, 1), std::string("58.1"));

        const auto api = rowsOf("extrap__con_kernel.sqlite", StatsKind::CudaApiSum);
        const StatRow *sync = rowNamed(api, "cudaEventSynchronize"); // _v3020 dropped
        QVERIFY(sync);
        QCOMPARE(sync->count, uint64_t(5));
        QCOMPARE(sync->totalNs, int64_t(258743116));
        QCOMPARE(sync->medNs, 24834.0);
        QCOMPARE(ps::core::fixedHalfAwayFromZero(sync->stddevNs, 1), std::string("109419437.3"));
        QCOMPARE(ps::core::fixedHalfAwayFromZero(sync->timePct, 1), std::string("54.1"));
        // The backtrace duplicates are not calls: nsys's row of the real cudaMalloc calls.
        const auto exgpu = rowsOf("extrap__ex-gpu.s10.sqlite", StatsKind::CudaApiSum);
        const StatRow *malloc = rowNamed(exgpu, "cudaMalloc");
        QVERIFY(malloc);
        QCOMPARE(malloc->count, uint64_t(4));
        QCOMPARE(malloc->totalNs, int64_t(210215113));

        const auto time = rowsOf("extrap__con_kernel.sqlite", StatsKind::GpuMemTimeSum);
        QCOMPARE(time.size(), size_t(3));
        QCOMPARE(time[0].name, std::string("[CUDA memcpy DtoH]"));
        QCOMPARE(time[0].totalNs, int64_t(4364129));
        QCOMPARE(time[0].medNs, 8848.0);
        QCOMPARE(time[2].name, std::string("[CUDA memset]"));
        QCOMPARE(time[2].totalNs, int64_t(2560));

        const auto size = rowsOf("extrap__con_kernel.sqlite", StatsKind::GpuMemSizeSum);
        QCOMPARE(size.size(), size_t(3));
        QCOMPARE(size[0].name, std::string("[CUDA memcpy DtoH]"));
        QCOMPARE(size[0].totalNs, int64_t(40200000)); // bytes
        QCOMPARE(size[0].avgNs, 6700000.0);
        QCOMPARE(size[0].maxNs, int64_t(40000000));
        QVERIFY(std::fabs(size[0].stddevNs - 16313601.686935967) < 1e-6);
        QCOMPARE(size[0].timePct, 0.0);
    }

    // The CLI's shapes: the size report in MB as nsys prints its table, bytes in csv and json.
    void cliShapes()
    {
        const QString dlprof = ps::test::nsysDir() + "/dlprof__nsys_profile.sqlite";
        const auto table = ps::test::runCli({"trace", "stats", "--report", "cuda_gpu_mem_size_sum", dlprof});
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.contains("Total (MB)  Count  Avg (MB)"), qPrintable(table.out));
        QVERIFY2(QRegularExpression("0\\.259 +12 +0\\.022 +0\\.001 +0\\.000 +0\\.192 +0\\.055  \\[CUDA memcpy HtoD\\]")
                     .match(table.out)
                     .hasMatch(),
                 qPrintable(table.out));
        // 62,500 bytes are 0.0625 MB exactly: nsys 2022.4 prints 0.062 (ties to even), not 0.063.
        QTemporaryDir dir;
        const QString tie = dir.filePath("tie.sqlite");
        QVERIFY(QFile::copy(dlprof, tie));
        QFile::setPermissions(tie, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QVERIFY(setMemsetBytes(tie, 62500));
        const auto tied = ps::test::runCli({"trace", "stats", "--report", "cuda_gpu_mem_size_sum", tie});
        QVERIFY2(QRegularExpression("0\\.250 +4 +0\\.062 +0\\.062 +0\\.062 +0\\.062 +0\\.000  \\[CUDA memset\\]")
                     .match(tied.out)
                     .hasMatch(),
                 qPrintable(tied.out));
        const auto csv =
            ps::test::runCli({"trace", "stats", "--report", "cuda_gpu_mem_size_sum", "--format", "csv", dlprof});
        QVERIFY2(csv.out.startsWith("report,name,count,total_bytes,avg_bytes,med_bytes,min_bytes,max_bytes,"
                                    "stddev_bytes\n(all),[CUDA memcpy HtoD],12,259272,21606.0,564.0,24,192000,"
                                    "54890.9\n"),
                 qPrintable(csv.out));
        const auto json =
            ps::test::runCli({"trace", "stats", "--report", "cuda_gpu_mem_size_sum", "--format", "json", dlprof});
        QVERIFY2(json.out.contains("\"total_bytes\": 259272") && !json.out.contains("time_pct"), qPrintable(json.out));
        const auto api = ps::test::runCli({"trace", "stats", "--report", "cuda_api_sum", "--format", "csv", dlprof});
        QCOMPARE(api.exitCode, 0);
        QVERIFY(api.out.startsWith("report,name,count,total_ns,avg_ns,med_ns,min_ns,max_ns,stddev_ns,time_pct\n"));
        const auto osrt = ps::test::runCli({"trace", "stats", "--report", "osrt_sum", dlprof});
        QCOMPARE(osrt.exitCode, 0);
        QVERIFY(osrt.out.contains("no OS runtime calls"));
        const auto bad = ps::test::runCli({"trace", "stats", "--report", "osrtsum", dlprof});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("osrt_sum"));
    }

    // A digest with its events answers as its report does; a summary-only digest says why it cannot.
    void digests()
    {
        const QString exgpu = ps::test::nsysDir() + "/extrap__ex-gpu.s10.sqlite";
        const auto direct = ps::test::runCli({"trace", "stats", "--report", "osrt_sum", "--format", "csv", exgpu});
        QCOMPARE(direct.exitCode, 0);
        for (const bool summaryOnly : {false, true}) {
            QTemporaryDir dir;
            QStringList args{"trace", "digest", "--out", dir.path(), exgpu};
            if (summaryOnly)
                args.insert(2, "--summary-only");
            const auto made = ps::test::runCli(args);
            QVERIFY2(made.exitCode == 0, qPrintable(made.err));
            const QStringList digests = QDir(dir.path()).entryList({"*.psdigest"});
            QCOMPARE(digests.size(), 1);
            const QString digest = dir.filePath(digests[0]);
            const auto stats = ps::test::runCli({"trace", "stats", "--report", "osrt_sum", "--format", "csv", digest});
            if (!summaryOnly) {
                QCOMPARE(stats.exitCode, 0);
                QCOMPARE(stats.out.section('\n', 1).replace(digest, exgpu), direct.out.section('\n', 1));
                continue;
            }
            // The CLI refuses a summary-only digest as it loads it, naming it.
            QCOMPARE(stats.exitCode, 1);
            QVERIFY2(stats.err.contains(digest) && stats.err.contains("summary-only"), qPrintable(stats.err));
            // Opened as an outline (the desktop, trace phases), the report says why it has no rows.
            std::string error;
            const ReportPtr outline = readDigestOutline(digest.toStdString(), error);
            QVERIFY2(outline, error.c_str());
            const ReportPtr one[] = {outline};
            for (const StatsKind kind : {StatsKind::OsrtSum, StatsKind::CudaApiSum, StatsKind::GpuMemSizeSum}) {
                const StatsResult r = summarize(one, kind);
                QVERIFY(r.overall.empty());
                QCOMPARE(r.problems.size(), size_t(1));
                const std::string want =
                    digest.toStdString() + ": " + std::string(statsKindName(kind)) + " needs the report's events";
                QVERIFY2(r.problems[0].starts_with(want), r.problems[0].c_str());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestTraceStatsNsys)
#include "tst_tracestatsnsys.moc"
