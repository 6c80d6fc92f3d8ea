// Report identity from RLinf, verl/Ray and plain nsys names, and grouping into
// run -> group -> rank -> capture range.

#include "core/trace/read/identity.h"

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
        QTest::newRow("rlinf output_dir") << "/opt/RLinf/logs/exp3/profiling/rlinf_profile_ActorGroup_0_7.nsys-rep"
                                          << "exp3"
                                          << "ActorGroup" << 0 << -1 << 7;
        QTest::newRow("verl ray layout") << "/tmp/ray/session_2025-01-01_10-00-00_1234/logs/nsight/"
                                            "worker_process_31337.2.sqlite"
                                         << "session_2025-01-01_10-00-00_1234"
                                         << "worker_process" << -1 << 2 << 31337;
        QTest::newRow("verl no rid") << "/x/worker_process_8.nsys-rep"
                                     << "x"
                                     << "worker_process" << -1 << -1 << 8;
        // -o with %q{RANK} as validate's fix writes it (core/profiling/nsysoutput.h).
        QTest::newRow("verl rank variable") << "/tmp/ray/session_1/logs/nsight/worker_process_rank3_4242.nsys-rep"
                                            << "session_1"
                                            << "worker_process" << 3 << -1 << 4242;
        QTest::newRow("verl rank variable, range id") << "/x/worker_process_rank12_77.2.nsys-rep"
                                                      << "x"
                                                      << "worker_process" << 12 << 2 << 77;
        QTest::newRow("rank variable without pid") << "/runs/a/report_rank5.sqlite"
                                                   << "a"
                                                   << "report" << 5 << -1 << -1;
        QTest::newRow("folder per rank") << "/runs/b/rank2/worker_process_9.nsys-rep"
                                         << "b"
                                         << "worker_process" << 2 << -1 << 9;
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

    // verl >= 0.9 names, as verl-project/verl 1dda039b writes them: relocated nsys reports
    // (verl/utils/profiler/nvtx_profile.py, relocate: "<save_file_prefix>_<gethostname()>_" +
    // Ray's basename) and torch traces (torch_profile.py build_trace_basename + _trace_handler,
    // labels through _sanitize_name_part "[^0-9A-Za-z.=+-]+" -> "-").
    void verlNames_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("scope");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("rank"); // -1 = unknown
        QTest::addColumn<int>("worldSize");
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("pid");
        QTest::addColumn<QString>("label");
        auto row = [](const char *tag) { return &QTest::newRow(tag); };
        *row("relocated nsys with role") << "/ckpt/prof/actor_rollout_ref_gpu-node-3_worker_process_4242.nsys-rep"
                                         << "actor_rollout_ref"
                                         << ""
                                         << "gpu-node-3" << -1 << -1 << -1 << 4242 << "actor_rollout_ref pid 4242";
        *row("relocated nsys export, range id") << "/ckpt/prof/critic_node7_worker_process_99.3.sqlite"
                                                << "critic"
                                                << ""
                                                << "node7" << -1 << -1 << 3 << 99 << "critic step 3 pid 99";
        *row("relocated nsys without role") << "/ckpt/prof/host.example.com_worker_process_5.nsys-rep"
                                            << "worker_process"
                                            << ""
                                            << "host.example.com" << -1 << -1 << -1 << 5 << "worker_process pid 5";
        *row("torch full") << "/p/actor-rollout-ref_train_step3_rank5-of-8_tp1-pp0-dp2-cp0_pid31337_"
                              "20260801100000123.json.gz"
                           << "actor-rollout-ref"
                           << "train"
                           << "" << 5 << 8 << 3 << 31337 << "actor-rollout-ref train r5/8 step 3 pid 31337";
        *row("torch discrete stage, mini-batch window")
            << "/p/actor_actor-update_step2_rank0-of-4_pid7_20260801100000123_mb0-3.json.gz"
            << "actor"
            << "actor-update"
            << "" << 0 << 4 << 2 << 7 << "actor actor-update r0/4 step 2 mb0-3 pid 7";
        *row("torch part, no world size") << "/p/value-model_e2e_rank1_pid12_20260801100000123_part1.json.gz"
                                          << "value-model"
                                          << "e2e"
                                          << "" << 1 << -1 << -1 << 12 << "value-model e2e r1 part1 pid 12";
        *row("torch scope only") << "/p/train_step1_rank2-of-2_pid3_20260801100000123.json.gz"
                                 << ""
                                 << "train"
                                 << "" << 2 << 2 << 1 << 3 << "train r2/2 step 1 pid 3";
        *row("torch role only") << "/p/language-model_rank0_pid3_20260801100000123.json.gz"
                                << "language-model"
                                << ""
                                << "" << 0 << -1 << -1 << 3 << "language-model r0 pid 3";
        *row("torch bare") << "/p/rank0_pid3_20260801100000123.json.gz"
                           << ""
                           << ""
                           << "" << 0 << -1 << -1 << 3 << "r0 pid 3";
        *row("torch partial parallel dims") << "/p/ref_e2e_rank3-of-4_tp1-dp1_pid8_20260801100000123.json.gz"
                                            << "ref"
                                            << "e2e"
                                            << "" << 3 << 4 << -1 << 8 << "ref e2e r3/4 pid 8";
    }
    void verlNames()
    {
        QFETCH(QString, path);
        QFETCH(QString, group);
        QFETCH(QString, scope);
        QFETCH(QString, host);
        QFETCH(int, rank);
        QFETCH(int, worldSize);
        QFETCH(int, step);
        QFETCH(int, pid);
        QFETCH(QString, label);
        ReportIdentity id = identityFromPath(path.toStdString());
        completeIdentity(id, ReportMeta{});
        QCOMPARE(QString::fromStdString(id.group), group);
        QCOMPARE(QString::fromStdString(id.scope), scope);
        QCOMPARE(QString::fromStdString(id.host), host);
        QCOMPARE(id.rank.value_or(-1), rank);
        QCOMPARE(id.worldSize.value_or(-1), worldSize);
        QCOMPARE(id.step.value_or(-1), step);
        QCOMPARE(id.pid ? int(*id.pid) : -1, pid);
        QCOMPARE(QString::fromStdString(id.label), label);
    }

    // Near misses of the torch grammar: no rank/pid/stamp identity may be read from them.
    void notVerlTorchNames_data()
    {
        QTest::addColumn<QString>("path");
        for (const char *p : {
                 "/p/actor_train_rank0_pid3_2026080110000012.json.gz",          // 16-digit stamp
                 "/p/actor_train_rank0_pid3_202608011000001234.json.gz",        // 18-digit stamp
                 "/p/actor_train_rank0_3_20260801100000123.json.gz",            // "pid" missing
                 "/p/actor_train_rankX_pid3_20260801100000123.json.gz",         // rank not a number
                 "/p/a_b_c_rank0_pid3_20260801100000123.json.gz",               // three labels
                 "/p/actor_train_rank0-of-_pid3_20260801100000123.json.gz",     // empty world size
                 "/p/actor_train_rank0_tp1-xx2_pid3_20260801100000123.json.gz", // unknown dim
                 "/p/actor_train_rank0_pid3_20260801100000123_part.json.gz",    // part without index
                 "/p/actor_train_rank0_pid3_20260801100000123_mb1-.json.gz",    // open mb window
                 "/p/actor rollout_rank0_pid3_20260801100000123.json.gz",       // unsanitised label
                 "/p/prof_rank-0.json.gz",                                      // verl <= 0.7 name
             })
            QTest::newRow(p) << p;
    }
    void notVerlTorchNames()
    {
        QFETCH(QString, path);
        const ReportIdentity id = identityFromPath(path.toStdString());
        QVERIFY(!id.rank);
        QVERIFY(!id.pid);
        QVERIFY(id.scope.empty());
        QVERIFY(!id.worldSize);
    }

    void notRelocatedNsysNames_data()
    {
        QTest::addColumn<QString>("path");
        for (const char *p : {
                 "/p/actor_host_worker_process_.nsys-rep",    // no pid
                 "/p/actor_host_worker_process_12x.nsys-rep", // pid not a number
                 "/p/actor_host_worker_proc_12.nsys-rep",     // not Ray's basename
                 "/p/_worker_process_12.nsys-rep",            // empty host
             })
            QTest::newRow(p) << p;
    }
    void notRelocatedNsysNames()
    {
        QFETCH(QString, path);
        const ReportIdentity id = identityFromPath(path.toStdString());
        QVERIFY(!id.pid);
        QVERIFY(id.host.empty());
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
