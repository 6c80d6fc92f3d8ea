// Every report knows its rank from what it recorded (issue #36): copies of the real nsys exports,
// made in a temporary folder, given the environment rows verl's workers have (RANK, WORLD_SIZE,
// WG_PREFIX) and verl's name worker_process_<pid>.sqlite, which gives no rank. trace info says
// the rank and the variable it came from; a name that disagrees is said; malformed rows,
// contradictory ranks and several processes; Kineto's distributedInfo.rank refused out of range.

#include "core/trace/read/traceloader.h"
#include "tests/support/clirun.h"
#include "tests/support/testdata.h"

#include <sqlite3.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace tr = ps::core::trace;

namespace {

const QString kSource = QStringLiteral("ppcu-lab7__report1.sqlite"); // records PROCESS_0 with 251 variables

// A writable copy of a real export named `name` in `dir`, with `rows` (name, value) added to its
// META_DATA_CAPTURE. Empty when it could not be made.
QString copyWithRows(const QTemporaryDir &dir, const QString &name,
                     const std::vector<std::pair<QString, QString>> &rows)
{
    const QString to = dir.filePath(name);
    if (!QFile::copy(ps::test::nsysDir() + "/" + kSource, to))
        return {};
    QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner);
    sqlite3 *db = nullptr;
    bool ok = sqlite3_open(to.toUtf8().constData(), &db) == SQLITE_OK;
    for (const auto &[n, v] : rows) {
        sqlite3_stmt *s = nullptr;
        ok = ok && sqlite3_prepare_v2(db, "INSERT INTO META_DATA_CAPTURE(name, value) VALUES (?, ?)", -1, &s,
                                      nullptr) == SQLITE_OK;
        const QByteArray nb = n.toUtf8(), vb = v.toUtf8();
        ok = ok && sqlite3_bind_text(s, 1, nb.constData(), -1, SQLITE_TRANSIENT) == SQLITE_OK &&
             sqlite3_bind_text(s, 2, vb.constData(), -1, SQLITE_TRANSIENT) == SQLITE_OK &&
             sqlite3_step(s) == SQLITE_DONE;
        sqlite3_finalize(s);
    }
    sqlite3_close(db);
    return ok ? to : QString();
}

const std::vector<std::pair<QString, QString>> kRank3 = {
    {"PROCESS_0:ENVIRONMENT_VARIABLE", "RANK=\"3\""},
    {"PROCESS_0:ENVIRONMENT_VARIABLE", "WORLD_SIZE=\"4\""},
    {"PROCESS_0:ENVIRONMENT_VARIABLE", "WG_PREFIX=\"aB3dEf\""},
};

struct Info
{
    int code = -1;
    QJsonObject report;
    QString text, err;
};

} // namespace

class TestRecordedIdentity : public QObject
{
    Q_OBJECT
    QTemporaryDir m_cache;

    ps::test::CliRun cli(const QStringList &args)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PROFSTUDIO_CACHE_DIR", m_cache.path());
        return ps::test::runCli(args, env);
    }
    // trace info of one report, as JSON and as text.
    Info info(const QString &path)
    {
        const ps::test::CliRun j = cli({"trace", "info", "--format", "json", path});
        const ps::test::CliRun t = cli({"trace", "info", path});
        const QJsonArray reports = QJsonDocument::fromJson(j.out.toUtf8()).object()["reports"].toArray();
        return {j.exitCode, reports.size() == 1 ? reports[0].toObject() : QJsonObject(), t.out, j.err};
    }

