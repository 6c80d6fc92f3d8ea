// The worked examples R1-R4 and V1-V3 of ../shared/spec/profiling-config.md ("Launch command
// forms"), character for character, composed from the real RLinf and verl trees with the
// stated overrides.
#include "core/config/configerror.h"
#include "core/profiling/analysis.h"
#include "profilingtestutil.h"

#include <QtTest>

using namespace ps::core::profiling;

namespace {

using namespace pstest::spec;

std::shared_ptr<const AnalysisResult> run(pstest::Case c)
{
    try {
        return pstest::analyzeCase(c);
    } catch (const ps::core::config::ConfigError &e) {
        qWarning("compose failed: %s", e.format().c_str());
        return nullptr;
    }
}

QString errorsOf(const AnalysisResult &r)
{
    QStringList l;
    for (const auto &d : r.diagnostics)
        if (d.severity != Severity::Info)
            l << QString::fromStdString(d.format());
    return l.join('\n');
}

} // namespace

class TestProfilingExamples : public QObject
{
    Q_OBJECT
private slots:
    // R1: the preset (no steps), through the with-profile tree and through the group override.
    void r1_data()
    {
        QTest::addColumn<QString>("tree");
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("preset in defaults") << "rlinf-with-profile" << QStringList();
        QTest::newRow("+profile@cluster.profiling=default")
            << "rlinf" << QStringList{"+profile@cluster.profiling=default"};
    }
    void r1()
    {
        QFETCH(QString, tree);
        QFETCH(QStringList, extra);
        std::vector<std::string> overrides;
        for (const auto &e : extra)
            overrides.push_back(e.toStdString());
        overrides.push_back("runner.logger.log_path=" + kLogPath);
        auto r = run(pstest::rlinfCase(tree.toStdString(), "maniskill_ppo_mlp", overrides));
        QVERIFY(r);
        QCOMPARE(r->model.framework, Framework::RLinf);
        QCOMPARE(r->launch.backend, std::string("nsight"));
        QVERIFY2(errorsOf(*r).isEmpty(), qPrintable(errorsOf(*r)));
        QCOMPARE(r->model.rlinf.outputDir, kOutDir);
        // The driver line of run_embodiment.sh (the override is the only one of R1 itself).
        std::string driver = "python /opt/RLinf/examples/embodiment/train_embodied_agent.py --config-path "
                             "/opt/RLinf/examples/embodiment/config/ --config-name maniskill_ppo_mlp ";
        for (const auto &e : extra)
            driver += e.toStdString() + " ";
        QCOMPARE(r->launch.driverCommand, driver + "runner.logger.log_path=" + kLogPath);
        for (const char *group : {"ActorGroup", "RolloutGroup", "EnvGroup"}) {
            const std::string name = std::string(group) + ":0";
            const WorkerLaunch *w = worker(r->launch, name);
            QVERIFY2(w, name.c_str());
            QVERIFY(w->wrapped);
            QCOMPARE(w->command, "nsys profile " + kPreset + " -o " + kOutDir + "/rlinf_profile_" + group +
                                     "_0_%p /usr/bin/python3");
            QCOMPARE(w->outputs, std::vector<std::string>{kOutDir + "/rlinf_profile_" + group + "_0_<PID>.nsys-rep"});
            QCOMPARE(w->node, 0LL);
            QCOMPARE(w->captureRanges.size(), size_t(1)); // whole process, NVTX in every step window
        }
        for (const char *channel : {"Env:0", "Rollout:0", "Actor:0"}) {
            const WorkerLaunch *w = worker(r->launch, channel);
            QVERIFY2(w, channel);
            QVERIFY(!w->wrapped);
            QVERIFY(w->argv.empty());
            QVERIFY(!w->reason.empty());
        }
        QCOMPARE(r->launch.workers.size(), size_t(6));
    }

    void r2()
    {
        auto r = run(pstest::rlinfCase("rlinf-with-profile", "maniskill_ppo_mlp",
                                       {"runner.logger.log_path=" + kLogPath, "+cluster.profiling.steps=[3]"}));
        QVERIFY(r);
        QVERIFY2(errorsOf(*r).isEmpty(), qPrintable(errorsOf(*r)));
        const WorkerLaunch *w = worker(r->launch, "ActorGroup:0");
        QVERIFY(w && w->wrapped);
        QCOMPARE(w->command, kR2);
        QCOMPARE(w->captureRanges.size(), size_t(1));
        QCOMPARE(w->captureRanges[0].steps, std::vector<long long>{3});
    }

