// profstudio-cli trace info | stats | align end to end, on the real exports, against SQL.

#include "sqlref.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include "tests/support/clirun.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run
{
    int code = -1;
    QByteArray out, err;
};

} // namespace

class TestTraceCli : public QObject
{
    Q_OBJECT
    QTemporaryDir m_cache;

    Run cli(const QStringList &args)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PROFSTUDIO_CACHE_DIR", m_cache.path());
        const ps::test::CliRun r = ps::test::runCli(args, env);
        return {r.exitCode, r.out.toUtf8(), r.err.toUtf8()};
    }

private slots:
    void infoJsonCountsMatchSql()
    {
        for (int pass = 0; pass < 2; ++pass) { // second pass is served from the cache
            // The exports themselves: the folder also holds a raw .nsys-rep without an export, which
            // needs nsys (tests/formats covers it).
            const Run r = cli(QStringList{"trace", "info", "--format", "json"} + sqlref::nsysFiles());
            QCOMPARE(r.code, 0);
            const QJsonArray reports = QJsonDocument::fromJson(r.out).object()["reports"].toArray();
            QCOMPARE(reports.size(), sqlref::nsysFiles().size());
            for (const QJsonValue &v : reports) {
                const QJsonObject o = v.toObject();
                const std::string path = o["path"].toString().toStdString();
                sqlref::Db db(path);
                QCOMPARE(o["format"].toString(), QString("nsys-sqlite"));
                const QJsonObject c = o["counts"].toObject();
                QCOMPARE(c["kernel"].toInteger(), db.count("CUPTI_ACTIVITY_KIND_KERNEL"));
                QCOMPARE(c["memcpy"].toInteger(), db.count("CUPTI_ACTIVITY_KIND_MEMCPY"));
                QCOMPARE(c["memset"].toInteger(), db.count("CUPTI_ACTIVITY_KIND_MEMSET"));
                QCOMPARE(c["sync"].toInteger(), db.count("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
                QCOMPARE(c["api"].toInteger(), db.count("CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass IN (0,1)"));
                QCOMPARE(c["osrt"].toInteger(), db.count("OSRT_API"));
                QCOMPARE(c["range"].toInteger(), db.count("NVTX_EVENTS", "eventType IN (59,60,70,71)"));
                QCOMPARE(c["mark"].toInteger(), db.count("NVTX_EVENTS", "eventType = 34"));
                const auto utc = db.hasTable("TARGET_INFO_SESSION_START_TIME")
                                     ? db.scalar("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME")
                                     : std::nullopt;
                if (utc)
                    QCOMPARE(o["utc_start_ns"].toInteger(), *utc);
                else
                    QVERIFY(o["utc_start_ns"].isNull());
                QVERIFY(o["duration_ns"].toInteger() >= 0);
            }
        }
    }

    void statsTopAndJson()
    {
        const Run r = cli({"trace", "stats", "--report", "nvtx_sum", "--top", "2", "--format", "json",
                           sqlref::nsysDir() + "/extrap__concurrent.s1.sqlite",
                           sqlref::nsysDir() + "/pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite"});
        QCOMPARE(r.code, 0);
        const QJsonArray rows = QJsonDocument::fromJson(r.out).object()["rows"].toArray();
        QCOMPARE(rows.size(), 6); // 2 overall + 2 per report
        QVERIFY(rows[0].toObject()["report"].isNull());
        QVERIFY(rows[0].toObject()["total_ns"].toInteger() >= rows[1].toObject()["total_ns"].toInteger());
        QCOMPARE(rows[2].toObject()["report"].toString(), sqlref::nsysDir() + "/extrap__concurrent.s1.sqlite");
        for (const char *k : {"name", "count", "total_ns", "avg_ns", "med_ns", "min_ns", "max_ns", "stddev_ns"})
            QVERIFY(rows[0].toObject().contains(k));
        // Table output, as the README's run command prints it.
        const Run t = cli(QStringList{"trace", "stats", "--report", "kernel_sum", "--top", "10"} + sqlref::nsysFiles());
        QCOMPARE(t.code, 0);
        QVERIFY(t.out.contains("all reports"));
        const Run cmp = cli({"trace", "stats", "--report", "compare", "--format", "csv",
                             sqlref::nsysDir() + "/extrap__concurrent.s1.sqlite",
                             sqlref::nsysDir() + "/extrap__concurrent.s8.sqlite"});
        QCOMPARE(cmp.code, 0);
        QVERIFY(cmp.out.startsWith("name,"));
    }

    void alignUtcJson()
    {
        QStringList files;
        for (const char *s : {"s1", "s2", "s4", "s8"})
            files << sqlref::nsysDir() + "/extrap__concurrent." + s + ".sqlite";
        const Run r = cli(QStringList{"trace", "align", "--by", "utc", "--format", "json"} + files);
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["by"].toString(), QString("utc"));
        QVERIFY(o["residual_ns"].isNull());
        std::vector<int64_t> utc;
        for (const QString &f : files)
            utc.push_back(*sqlref::Db(f.toStdString()).scalar("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME"));
        const int64_t min = *std::min_element(utc.begin(), utc.end());
        const QJsonArray reports = o["reports"].toArray();
        QCOMPARE(reports.size(), 4);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(reports[i].toObject()["path"].toString(), files[i]);
            QCOMPARE(reports[i].toObject()["offset_ns"].toInteger(), utc[size_t(i)] - min);
        }
        // Range anchor with a residual.
        const Run a = cli(QStringList{"trace", "align", "--by", "range:main#1", "--format", "json"} + files);
        QCOMPARE(a.code, 0);
        QVERIFY(QJsonDocument::fromJson(a.out).object()["residual_ns"].toInteger() >= 0);
        // Fallback warning for the export without a UTC origin.
        const Run w = cli({"trace", "align", "--format", "json", files[0],
                           sqlref::nsysDir() + "/extrap__ex-gpu.s10.sqlite"});
        QCOMPARE(w.code, 0);
        QCOMPARE(QJsonDocument::fromJson(w.out).object()["warnings"].toArray().size(), 1);
        QVERIFY(w.err.contains("warning:"));
    }

    void errorsAndUsage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("stderrHas");
        QTest::newRow("missing file") << QStringList{"trace", "info", "/nonexistent/r.sqlite"} << 1
                                      << "error: /nonexistent/r.sqlite";
        QTest::newRow("no paths") << QStringList{"trace", "info"} << 2 << "no report";
        QTest::newRow("bad report") << QStringList{"trace", "stats", "--report", "gpu_sum", sqlref::nsysDir()} << 2
                                    << "--report";
        QTest::newRow("bad top") << QStringList{"trace", "stats", "--top", "x", sqlref::nsysDir()} << 2 << "--top";
        QTest::newRow("bad align") << QStringList{"trace", "align", "--by", "range:x#0", sqlref::nsysDir()} << 2
                                   << "positive integer";
        QTest::newRow("bad format") << QStringList{"trace", "info", "--format", "xml", sqlref::nsysDir()} << 2
                                    << "--format";
        QTest::newRow("unknown option") << QStringList{"trace", "align", "--frobnicate", sqlref::nsysDir()} << 2
                                        << "frobnicate";
    }
    void errorsAndUsage()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, stderrHas);
        const Run r = cli(args);
        QCOMPARE(r.code, code);
        QVERIFY2(QString::fromUtf8(r.err).contains(stderrHas), r.err.constData());
    }

    void help()
    {
        for (const char *c : {"info", "stats", "align"}) {
            const Run r = cli({"trace", c, "--help"});
            QCOMPARE(r.code, 0);
            QVERIFY(r.out.contains("Usage") || r.out.contains("usage"));
        }
    }
};

QTEST_GUILESS_MAIN(TestTraceCli)
#include "tst_tracecli.moc"
