// The demo run synchronizes as training does: its NCCL kernels end when the last rank arrives,
// so the planted straggler shows as the others' wait. `trace collectives` and `trace phases`
// name it by its arrival, and every rank's update phase lasts about as long as the slowest's.
#include "core/demo/demorun.h"
#include "tests/support/clirun.h"
#include "tests/support/demorun.h"
#include "tests/support/sqlref.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>

class TestDemoSync : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    ps::core::demo::DemoResult m_demo;
    QString m_runDir;

    QJsonObject runJson(const QStringList &args)
    {
        const ps::test::CliRun r = ps::test::runCli(args, QProcessEnvironment::systemEnvironment());
        if (r.exitCode != 0)
            qWarning("%s", qPrintable(r.err));
        return QJsonDocument::fromJson(r.out.toUtf8()).object();
    }

    // Per run_training range of the straggler (one per step, in order): the wait it caused the
    // others in the collectives it started there. The k-th NCCL kernel of its export is instance k
    // of `trace collectives` (one NCCL stream, matched by order); each other member waited from
    // its own arrival to the straggler's, within its kernel.
    std::vector<double> waitCausedPerUpdate()
    {
        const auto report = std::find_if(m_demo.reports.begin(), m_demo.reports.end(),
                                         [&](const auto &r) { return r.rank == m_demo.stragglerRank; });
        if (report == m_demo.reports.end())
            return {};
        const ps::test::SqlRef db(report->path);
        const std::vector<std::vector<int64_t>> updates =
            db.ints("SELECT start, end FROM NVTX_EVENTS WHERE text = 'run_training' ORDER BY start");
        const std::vector<std::vector<int64_t>> kernels =
            db.ints("SELECT k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
                    "WHERE s.value LIKE 'nccl%' ORDER BY k.start");
        const QJsonArray instances =
            runJson({"trace", "collectives", "--no-cache", "--format", "json", m_runDir})["collectives"].toArray();
        if (qsizetype(kernels.size()) != instances.size())
            return {};
        std::vector<double> caused(updates.size(), 0.0);
        for (const QJsonValue &v : instances) {
            const QJsonObject i = v.toObject();
            const int64_t start = kernels.at(size_t(i["index"].toInt())).at(0);
            const auto in = std::find_if(updates.begin(), updates.end(),
                                         [&](const auto &u) { return u[0] <= start && start <= u[1]; });
            if (in == updates.end())
                continue;
            const QJsonArray members = i["members"].toArray();
            double lastArrival = 0;
            for (const QJsonValue &m : members)
                if (m["rank"].toInt() == i["last_rank"].toInt(-1))
                    lastArrival = m["start_ns"].toDouble();
            for (const QJsonValue &m : members)
                if (m["rank"].toInt() != i["last_rank"].toInt(-1))
                    caused[size_t(in - updates.begin())] += std::clamp(
                        lastArrival - m["start_ns"].toDouble(), 0.0, m["end_ns"].toDouble() - m["start_ns"].toDouble());
        }
        return caused;
    }

private slots:
    void initTestCase()
    {
        m_demo = writeTestDemo(m_dir.filePath("run"), 4, 2, 11);
        QVERIFY(m_demo.stragglerRank >= 0 && m_demo.stragglerRank < 4);
        m_runDir = QString::fromStdString(m_demo.reportDir);
    }

    // Every complete collective: the straggler arrived last, the others waited inside their
    // kernels, and all members end together (NCCL releases them at once).
    void collectivesNameTheStragglerByArrival()
    {
        const QJsonObject o = runJson({"trace", "collectives", "--no-cache", "--format", "json", m_runDir});
        const QJsonArray instances = o["collectives"].toArray();
        QVERIFY(instances.size() > 10);
        int complete = 0;
        for (const QJsonValue &v : instances) {
            const QJsonObject i = v.toObject();
            if (!i["complete"].toBool())
                continue;
            ++complete;
            QCOMPARE(i["last_rank"].toInt(), m_demo.stragglerRank);
            QVERIFY(i["skew_ns"].toDouble() > 0);
            const QJsonArray members = i["members"].toArray();
            QCOMPARE(members.size(), 4);
            for (const QJsonValue &m : members) {
                const QJsonObject mo = m.toObject();
                const bool late = mo["rank"].toInt() == m_demo.stragglerRank;
                QVERIFY(late ? mo["wait_ns"].toDouble() == 0 : mo["wait_ns"].toDouble() > 0);
            }
        }
        QCOMPARE(complete, instances.size());
        for (const QJsonValue &v : o["phases"].toArray())
            QCOMPARE(v.toObject()["straggler"].toInt(-1), m_demo.stragglerRank);
        for (const QJsonValue &v : o["ranks"].toArray()) {
            const QJsonObject r = v.toObject();
            const bool late = r["rank"].toInt() == m_demo.stragglerRank;
            QCOMPARE(r["arrived_last"].toInt() == r["collectives"].toInt(), late);
        }
    }

    // The phase table names the straggler by arrival in the phases with collectives, with the
    // wait it caused each other rank as its lag: worked out here from the members' arrivals and
    // the straggler's own export (which of its NCCL kernels ran in which run_training range); the
    // update phase lasts within 3 % of the slowest on every rank.
    void phasesNameTheStragglerAndLastAlike()
    {
        const std::vector<double> caused = waitCausedPerUpdate();
        QCOMPARE(caused.size(), size_t(2));
        const QJsonObject o = runJson({"trace", "phases", "--no-cache", "--format", "json", m_runDir});
        const QJsonArray columns = o["columns"].toArray();
        const QString straggler = "ActorGroup:" + QString::number(m_demo.stragglerRank);
        size_t updates = 0;
        for (const QJsonValue &v : o["rows"].toArray()) {
            const QJsonObject row = v.toObject();
            QCOMPARE(columns[row["straggler"].toInt(-1)].toObject()["label"].toString(), straggler);
            QVERIFY(row["lag_ns"].toDouble() > 0);
            if (row["phase"].toString() != "update_actor")
                continue;
            QCOMPARE(row["straggler_by"].toString(), QStringLiteral("arrival"));
            const double others = double(columns.size() - 1);
            QVERIFY(updates < caused.size() && caused[updates] > 0);
            QVERIFY2(std::abs(row["lag_ns"].toDouble() - caused[updates] / others) <= 1000.0,
                     qPrintable(QString::number(caused[updates])));
            ++updates;
            QVERIFY(row["lag_pct"].toDouble() < 100.0);
            const double slowest = row["max_wall_ns"].toDouble();
            for (const QJsonValue &c : row["cells"].toArray())
                QVERIFY2(c.toObject()["wall_ns"].toDouble() >= 0.97 * slowest,
                         qPrintable(QJsonDocument(c.toObject()).toJson()));
        }
        QCOMPARE(updates, size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestDemoSync)
#include "tst_demosync.moc"