private slots:
    void theRealExportsRecordNoRank()
    {
        for (const QString &f : {kSource, QString("tutorial_vqe__report1.sqlite"), QString("cupqc__report1.sqlite")}) {
            const Info i = info(ps::test::nsysDir() + "/" + f);
            QCOMPARE(i.code, 0);
            QVERIFY(i.report["rank"].isNull());
            QVERIFY2(i.report["recorded"].toObject().isEmpty(), qPrintable(f));
            QVERIFY2(!i.text.contains("META_DATA_CAPTURE"), qPrintable(i.text)); // 251 real rows, none malformed
        }
    }
    void rankFromTheRecordedEnvironment()
    {
        QTemporaryDir dir;
        const QString path = copyWithRows(dir, "worker_process_158702.sqlite", kRank3);
        QVERIFY(!path.isEmpty());
        for (int pass = 0; pass < 2; ++pass) { // the second from the cache
            const Info i = info(path);
            QCOMPARE(i.code, 0);
            QCOMPARE(i.report["rank"].toInt(-1), 3);
            QCOMPARE(i.report["world_size"].toInt(-1), 4);
            QCOMPARE(i.report["group"].toString(), QString("aB3dEf")); // not Ray's generic "worker_process"
            QCOMPARE(i.report["pid"].toInt(), 158702);
            const QJsonObject rec = i.report["recorded"].toObject();
            QCOMPARE(rec["rank"].toObject()["from"].toString(), QString("RANK"));
            QCOMPARE(rec["world_size"].toObject()["value"].toInt(), 4);
            QCOMPARE(rec["group"].toObject()["from"].toString(), QString("WG_PREFIX"));
            QCOMPARE(i.report["name_disagrees"].toString(), QString());
            QVERIFY2(i.text.contains("rank 3 (RANK, recorded), world size 4 (WORLD_SIZE, recorded), group aB3dEf "
                                     "(WG_PREFIX, recorded)"),
                     qPrintable(i.text));
            QVERIFY2(i.text.contains("identity aB3dEf r3/4 pid 158702"), qPrintable(i.text));
        }
    }
    // Two of verl's rankless names: the phase table's columns are named by the recorded ranks.
    void phasesNameRanksNotPids()
    {
        QTemporaryDir dir;
        for (const auto &[pid, rank] : {std::pair{"158702", "1"}, std::pair{"158703", "0"}}) {
            const QString path = copyWithRows(dir, QString("worker_process_%1.sqlite").arg(pid),
                                              {{"PROCESS_0:ENVIRONMENT_VARIABLE", QString("RANK=\"%1\"").arg(rank)},
                                               {"PROCESS_0:ENVIRONMENT_VARIABLE", "WORLD_SIZE=\"2\""},
                                               {"PROCESS_0:ENVIRONMENT_VARIABLE", "WG_PREFIX=\"aB3dEf\""}});
            QVERIFY(!path.isEmpty());
        }
        const ps::test::CliRun r = cli({"trace", "phases", "--format", "json", dir.path()});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray columns = QJsonDocument::fromJson(r.out.toUtf8()).object()["columns"].toArray();
        QStringList labels;
        QList<int> ranks;
        for (const QJsonValue &c : columns) {
            labels << c.toObject()["label"].toString();
            ranks << c.toObject()["rank"].toInt(-1);
        }
        labels.sort();
        std::sort(ranks.begin(), ranks.end());
        QCOMPARE(labels, QStringList({"aB3dEf:0", "aB3dEf:1"}));
        QCOMPARE(ranks, QList<int>({0, 1}));
    }
    void theNameDisagreeing()
    {
        QTemporaryDir dir;
        const QString path = copyWithRows(dir, "rlinf_profile_ActorGroup_5_158702.sqlite", kRank3);
        QVERIFY(!path.isEmpty());
        const Info i = info(path);
        QCOMPARE(i.report["rank"].toInt(-1), 3);
        QCOMPARE(i.report["group"].toString(), QString("ActorGroup")); // the name's role is kept
        QCOMPARE(i.report["name_disagrees"].toString(), QString("rank 5 (its name) vs 3 (RANK, recorded)"));
        QVERIFY2(i.text.contains("warning: the name disagrees with the recorded identity (rank 5 (its name) vs 3 "
                                 "(RANK, recorded)): the recorded one is used"),
                 qPrintable(i.text));
        // Every command says it beside its answer, naming the file.
        const ps::test::CliRun phases = ps::test::runCli({"trace", "phases", "--no-cache", path});
        QVERIFY2(phases.err.contains("warning: " + path +
                                     ": its name disagrees with the identity it recorded (rank 5 "
                                     "(its name) vs 3 (RANK, recorded))"),
                 qPrintable(phases.err));
    }
    void aMalformedRowIsLocated()
    {
        QTemporaryDir dir;
        auto rows = kRank3;
        rows.push_back({"PROCESS_0:ENVIRONMENT_VARIABLE", "LOCAL_RANK"});
        const QString path = copyWithRows(dir, "worker_process_158702.sqlite", rows);
        const Info i = info(path);
        QCOMPARE(i.report["rank"].toInt(-1), 3);
        QVERIFY(!i.report["recorded"].toObject().contains("local_rank"));
        const QString expected = "META_DATA_CAPTURE row PROCESS_0:ENVIRONMENT_VARIABLE is \"LOCAL_RANK\", expected "
                                 "NAME=\"value\"; the variable is not used";
        QVERIFY2(i.text.contains(expected), qPrintable(i.text));
        QVERIFY2(i.err.contains(path + ": invalid data: " + expected), qPrintable(i.err)); // names the file
    }
    void aBadRankIsNotUsed()
    {
        QTemporaryDir dir;
        const QString path = copyWithRows(
            dir, "worker_process_158702.sqlite",
            {{"PROCESS_0:ENVIRONMENT_VARIABLE", "RANK=\"4\""}, {"PROCESS_0:ENVIRONMENT_VARIABLE", "WORLD_SIZE=\"4\""}});
        const Info i = info(path);
        QVERIFY(i.report["rank"].isNull());
        QVERIFY2(i.text.contains("META_DATA_CAPTURE PROCESS_0: RANK=\"4\" is not below WORLD_SIZE=\"4\""),
                 qPrintable(i.text));
    }
    void contradictoryRanksInOneReport()
    {
        QTemporaryDir dir;
        auto rows = kRank3;
        rows.push_back({"PROCESS_1:COMMAND", "python3"});
        rows.push_back({"PROCESS_1:ENVIRONMENT_VARIABLE", "RANK=\"2\""});
        const QString path = copyWithRows(dir, "rlinf_profile_ActorGroup_5_158702.sqlite", rows);
        const Info i = info(path);
        QCOMPARE(i.report["rank"].toInt(-1), 5); // neither recorded rank: the name's
        QCOMPARE(i.report["processes"].toArray().size(), 2);
        QVERIFY2(i.text.contains("contradictory ranks in one report: META_DATA_CAPTURE PROCESS_0 says RANK=3, "
                                 "META_DATA_CAPTURE PROCESS_1 says RANK=2"),
                 qPrintable(i.text));
    }
    void severalProcessesThatAgree()
    {
        QTemporaryDir dir;
        auto rows = kRank3;
        rows.push_back({"PROCESS_1:PID", "4242"});
        rows.push_back({"PROCESS_1:ENVIRONMENT_VARIABLE", "RANK=\"3\""});
        rows.push_back({"PROCESS_1:ENVIRONMENT_VARIABLE", "LOCAL_RANK=\"1\""});
        const QString path = copyWithRows(dir, "worker_process_158702.sqlite", rows);
        const Info i = info(path);
        QCOMPARE(i.report["rank"].toInt(-1), 3);
        const QJsonArray ps = i.report["processes"].toArray();
        QCOMPARE(ps.size(), 2);
        QVERIFY(ps[0].toObject()["pid"].isNull()); // nsys records the launched process as PID 0
        QCOMPARE(ps[1].toObject()["pid"].toInt(), 4242);
        QCOMPARE(ps[1].toObject()["identity"].toObject()["local_rank"].toObject()["value"].toInt(), 1);
        QVERIFY2(i.text.contains("process pid 4242 (META_DATA_CAPTURE PROCESS_1): rank 3 (RANK, recorded), local rank "
                                 "1 (LOCAL_RANK, recorded)"),
                 qPrintable(i.text));
    }
    void eachLauncherFamilyInAnExport()
    {
        const std::vector<std::pair<QString, QString>> families = {{"SLURM_PROCID", "SLURM_NTASKS"},
                                                                   {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                                                                   {"PMI_RANK", "PMI_SIZE"}};
        for (const auto &[rank, size] : families) {
            QTemporaryDir dir;
            const QString path = copyWithRows(dir, "worker_process_158702.sqlite",
                                              {{"PROCESS_0:ENVIRONMENT_VARIABLE", rank + "=\"6\""},
                                               {"PROCESS_0:ENVIRONMENT_VARIABLE", size + "=\"8\""}});
            const Info i = info(path);
            QCOMPARE(i.report["rank"].toInt(-1), 6);
            QCOMPARE(i.report["recorded"].toObject()["rank"].toObject()["from"].toString(), rank);
            QCOMPARE(i.report["recorded"].toObject()["world_size"].toObject()["from"].toString(), size);
        }
    }
    void kinetoRankOutOfRangeIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("trace.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": 4294967297, "world_size": 4},
                   "traceEvents": [{"ph": "X", "name": "k", "pid": 1, "tid": 1, "ts": 10, "dur": 5}]})");
        f.close();
        std::string error;
        const tr::ReportPtr r = tr::loadReport(path.toStdString(), {}, error);
        QVERIFY2(r, error.c_str());
        QCOMPARE(r->identity.rank, std::optional<int>()); // 2^32 + 1 once wrapped to rank 1
        QCOMPARE(r->meta.rank, std::optional<int>());
        QString warnings;
        for (const std::string &w : r->meta.warnings)
            warnings += QString::fromStdString(w) + "\n";
        QVERIFY2(warnings.contains("distributedInfo.rank is 4294967297, expected a whole number in [0, 2^31)"),
                 qPrintable(warnings));
    }
    void kinetoRankIsRecorded()
    {
        const QString path = ps::test::testdataDir("traces/kineto/hta__trace_filter__sampled_rank-1.json.gz");
        const Info i = info(path);
        QCOMPARE(i.report["rank"].toInt(-1), 1);
        QCOMPARE(i.report["recorded"].toObject()["rank"].toObject()["from"].toString(),
                 QString("distributedInfo.rank"));
        QCOMPARE(i.report["world_size"].toInt(-1), 128);
    }
};

QTEST_GUILESS_MAIN(TestRecordedIdentity)
#include "tst_recordedidentity.moc"
