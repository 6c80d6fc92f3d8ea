// profstudio-cli trace info | stats | align end to end, on the real exports, against SQL.

#include "core/trace/nsys/nvtxeventtype.h"
#include "tests/support/sqlref.h"
#include "tests/support/testdata.h"

#include "tests/support/clirun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <sqlite3.h>

#include <QTemporaryDir>
#include <QtTest>

namespace nsys = ps::core::trace::nsys;

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
        QVERIFY(!ps::test::nsysFiles().isEmpty());
        for (int pass = 0; pass < 2; ++pass) { // second pass is served from the cache
            // The exports themselves: the folder also holds a raw .nsys-rep without an export, which
            // needs nsys (tests/formats covers it).
            const Run r = cli(QStringList{"trace", "info", "--format", "json"} + ps::test::nsysFiles());
            QCOMPARE(r.code, 0);
            const QJsonArray reports = QJsonDocument::fromJson(r.out).object()["reports"].toArray();
            QVERIFY(!ps::test::nsysFiles().isEmpty());
            QCOMPARE(reports.size(), ps::test::nsysFiles().size());
            for (const QJsonValue &v : reports) {
                const QJsonObject o = v.toObject();
                const std::string path = o["path"].toString().toStdString();
                ps::test::SqlRef db(path);
                QCOMPARE(o["format"].toString(), QString("nsys-sqlite"));
                const QJsonObject c = o["counts"].toObject();
                QCOMPARE(c["kernel"].toInteger(), db.countWhere("CUPTI_ACTIVITY_KIND_KERNEL"));
                QCOMPARE(c["memcpy"].toInteger(), db.countWhere("CUPTI_ACTIVITY_KIND_MEMCPY"));
                QCOMPARE(c["memset"].toInteger(), db.countWhere("CUPTI_ACTIVITY_KIND_MEMSET"));
                QCOMPARE(c["sync"].toInteger(), db.countWhere("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
                QCOMPARE(c["api"].toInteger(), db.countWhere("CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass IN (0,1)"));
                QCOMPARE(c["osrt"].toInteger(), db.countWhere("OSRT_API"));
                QCOMPARE(c["range"].toInteger(),
                         db.countWhere("NVTX_EVENTS", "eventType IN (" + nsys::rangeTypesSql() + ")"));
                QCOMPARE(c["mark"].toInteger(),
                         db.countWhere("NVTX_EVENTS", "eventType = " + nsys::sqlList({nsys::NvtxEventType::Mark})));
                const auto utc = db.hasTable("TARGET_INFO_SESSION_START_TIME")
                                     ? db.scalar("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME")
                                     : std::nullopt;
                if (utc)
                    QCOMPARE(o["utc_start_ns"].toInteger(), *utc);
                else
                    QVERIFY(o["utc_start_ns"].isNull());
                // Device memory: one series per device that allocated device-resident memory,
                // its peak the highest running sum SQL finds.
                const QJsonArray memory = o["memory"].toArray();
                QVERIFY(o["memory"].isArray());
                if (db.hasTable("CUDA_GPU_MEMORY_USAGE_EVENTS")) {
                    const std::string where = " FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE memKind IN (2, 3, 5)";
                    QCOMPARE(memory.size(), db.integer("SELECT count(DISTINCT deviceId)" + where));
                    for (const QJsonValue &m : memory)
                        QCOMPARE(m.toObject()["peak_bytes"].toInteger(),
                                 db.integer("SELECT max(s) FROM (SELECT sum(CASE memoryOperationType WHEN 0 THEN bytes "
                                            "ELSE -bytes END) OVER (ORDER BY start, rowid) s" +
                                            where + " AND deviceId = " +
                                            std::to_string(m.toObject()["device"].toInteger()) + ")"));
                } else {
                    QCOMPARE(memory.size(), 0);
                }
                // Present (a missing key reads as 0), and spans at least the export's kernels.
                QVERIFY(o["duration_ns"].isDouble());
                const int64_t duration = o["duration_ns"].toInteger();
                QVERIFY(duration > 0);
                if (db.countWhere("CUPTI_ACTIVITY_KIND_KERNEL") > 0)
                    QVERIFY(duration >= *db.scalar("SELECT max(end) - min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
            }
        }
    }

    void statsTopAndJson()
    {
        const Run r = cli({"trace", "stats", "--report", "nvtx_sum", "--top", "2", "--format", "json",
                           ps::test::nsysDir() + "/extrap__concurrent.s1.sqlite",
                           ps::test::nsysDir() + "/pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite"});
        QCOMPARE(r.code, 0);
        const QJsonArray rows = QJsonDocument::fromJson(r.out).object()["rows"].toArray();
        QCOMPARE(rows.size(), 6); // 2 overall + 2 per report
        QVERIFY(rows[0].toObject()["report"].isNull());
        QVERIFY(rows[0].toObject()["total_ns"].toInteger() >= rows[1].toObject()["total_ns"].toInteger());
        QCOMPARE(rows[2].toObject()["report"].toString(), ps::test::nsysDir() + "/extrap__concurrent.s1.sqlite");
        for (const char *k : {"name", "count", "total_ns", "avg_ns", "med_ns", "min_ns", "max_ns", "stddev_ns"})
            QVERIFY(rows[0].toObject().contains(k));
        // Table output, as the README's run command prints it.
        const Run t =
            cli(QStringList{"trace", "stats", "--report", "kernel_sum", "--top", "10"} + ps::test::nsysFiles());
        QCOMPARE(t.code, 0);
        QVERIFY(t.out.contains("all reports"));
        // One report: one table (the "all reports" one would be the same).
        const Run one = cli({"trace", "stats", "--report", "kernel_sum",
                             ps::test::nsysDir() + "/pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite"});
        QCOMPARE(one.code, 0);
        QVERIFY(!one.out.contains("all reports"));
        QCOMPARE(one.out.count("Time (%)"), 1);
        QVERIFY(one.out.startsWith("== " + ps::test::nsysDir().toUtf8()));
        const Run cmp = cli({"trace", "stats", "--report", "compare", "--format", "csv",
                             ps::test::nsysDir() + "/extrap__concurrent.s1.sqlite",
                             ps::test::nsysDir() + "/extrap__concurrent.s8.sqlite"});
        QCOMPARE(cmp.code, 0);
        QVERIFY(cmp.out.startsWith("name,"));
    }

    // nvtx_sum rows carry nsys's Style and Time (%): json "style"/"time_pct", csv columns at the
    // end, and the table in nsys's column order; kernel_sum has Time (%) but no style.
    void statsStyleAndTimePct()
    {
        const QString saxpy = ps::test::nsysDir() + "/pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite";
        ps::test::SqlRef db(saxpy.toStdString());
        const int64_t all = *db.scalar("SELECT sum(end - start) FROM NVTX_EVENTS WHERE eventType IN (59,60,70,71)");
        const int64_t init = *db.scalar("SELECT sum(n.end - n.start) FROM NVTX_EVENTS n JOIN StringIds s ON "
                                        "s.id = n.textId WHERE n.eventType = 59 AND s.value = 'MPI_Init'");

        const Run j = cli({"trace", "stats", "--report", "nvtx_sum", "--format", "json", saxpy});
        QCOMPARE(j.code, 0);
        const QJsonArray rows = QJsonDocument::fromJson(j.out).object()["rows"].toArray();
        QVERIFY(!rows.isEmpty());
        double pctAll = 0, pctReport = 0;
        bool sawInit = false;
        for (const QJsonValue &v : rows) {
            const QJsonObject o = v.toObject();
            for (const char *k : {"name", "style", "report", "count", "total_ns", "avg_ns", "med_ns", "min_ns",
                                  "max_ns", "stddev_ns", "time_pct"})
                QVERIFY2(o.contains(k), k);
            QCOMPARE(o["style"].toString(), QString("PushPop")); // saxpy has push/pop ranges only
            (o["report"].isNull() ? pctAll : pctReport) += o["time_pct"].toDouble();
            if (o["name"].toString() == "MPI:MPI_Init") {
                sawInit = true;
                QCOMPARE(o["total_ns"].toInteger(), init);
                QVERIFY(qAbs(o["time_pct"].toDouble() - double(init) * 100.0 / double(all)) < 1e-9);
            }
        }
        QVERIFY(sawInit);
        QVERIFY(qAbs(pctAll - 100.0) < 1e-6);
        QVERIFY(qAbs(pctReport - 100.0) < 1e-6);

        const Run c = cli({"trace", "stats", "--report", "nvtx_sum", "--format", "csv", saxpy});
        QCOMPARE(c.code, 0);
        const QList<QByteArray> lines = c.out.trimmed().split('\n');
        QCOMPARE(lines[0],
                 QByteArray("report,name,count,total_ns,avg_ns,med_ns,min_ns,max_ns,stddev_ns,time_pct,style"));
        bool sawSend = false;
        for (const QByteArray &l : lines.mid(1)) {
            const QList<QByteArray> f = l.split(',');
            QCOMPARE(f.size(), 11);
            QCOMPARE(f[10], QByteArray("PushPop"));
            QVERIFY2(!l.contains("e+"), l.constData()); // plain decimals, not 1.36343e+07
            if (f[0] == "(all)" && f[1] == "MPI:MPI_Send") {
                sawSend = true;
                QCOMPARE(f[2], QByteArray("10"));
            }
        }
        QVERIFY(sawSend);

        const Run t = cli({"trace", "stats", "--report", "nvtx_sum", saxpy});
        QCOMPARE(t.code, 0);
        const QString table = QString::fromUtf8(t.out);
        const QString header = table.split('\n').filter("Total Time (ns)").value(0);
        // Every column there (indexOf is -1 for a missing one), in nsys's order.
        qsizetype previous = -1;
        for (const char *column : {"Time (%)", "Total Time (ns)", "StdDev (ns)", "Style", "Range"}) {
            const qsizetype at = header.indexOf(QLatin1String(column));
            QVERIFY2(at > previous, qPrintable(QString(column) + " in: " + table));
            previous = at;
        }
        QVERIFY(table.contains("PushPop  MPI:MPI_Send"));
        QVERIFY(table.contains("645,678,983")); // MPI_Init's total, grouped as nsys prints it

        const Run k = cli({"trace", "stats", "--report", "kernel_sum", "--format", "json", saxpy});
        QCOMPARE(k.code, 0);
        const QJsonArray krows = QJsonDocument::fromJson(k.out).object()["rows"].toArray();
        QVERIFY(!krows.isEmpty());
        for (const QJsonValue &v : krows) {
            QVERIFY(v.toObject().contains("time_pct"));
            QVERIFY(!v.toObject().contains("style"));
        }
        const Run kc = cli({"trace", "stats", "--report", "kernel_sum", "--format", "csv", saxpy});
        QVERIFY(kc.out.startsWith("report,name,count,total_ns,avg_ns,med_ns,min_ns,max_ns,stddev_ns,time_pct\n"));
        const Run kt = cli({"trace", "stats", "--report", "kernel_sum", saxpy});
        QVERIFY(kt.out.contains("Name") && !kt.out.contains("Style"));

        // compare: rows per (name, style).
        const QString s1 = ps::test::nsysDir() + "/extrap__concurrent.s1.sqlite";
        const Run cj = cli({"trace", "stats", "--report", "compare", "--format", "json", saxpy, s1});
        QCOMPARE(cj.code, 0);
        const QJsonArray crows = QJsonDocument::fromJson(cj.out).object()["rows"].toArray();
        QVERIFY(!crows.isEmpty());
        for (const QJsonValue &v : crows) {
            QCOMPARE(v.toObject()["style"].toString(), QString("PushPop"));
            QCOMPARE(v.toObject()["reports"].toArray().size(), 2);
        }
        const Run cc = cli({"trace", "stats", "--report", "compare", "--format", "csv", saxpy, s1});
        QVERIFY(cc.out.split('\n').value(0).endsWith(",slowest,style"));
    }

    // nvtx_sum names as the exporting nsys release prints them: 2024.6 prefixes default-domain
    // ranges with ':'; other releases do not. The demo's exports, relabelled by version.
    void nvtxNamesFollowTheExportingRelease()
    {
        QTemporaryDir dir;
        QVERIFY(cli({"demo", "--out", dir.path(), "--ranks", "1", "--steps", "1"}).code == 0);
        const QString report = QDir(dir.filePath("profiling")).entryInfoList({"*.sqlite"}).value(0).absoluteFilePath();
        QVERIFY(!report.isEmpty());
        const auto namesWith = [&](const char *version) {
            sqlite3 *db = nullptr;
            const std::string sql = std::string("UPDATE META_DATA_EXPORT SET value = '") + version +
                                    "' WHERE name = 'EXPORT_PRODUCT_VERSION'";
            const bool updated = sqlite3_open(report.toUtf8().constData(), &db) == SQLITE_OK &&
                                 sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
            sqlite3_close(db);
            if (!updated)
                return QStringList{"update failed"};
            const Run r = cli({"trace", "stats", "--no-cache", "--report", "nvtx_sum", "--format", "csv", report});
            QStringList names;
            for (const QByteArray &line : r.out.split('\n').mid(1))
                if (line.startsWith("(all),"))
                    names << QString::fromUtf8(line.split(',').value(1));
            return names;
        };
        const QStringList v2024_6 = namesWith("2024.6.1.90"), v2025 = namesWith("2025.6.1.190");
        QVERIFY(!v2025.isEmpty());
        QCOMPARE(v2024_6.size(), v2025.size());
        QVERIFY(v2025.contains("run_training"));
        QVERIFY(v2024_6.contains(":run_training"));
        int named = 0; // ranges of a named domain ("NCCL:ncclAllGather") read the same in both
        for (const QString &n : v2024_6) {
            QVERIFY2(n.startsWith(':') ? v2025.contains(n.mid(1)) : v2025.contains(n), qPrintable(n));
            named += !n.startsWith(':');
        }
        QVERIFY(named > 0);
    }

    // Past 8 reports the compare table summarises the spread instead of a column per report, so
    // it stays readable at 64 or 1024 ranks; the slowest is the demo's planted straggler.
    void compareTableSummarisesManyReports()
    {
        QTemporaryDir dir;
        const Run demo = cli({"demo", "--out", dir.path(), "--ranks", "12", "--steps", "1"});
        QCOMPARE(demo.code, 0);
        const int at = demo.out.indexOf("straggler: rank ");
        QVERIFY(at >= 0);
        const int straggler = demo.out.mid(at + 16).split('\n').value(0).toInt();
        const Run r = cli({"trace", "stats", "--report", "compare", "--top", "3", dir.filePath("profiling")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("total ns across 12 reports"), r.out.constData());
        const QList<QByteArray> lines = r.out.split('\n');
        for (const QByteArray &line : lines)
            QVERIFY2(line.size() <= 160, line.constData());
        const QByteArray first = lines.value(4); // the title, a blank line, the header, the rule
        QVERIFY2(first.contains("run_training") && first.trimmed().startsWith("12 "), first.constData());
        QVERIFY2(first.contains(QString("ActorGroup r%1 pid").arg(straggler).toUtf8()), first.constData());
        // Eight or fewer stay side by side.
        const QStringList eight = QDir(dir.filePath("profiling")).entryList({"*.sqlite"}).mid(0, 8);
        QStringList paths;
        for (const QString &f : eight)
            paths << dir.filePath("profiling/" + f);
        const Run side = cli(QStringList{"trace", "stats", "--report", "compare", "--top", "3"} + paths);
        QVERIFY(side.out.startsWith("total ns per report"));
    }

    // trace digest: a demo run digested into another folder opens as the same run (stats and
    // phase stragglers equal those of the reports); a bad file fails alone; usage errors exit 2.
    void digestOpensAsTheSameRun()
    {
        QTemporaryDir dir;
        QVERIFY(cli({"demo", "--out", dir.filePath("run"), "--ranks", "4", "--steps", "2"}).code == 0);
        QFile bad(dir.filePath("run/profiling/rlinf_profile_ActorGroup_9_999.sqlite"));
        QVERIFY(bad.open(QIODevice::WriteOnly) && bad.write("not sqlite") > 0);
        bad.close();
        const Run r =
            cli({"trace", "digest", "--format", "json", "--out", dir.filePath("digests"), dir.filePath("run")});
        QCOMPARE(r.code, 1); // the bad file
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["digests"].toArray().size(), 4);
        QCOMPARE(o["failures"].toArray().size(), 1);
        QVERIFY(r.err.contains("rlinf_profile_ActorGroup_9_999.sqlite"));
        for (const QJsonValue &d : o["digests"].toArray()) {
            const QJsonObject x = d.toObject();
            QVERIFY(x["digest"].toString().startsWith(dir.filePath("digests/profiling/")));
            // A fraction of the export even for these 4 k-event reports, where the pyramids' whole-range
            // levels (a fixed cost per lane) weigh most.
            QVERIFY(x["digest_bytes"].toInteger() < x["source_bytes"].toInteger() / 3);
        }
        QVERIFY(bad.remove());
        const auto normalized = [&](const QStringList &args) {
            Run x = cli(args);
            x.out.replace(".psdigest", "");
            x.out.replace(dir.filePath("digests").toUtf8(), "RUN");
            x.out.replace(dir.filePath("run").toUtf8(), "RUN");
            return x;
        };
        for (const char *cmd : {"stats", "phases", "breakdown"}) {
            const Run raw = normalized({"trace", cmd, "--format", "json", "--no-cache", dir.filePath("run/profiling")});
            const Run dig =
                normalized({"trace", cmd, "--format", "json", "--no-cache", dir.filePath("digests/profiling")});
            QCOMPARE(dig.code, 0);
            QVERIFY2(raw.out == dig.out, qPrintable(cmd));
        }
        QCOMPARE(cli({"trace", "digest"}).code, 2);
        QCOMPARE(cli({"trace", "digest", "--level", "40", dir.filePath("run")}).code, 2);
        QCOMPARE(cli({"trace", "digest", dir.filePath("nothing-here")}).code, 1);
    }

    // Several folders into one --out: the same report name under two of them once gave one digest
    // and "2 of 2 report(s) digested". Now that is refused before anything is written; a report
    // named twice (its folder and itself) is digested once.
    void digestOutNeverOverwrites()
    {
        QTemporaryDir dir;
        QVERIFY(cli({"demo", "--out", dir.filePath("run"), "--ranks", "2", "--steps", "1"}).code == 0);
        const QStringList reports = QDir(dir.filePath("run/profiling")).entryList({"*.sqlite"}, QDir::Files);
        QCOMPARE(reports.size(), 2);
        for (const char *node : {"a", "b"}) {
            QVERIFY(QDir().mkpath(dir.filePath(QString(node) + "/profiling")));
            // Each node's rank 0 and 1 reports under one name, as two nodes' workers of one pid may be.
            QVERIFY(QFile::copy(dir.filePath("run/profiling/" + reports[node[0] - 'a']),
                                dir.filePath(QString(node) + "/profiling/report.sqlite")));
        }
        const Run clash = cli({"trace", "digest", "--out", dir.filePath("out"), dir.filePath("a"), dir.filePath("b")});
        QCOMPARE(clash.code, 2);
        QVERIFY2(clash.err.contains("would both be digested to") && clash.err.contains("nothing was written"),
                 clash.err.constData());
        QVERIFY(!QFileInfo::exists(dir.filePath("out")));
        const Run twice = cli({"trace", "digest", "--out", dir.filePath("once"), dir.filePath("a"),
                               dir.filePath("a/profiling/report.sqlite")});
        QCOMPARE(twice.code, 0);
        QVERIFY2(twice.out.contains("1 of 1 report(s) digested"), twice.out.constData());
    }

    void alignUtcJson()
    {
        QStringList files;
        for (const char *s : {"s1", "s2", "s4", "s8"})
            files << ps::test::nsysDir() + "/extrap__concurrent." + s + ".sqlite";
        const Run r = cli(QStringList{"trace", "align", "--by", "utc", "--format", "json"} + files);
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["by"].toString(), QString("utc"));
        QVERIFY(o["residual_ns"].isNull());
        std::vector<int64_t> utc;
        for (const QString &f : files)
            utc.push_back(
                *ps::test::SqlRef(f.toStdString()).scalar("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME"));
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
        const QJsonObject byRange = QJsonDocument::fromJson(a.out).object();
        QCOMPARE(byRange["used"].toString(), QString("range:main#1")); // no fallback
        QVERIFY(byRange["residual_ns"].isDouble());                    // null when there is none
        QVERIFY(byRange["residual_ns"].toInteger() >= 0);
        // Fallback warning for the export without a UTC origin.
        const Run w =
            cli({"trace", "align", "--format", "json", files[0], ps::test::nsysDir() + "/extrap__ex-gpu.s10.sqlite"});
        QCOMPARE(w.code, 0);
        QCOMPARE(QJsonDocument::fromJson(w.out).object()["warnings"].toArray().size(), 1);
        QVERIFY(w.err.contains("warning:"));
    }

    // Reports under the names verl >= 0.9 writes (a relocated nsys export with role and host, a
    // torch trace with role, scope, step, rank, world size and Megatron coordinates): trace info
    // reports the identity the names carry. The files are real exports, copied under those names.
    void infoReadsVerlNames()
    {
        QTemporaryDir dir;
        const QString nsysName = dir.filePath("actor_rollout_node-3_worker_process_4242.sqlite");
        const QString torchName =
            dir.filePath("actor-rollout-ref_train_step3_rank5-of-8_tp1-pp1-dp0-cp0_pid4343_20260822103000123.json.gz");
        QVERIFY(QFile::copy(ps::test::nsysFiles().first(), nsysName));
        QVERIFY(QFile::copy(PS_TESTDATA_DIR "/traces/kineto/hta__trace_filter__sampled_rank-1.json.gz", torchName));
        const Run r = cli({"trace", "info", "--format", "json", nsysName, torchName});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray reports = QJsonDocument::fromJson(r.out).object()["reports"].toArray();
        QCOMPARE(reports.size(), 2);
        QJsonObject nsys, torch;
        for (const QJsonValue &v : reports)
            (v.toObject()["path"].toString() == nsysName ? nsys : torch) = v.toObject();
        QCOMPARE(nsys["group"].toString(), QString("actor_rollout"));
        QCOMPARE(nsys["host"].toString(), QString("node-3"));
        QCOMPARE(nsys["pid"].toInteger(), 4242);
        QCOMPARE(torch["group"].toString(), QString("actor-rollout-ref"));
        QCOMPARE(torch["scope"].toString(), QString("train"));
        QCOMPARE(torch["step"].toInteger(), 3);
        // The trace recorded rank 1 of 128 (distributedInfo): that wins over the name's 5 of 8 (#36).
        QCOMPARE(torch["rank"].toInteger(), 1);
        QCOMPARE(torch["world_size"].toInteger(), 128);
        QVERIFY(torch["name_disagrees"].toString().startsWith("rank 5 (its name) vs 1 (distributedInfo.rank"));
        QCOMPARE(torch["parallel"].toString(), QString("tp1-pp1-dp0-cp0"));
        QCOMPARE(torch["pid"].toInteger(), 4343);
    }

    void errorsAndUsage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("stderrHas");
        QTest::newRow("missing file") << QStringList{"trace", "info", "/nonexistent/r.sqlite"} << 1
                                      << "error: /nonexistent/r.sqlite";
        QTest::newRow("no paths") << QStringList{"trace", "info"} << 2 << "no report";
        QTest::newRow("bad report") << QStringList{"trace", "stats", "--report", "gpu_sum", ps::test::nsysDir()} << 2
                                    << "--report";
        QTest::newRow("bad top") << QStringList{"trace", "stats", "--top", "x", ps::test::nsysDir()} << 2 << "--top";
        QTest::newRow("bad align") << QStringList{"trace", "align", "--by", "range:x#0", ps::test::nsysDir()} << 2
                                   << "positive integer";
        QTest::newRow("bad format") << QStringList{"trace", "info", "--format", "xml", ps::test::nsysDir()} << 2
                                    << "--format";
        QTest::newRow("unknown option") << QStringList{"trace", "align", "--frobnicate", ps::test::nsysDir()} << 2
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