    void r3()
    {
        auto r = run(pstest::rlinfCase(
            "rlinf-with-profile", "maniskill_ppo_mlp",
            {"~cluster.component_placement", "+cluster.component_placement={env: 0, rollout: '0-1', actor: 0}",
             "cluster.profiling.worker_groups=[RolloutGroup]", "+cluster.profiling.steps=[5]",
             "cluster.profiling.flags=[python-backtrace]", "~cluster.profiling.options",
             "+cluster.profiling.options={t: 'cuda,nvtx', stop-on-range-end: true, capture-range: nvtx}",
             "+cluster.profiling.output_dir=/runs/x/profiling"}));
        QVERIFY(r);
        const OptionList expected = {{"t", "cuda,nvtx"}, {"capture-range", "nvtx"}, {"capture-range-end", "stop"}};
        QCOMPARE(r->model.rlinf.options, expected);
        const WorkerLaunch *w = worker(r->launch, "RolloutGroup:1");
        QVERIFY(w && w->wrapped);
        QCOMPARE(w->command, kR3);
        QVERIFY(!worker(r->launch, "ActorGroup:0")->wrapped);
        // capture-range nvtx is risky (spec rule RLinf 8); nothing else is.
        QStringList rules;
        for (const auto &d : r->diagnostics)
            rules << QString::fromStdString(d.rule);
        QCOMPARE(rules, QStringList{"rlinf.capture-range-nvtx"});
    }

    void r4()
    {
        auto r = run(pstest::rlinfCase(
            "rlinf-with-profile", "maniskill_ppo_mlp",
            {"cluster.profiling.backend=rocprof_sys", "~cluster.profiling.options", "~cluster.profiling.flags",
             "cluster.profiling.worker_groups=[ActorGroup]", "+cluster.profiling.args={T: hip, output-format: json}",
             "+cluster.profiling.env={ROCPROFSYS_SAMPLING_FREQ: 100}", "+cluster.profiling.output_dir=/abs/out"}));
        QVERIFY(r);
        QVERIFY2(errorsOf(*r).isEmpty(), qPrintable(errorsOf(*r)));
        const WorkerLaunch *w = worker(r->launch, "ActorGroup:0");
        QVERIFY(w && w->wrapped);
        QCOMPARE(w->command, std::string("rocprof-sys-python -T hip --output-format=json -- /usr/bin/python3"));
        std::string env;
        for (const auto &[k, v] : w->env)
            env += (env.empty() ? "" : " ") + k + "=" + v;
        QCOMPARE(env,
                 std::string("ROCPROFSYS_TIME_OUTPUT=false ROCPROFSYS_OUTPUT_PATH=/abs/out "
                             "ROCPROFSYS_OUTPUT_PREFIX=rlinf_profile_ActorGroup_0_%p ROCPROFSYS_SAMPLING_FREQ=100"));
    }

    void v1_data()
    {
        QTest::addColumn<bool>("continuous");
        QTest::addColumn<int>("ranges");
        QTest::newRow("continuous") << true << 2;
        QTest::newRow("not continuous") << false << 3;
    }
    void v1()
    {
        QFETCH(bool, continuous);
        QFETCH(int, ranges);
        auto overrides = kV1Overrides;
        if (!continuous)
            overrides[2] = "global_profiler.profile_continuous_steps=False";
        auto c = pstest::verlCase("verl/verl/trainer/config", "ppo_trainer", overrides);
        c.launch.raySessionDir = "/tmp/ray/session_<id>"; // the spec's placeholder
        auto r = run(c);
        QVERIFY(r);
        QCOMPARE(r->model.framework, Framework::Verl);
        QVERIFY2(errorsOf(*r).isEmpty(), qPrintable(errorsOf(*r)));
        const WorkerLaunch *ctl = worker(r->launch, "TaskRunner");
        QVERIFY(ctl && ctl->wrapped);
        QCOMPARE(ctl->command, kV1Controller);
        QCOMPARE(r->launch.workers.size(), size_t(1 + 8)); // trainer.nnodes 1 x n_gpus_per_node 8
        for (int rank = 0; rank < 8; ++rank) {
            const WorkerLaunch *w = worker(r->launch, "global_pool:" + std::to_string(rank));
            QVERIFY(w && w->wrapped);
            QCOMPARE(w->command, kV1Worker);
            QCOMPARE(int(w->captureRanges.size()), ranges);
            QCOMPARE(w->outputs,
                     std::vector<std::string>{"/tmp/ray/session_<id>/logs/nsight/worker_process_<PID>.<RID>.nsys-rep"});
        }
        if (continuous) {
            const WorkerLaunch *w = worker(r->launch, "global_pool:0");
            QCOMPARE(w->captureRanges[0].steps, (std::vector<long long>{1, 2}));
            QCOMPARE(w->captureRanges[1].steps, (std::vector<long long>{5}));
        }
    }

