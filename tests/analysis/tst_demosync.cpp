// The demo run synchronizes as training does: its NCCL kernels end when the last rank arrives,
// so the planted straggler shows as the others' wait. `trace collectives` and `trace phases`
// name it by its arrival, and every rank's update phase lasts about as long as the slowest's.
#include "core/demo/demorun.h"
#include "tests/support/clirun.h"
#include "tests/support/demorun.h"

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
            QCOMPARE(v.toObject()["straggler"].toInt(), m_demo.stragglerRank);
        for (const QJsonValue &v : o["ranks"].toArray()) {
            const QJsonObject r = v.toObject();
            const bool late = r["rank"].toInt() == m_demo.stragglerRank;
            QCOMPARE(r["arrived_last"].toInt() == r["collectives"].toInt(), late);
        }
    }

    // The phase table names the straggler by arrival in the phases with collectives, with the
    // wait it caused each other rank as its lag (trace collectives' total over the others); the
    // update phase lasts within 3 % of the slowest on every rank.
    void phasesNameTheStragglerAndLastAlike()
    {
        std::map<std::pair<int, QString>, double> causedTotal; // (step, phase) -> wait caused
        for (const QJsonValue &v :
             runJson({"trace", "collectives", "--no-cache", "--format", "json", m_runDir})["phases"].toArray())
            causedTotal[{v["step"].toInt(), v["phase"].toString()}] = v["lag_ns"].toDouble();
        const QJsonObject o = runJson({"trace", "phases", "--no-cache", "--format", "json", m_runDir});
        const QJsonArray columns = o["columns"].toArray();
        const QString straggler = "ActorGroup:" + QString::number(m_demo.stragglerRank);
        int updates = 0;
        for (const QJsonValue &v : o["rows"].toArray()) {
            const QJsonObject row = v.toObject();
            QCOMPARE(columns[row["straggler"].toInt()].toObject()["label"].toString(), straggler);
            QVERIFY(row["lag_ns"].toDouble() > 0);
            if (row["phase"].toString() != "update_actor")
                continue;
            ++updates;
            QCOMPARE(row["straggler_by"].toString(), QStringLiteral("arrival"));
            const double others = double(columns.size() - 1);
            const double caused = causedTotal.at({row["step"].toInt(), row["phase"].toString()});
            QVERIFY2(std::abs(row["lag_ns"].toDouble() - caused / others) <= 1.0, qPrintable(QString::number(caused)));
            QVERIFY(row["lag_pct"].toDouble() < 100.0);
            const double slowest = row["max_wall_ns"].toDouble();
            for (const QJsonValue &c : row["cells"].toArray())
                QVERIFY2(c.toObject()["wall_ns"].toDouble() >= 0.97 * slowest,
                         qPrintable(QJsonDocument(c.toObject()).toJson()));
        }
        QCOMPARE(updates, 2);
    }
};

QTEST_GUILESS_MAIN(TestDemoSync)
#include "tst_demosync.moc"
