// profstudio-cli trace breakdown / projection: JSON shape, figures against SQL over the demo
// run's nsys exports, help and exit statuses.

#include "tests/support/clirun.h"
#include "tests/support/sqlref.h"
#include "unionsql.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const char *kGpuIntervals = "SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, end FROM "
                            "CUPTI_ACTIVITY_KIND_MEMCPY";

} // namespace

class TstAnalysisCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const auto r = ps::test::runCli({"demo", "--out", m_dir.path(), "--ranks", "2", "--steps", "2"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    // On an Ascend capture kernel_sum counts the compute tasks (those COMPUTE_TASK_INFO names),
    // not Write Value, SDMA, events and profiling markers; trace info says how it classed them.
    void ascendKernelSumCountsComputeTasks()
    {
        const std::string path =
            PS_TESTDATA_DIR "/traces/ascend/msinsight__level1__rank0__ascend_pytorch_profiler_0.db";
        const ps::test::SqlRef db(path);
        const qint64 compute =
            db.count("SELECT count(*) FROM TASK WHERE globalTaskId IN (SELECT globalTaskId FROM COMPUTE_TASK_INFO)");
        const qint64 comm = db.count(
            "SELECT count(*) FROM TASK WHERE globalTaskId IN (SELECT globalTaskId FROM COMMUNICATION_TASK_INFO)");
        const auto stats = ps::test::runCli({"trace", "stats", "--report", "kernel_sum", "--format", "json",
                                             "--no-cache", QString::fromStdString(path)});
        QVERIFY2(stats.exitCode == 0, qPrintable(stats.err));
        qint64 instances = 0;
        const QJsonObject root = QJsonDocument::fromJson(stats.out.toUtf8()).object();
        for (const QJsonValue &row : root["rows"].toArray())
            if (row.toObject()["report"].isNull()) // the rows over all reports
                instances += row.toObject()["count"].toInteger();
        QCOMPARE(instances, compute);
        const auto info = ps::test::runCli({"trace", "info", "--no-cache", QString::fromStdString(path)});
        QVERIFY2(
            info.out.contains(QString("device tasks compute=%1 (kernel_sum) communication=%2").arg(compute).arg(comm)),
            qPrintable(info.out));
    }

    void breakdownJsonMatchesSql()
    {
        const auto r = ps::test::runCli({"trace", "breakdown", "--format", "json", "--no-cache", m_dir.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray reports = QJsonDocument::fromJson(r.out.toUtf8()).object()["reports"].toArray();
        QCOMPARE(reports.size(), 2);
        for (const QJsonValue &v : reports) {
            const QJsonObject o = v.toObject();
            for (const char *key : {"path", "rank", "span_ns", "idle_ns", "compute_ns", "communication_ns", "memory_ns",
                                    "other_ns", "overlap_pct"})
                QVERIFY2(o.contains(key), key);
            const ps::test::SqlRef db(o["path"].toString().toStdString());
            QVERIFY(db.ok());
            std::string intervals = kGpuIntervals;
            for (const char *t : {"CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"})
                if (db.hasTable(t))
                    intervals += std::string(" UNION ALL SELECT start, end FROM ") + t;
            const unionsql::Stats all = unionsql::query(db, intervals);
            QVERIFY(all.length > 0);
            QCOMPARE(o["span_ns"].toInteger(), all.last - all.first);
            QCOMPARE(o["idle_ns"].toInteger(), all.last - all.first - all.length);
            const qint64 parts = o["compute_ns"].toInteger() + o["communication_ns"].toInteger() +
                                 o["memory_ns"].toInteger() + o["other_ns"].toInteger();
            QCOMPARE(parts, all.length);
            const unionsql::Stats memcpy = unionsql::query(db, "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY");
            QCOMPARE(o["memcpy_union_ns"].toInteger(), memcpy.length);
            const unionsql::Stats comm = unionsql::query(
                db, "SELECT k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
                    "k.demangledName WHERE s.value GLOB 'nccl*' OR s.value GLOB '*ncclDevKernel*'");
            QCOMPARE(o["communication_union_ns"].toInteger(), comm.length);
            QCOMPARE(o["overlap_pct"].isNull(), comm.length == 0);
        }
    }

    void breakdownPerStreamAndCsv()
    {
        const auto s =
            ps::test::runCli({"trace", "breakdown", "--by", "stream", "--format", "csv", "--no-cache", m_dir.path()});
        QCOMPARE(s.exitCode, 0);
        const QStringList lines = s.out.split('\n', Qt::SkipEmptyParts);
        QVERIFY(lines.size() > 2);
        QVERIFY(lines[0].startsWith("path,rank,device,stream,events,span_ns,idle_ns,compute_ns"));
    }

    // Kineto: one row per ProfilerStep#N, each within the whole-report figures.
    void breakdownPerStep()
    {
        const QString trace = PS_TESTDATA_DIR "/traces/kineto/hta__trace_filter__sampled_rank-0.json.gz";
        const auto whole = ps::test::runCli({"trace", "breakdown", "--format", "json", "--no-cache", trace});
        const auto steps =
            ps::test::runCli({"trace", "breakdown", "--by", "step", "--format", "json", "--no-cache", trace});
        QCOMPARE(steps.exitCode, 0);
        const QJsonObject all = QJsonDocument::fromJson(whole.out.toUtf8()).object()["reports"].toArray()[0].toObject();
        const QJsonArray rows = QJsonDocument::fromJson(steps.out.toUtf8()).object()["reports"].toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject()["step"].toInteger(), 551);
        QCOMPARE(rows[1].toObject()["step"].toInteger(), 552);
        qint64 compute = 0;
        for (const QJsonValue &v : rows) {
            QVERIFY(v.toObject()["span_ns"].toInteger() > 0);
            compute += v.toObject()["compute_ns"].toInteger();
        }
        QVERIFY(compute > 0 && compute <= all["compute_ns"].toInteger());
    }

    void projectionJson()
    {
        const auto r = ps::test::runCli({"trace", "projection", "--format", "json", "--no-cache", m_dir.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["report"].toString(), QString("nvtx_gpu_proj_sum"));
        const QJsonArray reports = o["reports"].toArray();
        QCOMPARE(reports.size(), 2);
        for (const QJsonValue &v : reports) {
            const QJsonArray rows = v.toObject()["rows"].toArray();
            QVERIFY(!rows.isEmpty());
            for (const QJsonValue &row : rows) {
                const QJsonObject x = row.toObject();
                QVERIFY(x["total_proj_ns"].toInteger() > 0);
                QVERIFY(x["ratio"].toDouble() > 0);
            }
        }
    }

    void helpAndExitStatuses()
    {
        const auto help = ps::test::runCli({"trace", "breakdown", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("overlap_pct") && help.out.contains("idle"));
        QCOMPARE(ps::test::runCli({"trace", "projection", "--help"}).exitCode, 0);
        QCOMPARE(ps::test::runCli({"trace", "breakdown"}).exitCode, 2);
        QCOMPARE(ps::test::runCli({"trace", "breakdown", "--by", "rank", m_dir.path()}).exitCode, 2);
        QCOMPARE(ps::test::runCli({"trace", "breakdown", "--format", "xml", m_dir.path()}).exitCode, 2);
        const auto missing = ps::test::runCli({"trace", "breakdown", "--no-cache", m_dir.path() + "/nope.sqlite"});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("nope.sqlite"));
        const auto top = ps::test::runCli({"trace", "--help"});
        QVERIFY(top.out.contains("breakdown") && top.out.contains("projection"));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TstAnalysisCli)
#include "tst_analysiscli.moc"
