// A real multi-rank capture: 8 CPU ranks (cpurank.py), each under its own `nsys profile`, meet
// at a barrier at every update_actor micro-batch as a gradient all-reduce holds them; rank 5
// does 4x the work of the others. Exported to SQLite and opened by profstudio-cli:
//   - every report is where RLinf's `-o <dir>/rlinf_profile_<Group>_<rank>_%p` puts it (%p = the
//     profiled process's PID); nsys 2022.4 records no environment (2023.4+ does), so the rank
//     comes from the file name, as RLinf names its reports;
//   - `trace align` aligns them by UTC: the ranks leave the last barrier together, and the
//     aligned ends of their update_actor ranges agree;
//   - `trace phases` names rank 5 the straggler of every update_actor, by work time: wall time
//     minus the time blocked in recv() on the barrier (core/analysis/phases/osrtwait.h). By wall time
//     alone every rank is as long as the late one.
// Ranks start one after another (the next once the previous one runs): nsys 2022.4 instances
// started in the same instant fail in sem_open.

#include "realnsys.h"
#include "tests/support/clirun.h"
#include "tests/support/sqlref.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <memory>
#include <thread>

namespace {

constexpr int kRanks = 8;
constexpr int kLate = 5;
constexpr int kSteps = 2;

QString readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QString();
}

bool waitForFile(const QString &path, int seconds)
{
    for (int i = 0; i < seconds * 10; ++i) {
        if (!readAll(path).isEmpty())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

QJsonObject cliJson(const QStringList &args)
{
    const ps::test::CliRun r = ps::test::runCli(args);
    if (r.exitCode != 0)
        qWarning("%s", qPrintable(r.err));
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

} // namespace

class TestRealNsysRanks : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_socket;
    std::vector<QString> m_reports; // per rank, the path nsys wrote

    // One rank under nsys: the argv RLinf's launch plan gives, with cpurank.py for the worker.
    std::unique_ptr<QProcess> startRank(int rank)
    {
        auto p = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PS_NVTX_LIB", realnsys::nvtxLibrary());
        p->setProcessEnvironment(env);
        p->setProcessChannelMode(QProcess::MergedChannels);
        const QString out = m_dir.filePath(QString("rlinf_profile_ActorGroup_%1_%p").arg(rank));
        const QString work = rank == kLate ? "40" : "10";
        p->start(realnsys::nsys(), QStringList{"profile"} + realnsys::cpuProfileOptions() +
                                       QStringList{"-o", out, "python3", realnsys::scriptPath("cpurank.py"), "rank",
                                                   m_socket, QString::number(rank), QString::number(kSteps), work,
                                                   m_dir.filePath(QString("pid%1").arg(rank))});
        return p;
    }

private slots:
    void initTestCase()
    {
        REALNSYS_REQUIRE();
        QVERIFY(m_dir.isValid());
        m_socket = m_dir.filePath("barrier.sock");
        QProcess barrier;
        barrier.start("python3", {realnsys::scriptPath("cpurank.py"), "barrier", m_socket, QString::number(kRanks)});
        std::vector<std::unique_ptr<QProcess>> ranks;
        for (int r = 0; r < kRanks; ++r) {
            ranks.push_back(startRank(r));
            QVERIFY2(waitForFile(m_dir.filePath(QString("pid%1").arg(r)), 60), qPrintable(ranks.back()->readAll()));
        }
        for (int r = 0; r < kRanks; ++r) {
            QVERIFY(ranks[r]->waitForFinished(180000));
            const QString said = QString::fromUtf8(ranks[r]->readAll());
            QVERIFY2(ranks[r]->exitCode() == 0, qPrintable(said));
            // Exactly where -o says, %p replaced by the profiled python's PID.
            const QString pid = readAll(m_dir.filePath(QString("pid%1").arg(r)));
            m_reports.push_back(m_dir.filePath(QString("rlinf_profile_ActorGroup_%1_%2.nsys-rep").arg(r).arg(pid)));
            QVERIFY2(QFileInfo::exists(m_reports.back()), qPrintable(said));
        }
        QVERIFY(barrier.waitForFinished(30000));
        for (const QString &rep : m_reports) {
            QString said;
            QVERIFY2(realnsys::exportSqlite(rep, &said), qPrintable(said));
        }
    }

    void alignedByUtc()
    {
        const QJsonObject align = cliJson({"trace", "align", "--no-cache", "--format", "json", m_dir.path()});
        QCOMPARE(align["used"].toString(), QString("utc"));
        const QJsonArray reports = align["reports"].toArray();
        QCOMPARE(reports.size(), kRanks);
        // Every rank leaves the last barrier at once: the last update_actor ends together.
        std::vector<qint64> ends;
        for (const QJsonValue &v : reports) {
            ps::test::SqlRef db(v["path"].toString());
            QVERIFY(db.ok());
            const qint64 end =
                db.value("SELECT max(e.end) FROM NVTX_EVENTS e WHERE e.text = 'update_actor'").toLongLong();
            ends.push_back(end + qint64(v["offset_ns"].toDouble()));
        }
        const auto [lo, hi] = std::minmax_element(ends.begin(), ends.end());
        QVERIFY2(*hi - *lo < 200'000'000, qPrintable(QString("aligned ends spread %1 ns").arg(*hi - *lo)));
    }

    void lateRankIsTheStraggler()
    {
        const QJsonObject table = cliJson({"trace", "phases", "--no-cache", "--format", "json", m_dir.path()});
        const QJsonArray columns = table["columns"].toArray();
        QCOMPARE(columns.size(), kRanks);
        int updates = 0;
        for (const QJsonValue &row : table["rows"].toArray()) {
            if (row["phase"].toString() != "update_actor")
                continue;
            ++updates;
            const int straggler = row["straggler"].toInt(-1);
            QVERIFY2(straggler >= 0, qPrintable(QJsonDocument(row.toObject()).toJson()));
            QCOMPARE(columns[straggler]["rank"].toInt(), kLate);
            QCOMPARE(row["straggler_by"].toString(), QString("work"));
        }
        QCOMPARE(updates, kSteps);
    }
};

QTEST_GUILESS_MAIN(TestRealNsysRanks)
#include "tst_realnsysranks.moc"
