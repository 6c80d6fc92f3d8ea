// Report identity from RLinf, verl/Ray and plain nsys names, and grouping into
// run -> group -> rank -> capture range.

#include "core/trace/identity.h"

#include <QtTest>

using namespace ps::core::trace;

Q_DECLARE_METATYPE(std::optional<int>)

class TestIdentity : public QObject
{
    Q_OBJECT
private slots:
    void fromPath_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("run");
        QTest::addColumn<QString>("group");
        QTest::addColumn<int>("rank"); // -1 = unknown
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("pid");
        QTest::newRow("rlinf") << "/runs/exp1/rlinf_profile_ActorGroup_3_4242.sqlite"
                               << "exp1"
                               << "ActorGroup" << 3 << -1 << 4242;
        QTest::newRow("rlinf group with underscore") << "/runs/exp1/rlinf_profile_Rollout_Group_12_99.sqlite"
                                                     << "exp1"
                                                     << "Rollout_Group" << 12 << -1 << 99;
        QTest::newRow("rlinf capture range suffix") << "/runs/exp1/rlinf_profile_ActorGroup_0_77.2.sqlite"
                                                    << "exp1"
                                                    << "ActorGroup" << 0 << 2 << 77;
        QTest::newRow("rlinf in step folder") << "/runs/exp2/step_5/rlinf_profile_ActorGroup_1_500.sqlite"
                                              << "exp2"
                                              << "ActorGroup" << 1 << 5 << 500;
        QTest::newRow("verl ray layout") << "/tmp/ray/session_2025-01-01_10-00-00_1234/logs/nsight/"
                                            "worker_process_31337.2.sqlite"
                                         << "session_2025-01-01_10-00-00_1234"
                                         << "worker_process" << -1 << 2 << 31337;
        QTest::newRow("verl no rid") << "/x/worker_process_8.nsys-rep"
                                     << "x"
                                     << "worker_process" << -1 << -1 << 8;
        QTest::newRow("plain nsys") << "/data/run7/report3.sqlite"
                                    << "run7"
                                    << "" << -1 << 3 << -1;
        QTest::newRow("global_step folder") << "/d/global_step_12/report1.sqlite"
                                            << "d"
                                            << "" << -1 << 1 << -1;
        QTest::newRow("unknown") << "/d/e/whatever.sqlite"
                                 << "e"
                                 << "" << -1 << -1 << -1;
        QTest::newRow("relative bare") << "x.sqlite"
                                       << ""
                                       << "" << -1 << -1 << -1;
    }
    void fromPath()
    {
        QFETCH(QString, path);
        QFETCH(QString, run);
        QFETCH(QString, group);
        QFETCH(int, rank);
        QFETCH(int, step);
        QFETCH(int, pid);
        const ReportIdentity id = identityFromPath(path.toStdString());
        QCOMPARE(QString::fromStdString(id.run), run);
        QCOMPARE(QString::fromStdString(id.group), group);
        QCOMPARE(id.rank.value_or(-1), rank);
        QCOMPARE(id.step.value_or(-1), step);
        QCOMPARE(id.pid ? int(*id.pid) : -1, pid);
    }

    void completesFromData()
    {
        ReportIdentity id = identityFromPath("/r/report1.sqlite");
        ReportMeta m;
        m.pids = {123};
        m.host = "node7";
        completeIdentity(id, m);
        QCOMPARE(id.pid, std::optional<uint32_t>(123));
        QCOMPARE(QString::fromStdString(id.host), QString("node7"));
        QVERIFY(!id.label.empty());
    }

    void grouping()
    {
        std::vector<ReportPtr> reports;
        for (const char *p :
             {"/a/run1/rlinf_profile_ActorGroup_1_11.2.sqlite", "/a/run1/rlinf_profile_ActorGroup_1_11.1.sqlite",
              "/a/run1/rlinf_profile_ActorGroup_0_10.sqlite", "/a/run1/rlinf_profile_RolloutGroup_0_20.sqlite",
              "/a/run1/misc.sqlite", "/a/run2/report1.sqlite"}) {
            auto r = std::make_shared<Report>();
            r->path = p;
            r->identity = identityFromPath(p);
            reports.push_back(r);
        }
        const auto runs = groupReports(reports);
        QCOMPARE(runs.size(), size_t(2));
        QCOMPARE(QString::fromStdString(runs[0].run), QString("run1"));
        // run1: "", ActorGroup, RolloutGroup
        QCOMPARE(runs[0].groups.size(), size_t(3));
        const GroupNode &actor = runs[0].groups[1];
        QCOMPARE(QString::fromStdString(actor.group), QString("ActorGroup"));
        QCOMPARE(actor.ranks.size(), size_t(2));
        QCOMPARE(actor.ranks[0].rank, std::optional<int>(0));
        QCOMPARE(actor.ranks[1].rank, std::optional<int>(1));
        // Capture ranges of rank 1 in step order.
        QCOMPARE(actor.ranks[1].reports, (std::vector<size_t>{1, 0}));
    }
};

QTEST_GUILESS_MAIN(TestIdentity)
#include "tst_identity.moc"