    // A worker o with %q{RANK}: each worker's report is predicted with its rank, and nothing warns;
    // Ray's default name gets the note offering that o.
    void v1WorkerOutputNamesRank()
    {
        auto overrides = kV1Overrides;
        overrides.push_back("+global_profiler.global_tool_config.nsys.worker_nsight_options.o='w_rank%q{RANK}_%p'");
        auto c = pstest::verlCase("verl/verl/trainer/config", "ppo_trainer", overrides);
        c.launch.raySessionDir = "/tmp/ray/session_<id>";
        auto r = run(c);
        QVERIFY(r);
        QVERIFY2(errorsOf(*r).isEmpty(), qPrintable(errorsOf(*r)));
        QCOMPARE(worker(r->launch, "global_pool:5")->outputs,
                 std::vector<std::string>{"/tmp/ray/session_<id>/logs/nsight/w_rank5_<PID>.<RID>.nsys-rep"});
        QCOMPARE(worker(r->launch, "TaskRunner")->outputs,
                 std::vector<std::string>{"/tmp/ray/session_<id>/logs/nsight/worker_process_<PID>.nsys-rep"});
        const auto offers = [](const AnalysisResult &a) {
            return std::any_of(a.launch.notes.begin(), a.launch.notes.end(), [](const std::string &n) {
                return n.find("add o: worker_process_rank%q{RANK}_%p") != std::string::npos;
            });
        };
        QVERIFY(!offers(*r));
        auto byDefault = run(pstest::verlCase("verl/verl/trainer/config", "ppo_trainer", kV1Overrides));
        QVERIFY(byDefault && offers(*byDefault));
    }

    void v2()
    {
        auto r = run(pstest::verlCase("verl/verl/trainer/config", "ppo_trainer",
                                      {"global_profiler.tool=torch", "global_profiler.steps=[2]",
                                       "actor_rollout_ref.actor.profiler.enable=True",
                                       "actor_rollout_ref.actor.profiler.tool_config.torch.contents=[cpu,cuda]"}));
        QVERIFY(r);
        // ppo_trainer's rollout runs as an agent loop (mode: async), so e2e torch profiling of it is
        // flagged (spec verl rule 10); that is the only finding.
        QCOMPARE(r->diagnostics.size(), size_t(1));
        QCOMPARE(r->diagnostics[0].rule, std::string("verl.agent-loop-discrete"));
        QCOMPARE(r->diagnostics[0].key, std::string("actor_rollout_ref.actor.profiler.tool_config.torch.discrete"));
        for (const auto &w : r->launch.workers)
            QVERIFY2(!w.wrapped && w.argv.empty(), w.name.c_str()); // no nsys anywhere
        QCOMPARE(worker(r->launch, "global_pool:0")->outputs,
                 std::vector<std::string>{"outputs/profile/e2e/prof_rank-0.json.gz"});
        QVERIFY(worker(r->launch, "global_pool:1")->outputs.empty()); // default rank is 0 only
    }

    // V2 with the critic profiled too: its continuous torch trace has no role sub-folder.
    void v2WithCritic()
    {
        auto r = run(pstest::verlCase("verl/verl/trainer/config", "ppo_trainer",
                                      {"global_profiler.tool=torch", "global_profiler.steps=[2]",
                                       "actor_rollout_ref.actor.profiler.enable=True", "critic.profiler.enable=True",
                                       "critic.profiler.ranks=[0,1]"}));
        QVERIFY(r);
        QCOMPARE(worker(r->launch, "global_pool:0")->outputs,
                 (std::vector<std::string>{"outputs/profile/e2e/prof_rank-0.json.gz",
                                           "outputs/profile/prof_rank-0.json.gz"}));
        QCOMPARE(worker(r->launch, "global_pool:1")->outputs,
                 std::vector<std::string>{"outputs/profile/prof_rank-1.json.gz"});
    }

