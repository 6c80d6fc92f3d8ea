// A process's rank, world size, local and node rank and worker group from the environment its
// launcher gave it (launchidentity.h): each launcher family, the precedence between them, bad
// values refused with where they were recorded, and a report's processes agreeing or not.

#include "core/trace/store/launchidentity.h"

#include <QtTest>

using namespace ps::core::trace;

namespace {

LaunchReading read(std::vector<EnvironmentVariable> env, std::vector<std::string> argv = {})
{
    return launchIdentityOf(env, argv, "x.sqlite: PROCESS_0");
}

Recorded<int> rec(int v, const char *from)
{
    return {v, from};
}

QString joined(const std::vector<std::string> &lines)
{
    QStringList out;
    for (const std::string &l : lines)
        out << QString::fromStdString(l);
    return out.join('\n');
}

} // namespace

class TestLaunchIdentity : public QObject
{
    Q_OBJECT
private slots:
    void torchrun()
    {
        const LaunchReading r = read({{"PATH", "/bin"},
                                      {"RANK", "3"},
                                      {"WORLD_SIZE", "8"},
                                      {"LOCAL_RANK", "1"},
                                      {"GROUP_RANK", "1"},
                                      {"ROLE_NAME", "default"}});
        QVERIFY(r.problems.empty());
        QCOMPARE(r.identity.rank, rec(3, "RANK"));
        QCOMPARE(r.identity.worldSize, rec(8, "WORLD_SIZE"));
        QCOMPARE(r.identity.localRank, rec(1, "LOCAL_RANK"));
        QCOMPARE(r.identity.nodeRank, rec(1, "GROUP_RANK"));
        QVERIFY(!r.identity.group); // torchrun's "default" role names no group
        QCOMPARE(recordedText(r.identity.rank), std::string("3 (RANK, recorded)"));
    }
    void verlWorker()
    {
        const LaunchReading r = read({{"WORLD_SIZE", "4"},
                                      {"RANK", "2"},
                                      {"WG_PREFIX", "aB3dEf"},
                                      {"WG_BACKEND", "ray"},
                                      {"RAY_LOCAL_WORLD_SIZE", "4"},
                                      {"RAY_LOCAL_RANK", "2"},
                                      {"MASTER_ADDR", "10.0.0.1"},
                                      {"MASTER_PORT", "29500"}});
        QVERIFY(r.problems.empty());
        QCOMPARE(r.identity.rank, rec(2, "RANK"));
        QCOMPARE(r.identity.localRank, rec(2, "RAY_LOCAL_RANK"));
        QCOMPARE(r.identity.group, (Recorded<std::string>{"aB3dEf", "WG_PREFIX"}));
    }
    void slurm()
    {
        const LaunchReading r =
            read({{"SLURM_PROCID", "5"}, {"SLURM_NTASKS", "16"}, {"SLURM_LOCALID", "1"}, {"SLURM_NODEID", "2"}});
        QVERIFY(r.problems.empty());
        QCOMPARE(r.identity.rank, rec(5, "SLURM_PROCID"));
        QCOMPARE(r.identity.worldSize, rec(16, "SLURM_NTASKS"));
        QCOMPARE(r.identity.localRank, rec(1, "SLURM_LOCALID"));
        QCOMPARE(r.identity.nodeRank, rec(2, "SLURM_NODEID"));
    }
    void openMpi()
    {
        const LaunchReading r =
            read({{"OMPI_COMM_WORLD_RANK", "7"}, {"OMPI_COMM_WORLD_SIZE", "8"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "3"}});
        QCOMPARE(r.identity.rank, rec(7, "OMPI_COMM_WORLD_RANK"));
        QCOMPARE(r.identity.worldSize, rec(8, "OMPI_COMM_WORLD_SIZE"));
        QCOMPARE(r.identity.localRank, rec(3, "OMPI_COMM_WORLD_LOCAL_RANK"));
    }
    void mpichPmi()
    {
        const LaunchReading r = read({{"PMI_RANK", "1"}, {"PMI_SIZE", "2"}});
        QCOMPARE(r.identity.rank, rec(1, "PMI_RANK"));
        QCOMPARE(r.identity.worldSize, rec(2, "PMI_SIZE"));
    }
    // torchrun under srun: RANK is the NCCL rank, SLURM_PROCID the launcher's; mpirun inside an
    // allocation: OMPI's rank, not the daemon's SLURM_PROCID. A family's world size is never
    // taken from another's.
    void precedence()
    {
        LaunchReading r = read({{"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "2"}, {"SLURM_NODEID", "1"}, {"RANK", "9"}});
        QCOMPARE(r.identity.rank, rec(9, "RANK"));
        QVERIFY(!r.identity.worldSize);
        QCOMPARE(r.identity.nodeRank, rec(1, "SLURM_NODEID")); // the node, whatever launched the task
        r = read({{"SLURM_PROCID", "0"}, {"PMI_RANK", "6"}, {"OMPI_COMM_WORLD_RANK", "5"}});
        QCOMPARE(r.identity.rank, rec(5, "OMPI_COMM_WORLD_RANK"));
        r = read({{"SLURM_PROCID", "0"}, {"PMI_RANK", "6"}});
        QCOMPARE(r.identity.rank, rec(6, "PMI_RANK"));
    }
    void badValuesAreRefusedAndLocated_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("text") << "three";
        QTest::newRow("negative") << "-1";
        QTest::newRow("absurd") << "4294967297";
        QTest::newRow("spaces") << " 3";
        QTest::newRow("empty") << "";
    }
    void badValuesAreRefusedAndLocated()
    {
        QFETCH(QString, value);
        const LaunchReading r = read({{"RANK", value.toStdString()}, {"WORLD_SIZE", "4"}});
        QVERIFY(!r.identity.rank);
        QCOMPARE(r.identity.worldSize, rec(4, "WORLD_SIZE"));
        QCOMPARE(int(r.problems.size()), 1);
        const QString p = QString::fromStdString(r.problems[0]);
        QVERIFY2(p.startsWith("x.sqlite: PROCESS_0: RANK=\"" + value + "\" is not a rank"), qPrintable(p));
    }
    void rankNotBelowWorldSize()
    {
        const LaunchReading r = read({{"RANK", "4"}, {"WORLD_SIZE", "4"}});
        QVERIFY(!r.identity.rank);
        QVERIFY(!r.identity.worldSize);
        QCOMPARE(joined(r.problems), QString("x.sqlite: PROCESS_0: RANK=\"4\" is not below WORLD_SIZE=\"4\"; "
                                             "neither is used"));
    }
    void roleFromTheCommandLine()
    {
        LaunchReading r = read({{"RANK", "0"}}, {"torchrun", "--nproc-per-node=8", "--role", "trainer", "train.py"});
        QCOMPARE(r.identity.group, (Recorded<std::string>{"trainer", "--role"}));
        r = read({{"ROLE_NAME", "critic"}}, {"python", "--role=ignored"});
        QCOMPARE(r.identity.group, (Recorded<std::string>{"critic", "ROLE_NAME"}));
        r = read({}, {"python", "train.py"});
        QVERIFY(r.identity.empty());
    }
    void parseRankNumber()
    {
        QCOMPARE(ps::core::trace::parseRankNumber("0"), std::optional<int>(0));
        QCOMPARE(ps::core::trace::parseRankNumber("2147483647"), std::optional<int>(2147483647));
        QCOMPARE(ps::core::trace::parseRankNumber("2147483648"), std::optional<int>());
        QCOMPARE(ps::core::trace::parseRankNumber("4294967297"), std::optional<int>());
        QCOMPARE(ps::core::trace::parseRankNumber("3.0"), std::optional<int>());
    }
    void processesThatAgreeGiveTheReportsIdentity()
    {
        LaunchIdentity a, b;
        a.rank = rec(3, "RANK");
        a.group = Recorded<std::string>{"g", "WG_PREFIX"};
        b.rank = rec(3, "RANK");
        b.worldSize = rec(4, "WORLD_SIZE");
        const std::vector<ProcessIdentity> ps{{10, "P0", a}, {11, "P1", b}};
        std::vector<std::string> problems;
        const LaunchIdentity r = reportLaunchIdentity(ps, &problems);
        QVERIFY(problems.empty());
        QCOMPARE(r.rank, rec(3, "RANK"));
        QCOMPARE(r.worldSize, rec(4, "WORLD_SIZE"));
        QCOMPARE(r.group->value, std::string("g"));
    }
    void contradictoryRanksAreSaid()
    {
        LaunchIdentity a, b;
        a.rank = rec(3, "RANK");
        b.rank = rec(5, "RANK");
        const std::vector<ProcessIdentity> ps{{10, "PROCESS_0", a}, {11, "PROCESS_1", b}};
        std::vector<std::string> problems;
        const LaunchIdentity r = reportLaunchIdentity(ps, &problems);
        QVERIFY(!r.rank);
        QCOMPARE(joined(problems), QString("contradictory ranks in one report: PROCESS_0 says RANK=3, PROCESS_1 "
                                           "says RANK=5; the report's rank is not taken from them"));
    }
};

QTEST_APPLESS_MAIN(TestLaunchIdentity)
#include "tst_launchidentity.moc"