    void v3()
    {
        auto c = pstest::verlCase("verl/tests/trainer/config", "legacy_ppo_trainer",
                                  {"trainer.profile_steps=[1,2,5]", "actor_rollout_ref.profiler.all_ranks=True"});
        c.launch.raySessionDir = "/tmp/ray/session_<id>";
        auto r = run(c);
        QVERIFY(r);
        QVERIFY(r->model.verl.legacy);
        QCOMPARE(worker(r->launch, "TaskRunner")->command, kV1Controller);
        for (int rank = 0; rank < 8; ++rank)
            QCOMPARE(worker(r->launch, "global_pool:" + std::to_string(rank))->command, kV1Worker);
        bool legacyNoted = false;
        for (const auto &d : r->diagnostics)
            legacyNoted |= d.rule == "verl.legacy-key" && d.key == "trainer.profile_steps";
        QVERIFY(legacyNoted);
    }

    // History presets (testdata/configs/rlinf-history) composed into today's main config.
    // RL@8054ca5's nsight/default@cluster.nsight: silently ignored by RLinf today.
    void historyLegacyNsightBlock()
    {
        auto c = pstest::rlinfCase("rlinf", "maniskill_ppo_mlp", {"+nsight@cluster.nsight=default"});
        c.configDirs.push_back(pstest::testdata("configs/rlinf-history/8054ca58fd4a/examples/embodiment/config"));
        auto r = run(c);
        QVERIFY(r);
        QCOMPARE(r->diagnostics.size(), size_t(1));
        const Diagnostic &d = r->diagnostics[0];
        QCOMPARE(d.rule, std::string("rlinf.legacy-nsight-block"));
        QCOMPARE(d.key, std::string("cluster.nsight"));
        QVERIFY(d.file.find("rlinf-history/8054ca58fd4a") != std::string::npos);
        QVERIFY(!r->model.rlinf.present);
        for (const auto &w : r->launch.workers)
            QVERIFY(!w.wrapped);
        // The typed legacy block: what it asked for, as RL@8054ca5 read it.
        const RLinfLegacyNsight &legacy = r->model.rlinf.legacy;
        QCOMPARE(legacy.workerGroups,
                 (std::vector<std::string>{"ActorGroup", "RolloutGroup", "EnvGroup", "Actor", "Rollout", "Env"}));
        QCOMPARE(legacy.options.size(), size_t(5));
        QCOMPARE(legacy.options[4], (std::pair<std::string, std::string>{"osrt-threshold", "1000"}));
        QCOMPARE(legacy.outputDir, std::string("../results/maniskill_ppo_mlp/nsights"));
        QVERIFY(std::any_of(r->launch.notes.begin(), r->launch.notes.end(), [](const std::string &n) {
            return n.find("RLinf ignores that block") != std::string::npos;
        }));
    }

    // 2fe12db's profile/default lists the channel groups Actor, Rollout, Env: they are wrapped,
    // and with steps their cudaProfilerApi capture never opens.
    void historyChannelGroupsWithSteps()
    {
        auto c = pstest::rlinfCase("rlinf", "maniskill_ppo_mlp",
                                   {"+profile@cluster.profiling=default", "+cluster.profiling.steps=[3]"});
        c.configDirs.insert(c.configDirs.begin(),
                            pstest::testdata("configs/rlinf-history/2fe12db04483/examples/embodiment/config"));
        auto r = run(c);
        QVERIFY(r);
        QStringList channels;
        for (const auto &d : r->diagnostics) {
            QCOMPARE(d.rule, std::string("rlinf.channel-group-steps"));
            QVERIFY(d.file.find("rlinf-history/2fe12db04483") != std::string::npos);
            QCOMPARE(d.line, 3); // worker_groups: [...] in the history preset
            channels << QString::fromStdString(d.message).section('\'', 1, 1);
        }
        QCOMPARE(channels, (QStringList{"Actor", "Rollout", "Env"}));
        const WorkerLaunch *env = worker(r->launch, "Env:0");
        QVERIFY(env && env->wrapped);
        QVERIFY(env->captureRanges.empty());
        QVERIFY(!env->reason.empty());
        QCOMPARE(worker(r->launch, "EnvGroup:0")->captureRanges.size(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestProfilingExamples)
#include "tst_profilingexamples.moc"
