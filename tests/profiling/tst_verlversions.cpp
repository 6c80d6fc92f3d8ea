// verl per release (../shared/spec/profiling-config-2026.md V2-V10): which verl a config is
// from, the rules of that release only (id, severity, file:line), the files each release writes
// (names checked character for character against verl-project/verl's build_trace_basename,
// nvtx_profile.py's relocation and profile.py's finish hook), and the emitted commands' round
// trip through bash. Inputs: the real trees of ../shared/testdata/configs/verl-versions (their
// flattened _generated_*.yaml), the compositions by real Hydra in expected-verl/, and small
// primary configs in tests/profiling/versions/ that put one trap on top of a real tree.
#include "core/profiling/verloutputs.h"
#include "core/profiling/verlversion.h"
#include "profilingtestutil.h"

#include <QDir>
#include <QtTest>

using namespace ps::core::profiling;

namespace {

const std::string kFixtures = PS_SOURCE_DIR "/tests/profiling/versions";

std::string tree(const std::string &version)
{
    if (version == "0.5-0.7.0")
        return pstest::testdata("configs/verl/verl/trainer/config");
    return pstest::testdata("configs/verl-versions/" + version + "/verl/trainer/config");
}

pstest::Case onTree(const std::string &version, const std::string &name, std::vector<std::string> overrides = {})
{
    pstest::Case c;
    c.configDirs = {kFixtures, tree(version)};
    c.configName = name;
    c.overrides = std::move(overrides);
    return c;
}

pstest::Case inDir(const QString &dir, const QString &name)
{
    pstest::Case c;
    c.configDirs = {dir.toStdString()};
    c.configName = name.toStdString();
    return c;
}

const Diagnostic *find(const AnalysisResult &r, const std::string &rule)
{
    for (const auto &d : r.diagnostics)
        if (d.rule == rule)
            return &d;
    return nullptr;
}

QString dump(const AnalysisResult &r)
{
    QStringList l;
    for (const auto &d : r.diagnostics)
        l << QString::fromStdString(d.format());
    return l.join('\n');
}

// Every command a plan emits (workers and hooks) splits back under bash into its argv.
void checkRoundTrip(const LaunchPlan &plan)
{
    for (const auto &w : plan.workers) {
        if (w.wrapped) {
            const auto split = pstest::bashSplit(w.command);
            QVERIFY2(split && *split == w.argv, w.command.c_str());
        }
        for (const auto &h : w.hooks) {
            const auto split = pstest::bashSplit(h.command);
            QVERIFY2(split && *split == h.argv, h.command.c_str());
        }
    }
}

} // namespace

class TestVerlVersions : public QObject
{
    Q_OBJECT
private slots:
    // Every flattened composition verl ships, per tree, and the 0.5-0.7.0 / legacy trees.
    void detectsTrees_data()
    {
        QTest::addColumn<QString>("dir");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("version");
        int rows = 0;
        for (const char *v : {"v0.7.1", "v0.9.0", "main-1dda039b"}) {
            const QString version = QString(v) == "v0.7.1" ? "0.7.1" : QString(v) == "v0.9.0" ? "0.9" : "main";
            const QDir d(QString::fromStdString(tree(v)));
            for (const QString &f : d.entryList({"_generated_*.yaml"}, QDir::Files)) {
                QTest::newRow(qPrintable(QString(v) + "/" + f)) << d.path() << f.chopped(5) << version;
                ++rows;
            }
        }
        QCOMPARE(rows, 12); // 4 flattened compositions in each of the 3 trees
        QTest::newRow("old tree ppo_trainer") << QString::fromStdString(tree("0.5-0.7.0")) << "ppo_trainer"
                                              << "0.5-0.7.0";
        QTest::newRow("legacy flat schema")
            << QString::fromStdString(pstest::testdata("configs/verl/tests/trainer/config")) << "legacy_ppo_trainer"
            << "legacy";
        QTest::newRow("0.8 schema marks") << QString::fromStdString(kFixtures) << "verl_0_8_schema"
                                          << "0.8";
    }
    void detectsTrees()
    {
        QFETCH(QString, dir);
        QFETCH(QString, name);
        QFETCH(QString, version);
        const auto r = pstest::analyzeCase(inDir(dir, name));
        QCOMPARE(r->model.framework, Framework::Verl);
        QCOMPARE(QString(verlVersionName(r->model.verl.version)), version);
        QVERIFY(r->model.verl.detection.detected);
        QVERIFY(!r->model.verl.detection.why.empty());
    }

    // The compositions by real Hydra: the folder name says the release.
    void detectsExpectedCompositions()
    {
        const QDir root(QString::fromStdString(pstest::testdata("configs/expected-verl")));
        const QStringList cases = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QVERIFY(cases.size() >= 8);
        for (const QString &name : cases) {
            pstest::Case c;
            c.configDirs = {root.filePath(name).toStdString()};
            c.configName = "expected";
            const auto r = pstest::analyzeCase(c);
            const QString want = name.startsWith("verl-0.7.1")   ? "0.7.1"
                                 : name.startsWith("verl-0.9.0") ? "0.9"
                                                                 : "main";
            QCOMPARE(QString(verlVersionName(r->model.verl.version)) + " " + name, want + " " + name);
            checkRoundTrip(r->launch);
        }
    }

    void parsesVersionNames()
    {
        QCOMPARE(parseVerlVersion("v0.9.0"), std::optional(VerlVersion::V0_9));
        QCOMPARE(parseVerlVersion("0.7.1"), std::optional(VerlVersion::V0_7_1));
        QCOMPARE(parseVerlVersion("0.6.1"), std::optional(VerlVersion::V0_5));
        QCOMPARE(parseVerlVersion("main"), std::optional(VerlVersion::Main));
        QCOMPARE(parseVerlVersion("0.10"), std::nullopt);
        for (VerlVersion v : {VerlVersion::Legacy, VerlVersion::V0_5, VerlVersion::V0_7_1, VerlVersion::V0_8,
                              VerlVersion::V0_9, VerlVersion::Main})
            QCOMPARE(parseVerlVersion(verlVersionName(v)), std::optional(v));
    }

    // Each new rule: id, severity and the line of the fixture that set the value.
    void rulesAtTheirLine_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("rule");
        QTest::addColumn<int>("severity");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        const int E = int(Severity::Error), W = int(Severity::Warning);
        QTest::newRow("reward_model.profiler on 0.9")
            << "v0.9.0"
            << "doc_copied_reward_model"
            << "verl.reward-model-profiler-removed" << E << 13 << "Key 'profiler' is not in struct";
        QTest::newRow("reward_model.profiler on 0.7.1") << "v0.7.1"
                                                        << "doc_copied_reward_model"
                                                        << "verl.reward-model-profiler-removed" << E << 13 << "#5255";
        QTest::newRow("py_executable under nsys") << "main-1dda039b"
                                                  << "uv_py_executable"
                                                  << "verl.py-executable-nsys" << W << 15 << "Ray #66093";
        QTest::newRow("relocate + custom Ray temp dir") << "main-1dda039b"
                                                        << "relocate_temp_dir"
                                                        << "verl.relocate-ray-temp-dir" << W << 8 << "/scratch/ray";
        QTest::newRow("finish hook double quote") << "main-1dda039b"
                                                  << "relocate_temp_dir"
                                                  << "verl.finish-hook-double-quote" << W << 9 << "double quote";
        QTest::newRow("nsys on vLLM rollout")
            << "v0.9.0"
            << "nsys_vllm_rollout"
            << "verl.rollout-tool-unsupported" << W << 13 << "agent loop only support torch and npu profiler, got nsys";
        QTest::newRow("schedule active 0") << "v0.9.0"
                                           << "torch_schedule_inactive"
                                           << "verl.torch-schedule-inactive" << W << 17 << "active is 0";
        QTest::newRow("profile_token order") << "v0.9.0"
                                             << "torch_schedule_inactive"
                                             << "verl.profile-token-order" << E << 19
                                             << "profile_token_end must be > profile_token_start, got start=100, "
                                                "stop=50";
        QTest::newRow("step_start on 0.7.1")
            << "v0.7.1"
            << "torch_step_start"
            << "verl.torch-key-unknown" << E << 14 << "Key 'step_start' not in 'TorchProfilerToolConfig'";
        QTest::newRow("precision_debugger unknown stage")
            << "v0.9.0"
            << "precision_debugger"
            << "verl.precision-debugger-stage" << W << 11 << "Unknown precision_debugger stages: ['actor_forward']";
        QTest::newRow("precision_debugger on 0.7.1")
            << "v0.7.1"
            << "precision_debugger"
            << "verl.tool-unknown" << E << 6 << "in verl 0.7.1, got 'precision_debugger'";
    }
    void rulesAtTheirLine()
    {
        QFETCH(QString, version);
        QFETCH(QString, config);
        QFETCH(QString, rule);
        QFETCH(int, severity);
        QFETCH(int, line);
        QFETCH(QString, message);
        const auto r = pstest::analyzeCase(onTree(version.toStdString(), config.toStdString()));
        const Diagnostic *d = find(*r, rule.toStdString());
        QVERIFY2(d, qPrintable(dump(*r)));
        QCOMPARE(int(d->severity), severity);
        QVERIFY2(QString::fromStdString(d->file).endsWith(config + ".yaml"), d->file.c_str());
        QCOMPARE(d->line, line);
        QVERIFY2(QString::fromStdString(d->message).contains(message), d->message.c_str());
    }

    // A rule of one release never fires on another.
    void nothingLeaksBetweenVersions()
    {
        // reward_model.profiler is a real block on 0.5-0.7.0.
        auto old = pstest::analyzeCase(
            onTree("0.5-0.7.0", "ppo_trainer",
                   {"global_profiler.tool=nsys", "global_profiler.steps=[1]",
                    "actor_rollout_ref.actor.profiler.enable=True", "reward_model.profiler.enable=True"}));
        QVERIFY2(!find(*old, "verl.reward-model-profiler-removed"), qPrintable(dump(*old)));
        // precision_debugger is a tool from 0.8 on.
        auto pd = pstest::analyzeCase(onTree("v0.9.0", "precision_debugger"));
        QVERIFY2(!find(*pd, "verl.tool-unknown"), qPrintable(dump(*pd)));
        // relocate_results / finish_hook_* are main's keys: read as 0.9 they are unknown ProfilerConfig keys.
        pstest::Case main = onTree("main-1dda039b", "relocate_temp_dir");
        auto asMain = pstest::analyzeCase(main);
        QVERIFY2(!find(*asMain, "verl.role-unknown-key"), qPrintable(dump(*asMain)));
        auto in = pstest::inputOf(main);
        in.verlVersion = VerlVersion::V0_9;
        auto as09 = analyze(in);
        QVERIFY(as09->model.verl.detection.overridden);
        const Diagnostic *unknown = find(*as09, "verl.role-unknown-key");
        QVERIFY2(unknown, qPrintable(dump(*as09)));
        QCOMPARE(unknown->message, std::string("Key 'relocate_results' not in 'ProfilerConfig'"));
        QVERIFY(!find(*as09, "verl.relocate-ray-temp-dir"));
        // step_start is a field of 0.5-0.7.0's TorchProfilerToolConfig.
        auto stepStart = pstest::analyzeCase(onTree(
            "0.5-0.7.0", "ppo_trainer",
            {"global_profiler.tool=torch", "global_profiler.steps=[1]", "actor_rollout_ref.actor.profiler.enable=True",
             "+actor_rollout_ref.actor.profiler.tool_config.torch.step_start=0"}));
        QVERIFY2(!find(*stepStart, "verl.torch-key-unknown"), qPrintable(dump(*stepStart)));
    }

    // _sanitize_name_part and build_trace_basename of verl-project/verl main (torch_profile.py).
    void torchTraceNames()
    {
        QCOMPARE(verlSanitizeLabel("actor_rollout_ref"), std::string("actor-rollout-ref"));
        QCOMPARE(verlSanitizeLabel("value_model"), std::string("value-model"));
        QCOMPARE(verlSanitizeLabel("__a b//c.d=e+f--"), std::string("a-b-c.d=e+f"));
        TorchTraceName n;
        n.workerRole = "actor_rollout_ref";
        n.scope = "train";
        n.step = 3;
        n.rank = 1;
        n.worldSize = 8;
        n.pid = "4242";
        n.timestamp = "20260822103000123";
        QCOMPARE(verlTorchTraceBasename(VerlVersion::Main, n),
                 std::string("actor-rollout-ref_train_step3_rank1-of-8_pid4242_20260822103000123"));
        // 0.9 has no step part and keeps a scope directory.
        QCOMPARE(
            verlTorchTracePath(VerlVersion::V0_9, "outputs/profile", n),
            std::string("outputs/profile/train/actor-rollout-ref_train_rank1-of-8_pid4242_20260822103000123.json.gz"));
        // Megatron's parallel ranks and a scheduled update window.
        n.parallel = "tp0-pp1-dp0-cp0";
        n.scope = "actor_update";
        n.suffix = "_mb2-3";
        QCOMPARE(verlTorchTracePath(VerlVersion::Main, "/p", n),
                 std::string("/p/actor-rollout-ref_actor-update_step3_rank1-of-8_tp0-pp1-dp0-cp0_pid4242_"
                             "20260822103000123_mb2-3.json.gz"));
        // 0.7.1-0.8: prof_rank-<r>_<pid>_<timestamp> under the scope directory (#5395).
        QCOMPARE(verlTorchTracePath(VerlVersion::V0_8, "out", n),
                 std::string("out/actor_update/prof_rank-1_4242_20260822103000123_mb2-3.json.gz"));
        // relocate_results: [<role>_]<host>_worker_process_<pid>[.<n>].nsys-rep
        QCOMPARE(verlRelocatedNsysPath("/s", "actor_rollout_ref", "node7", "99", "2"),
                 std::string("/s/actor_rollout_ref_node7_worker_process_99.2.nsys-rep"));
        QCOMPARE(verlRelocatedNsysPath("/s", "", "node7", "99", ""),
                 std::string("/s/node7_worker_process_99.nsys-rep"));
        // The mini-batch windows of a schedule: wait 1, warmup 1, active 2, repeat 0 over 8 mini-batches.
        VerlRoleProfiler::TorchSchedule s;
        s.wait = 1;
        s.warmup = 1;
        s.active = 2;
        const auto windows = verlScheduleWindows(s, 8);
        QCOMPARE(windows.size(), size_t(2));
        QCOMPARE(windows[0], std::make_pair(2LL, 3LL));
        QCOMPARE(windows[1], std::make_pair(6LL, 7LL));
    }

    // The plans: every file each worker writes, under the names of the release.
    void torchScheduleOn09()
    {
        const auto r = pstest::analyzeCase(
            onTree("v0.9.0", "_generated_ppo_trainer",
                   {"global_profiler.tool=torch", "global_profiler.steps=[3]",
                    "actor_rollout_ref.actor.profiler.enable=True", "actor_rollout_ref.actor.profiler.ranks=[0,1]",
                    "actor_rollout_ref.actor.profiler.tool_config.torch.schedule.active=2",
                    "actor_rollout_ref.actor.profiler.tool_config.torch.schedule.repeat=2"}));
        QVERIFY2(!hasErrors(r->diagnostics), qPrintable(dump(*r)));
        const WorkerLaunch &w1 = r->launch.workers.at(2); // TaskRunner, then rank 0, rank 1
        QCOMPARE(w1.rank, 1LL);
        const std::vector<std::string> want = {
            "outputs/profile/e2e/actor-rollout_e2e_rank1-of-8_pid<PID>_<timestamp-step3>.json.gz",
            "outputs/profile/e2e/actor-rollout_e2e_rank1-of-8_pid<PID>_<timestamp-step3>_cycle1.json.gz"};
        QCOMPARE(w1.outputs, want);
        QVERIFY(r->launch.workers.at(3).outputs.empty());
        QVERIFY(w1.env.empty()); // NVTX_INJECTION64_PATH is main's
    }

    void torchOnMainDiscreteScheduled()
    {
        const auto r = pstest::analyzeCase(onTree(
            "main-1dda039b", "_generated_ppo_trainer",
            {"global_profiler.tool=torch", "global_profiler.steps=[2]", "actor_rollout_ref.actor.profiler.enable=True",
             "actor_rollout_ref.actor.profiler.tool_config.torch.discrete=True",
             "actor_rollout_ref.actor.profiler.tool_config.torch.schedule.active=1",
             "actor_rollout_ref.actor.ppo_mini_batch_size=512"}));
        QVERIFY2(!hasErrors(r->diagnostics), qPrintable(dump(*r)));
        const WorkerLaunch &w0 = r->launch.workers.at(1);
        // 1024 / 512 = 2 update mini-batches, active 1 with repeat 0: _mb0 and _mb1.
        const std::vector<std::string> want = {
            "outputs/profile/actor-rollout_actor-compute-log-prob_step2_rank0-of-8_pid<PID>_<timestamp>.json.gz",
            "outputs/profile/actor-rollout_actor-update_step2_rank0-of-8_pid<PID>_<timestamp>_mb0.json.gz",
            "outputs/profile/actor-rollout_actor-update_step2_rank0-of-8_pid<PID>_<timestamp>_mb1.json.gz"};
        QCOMPARE(w0.outputs, want);
        const std::vector<std::pair<std::string, std::string>> env = {
            {"NVTX_INJECTION64_PATH", "/nonexistent/verl-disabled-nvtx-injection.so"}};
        QCOMPARE(w0.env, env);
        QCOMPARE(r->launch.workers.at(0).env, env); // the TaskRunner too: it is the Ray job's runtime env
    }

    // Megatron: each trace name carries the process's tp/pp/dp/cp coordinates, laid out as
    // Megatron's default order "tp-cp-ep-dp-pp" puts them (tp fastest), and the critic's own sizes.
    void megatronParallelRanksInTorchNames()
    {
        const auto r = pstest::analyzeCase(
            onTree("main-1dda039b", "ppo_trainer",
                   {"model_engine=megatron", "global_profiler.tool=torch", "global_profiler.steps=[2]",
                    "actor_rollout_ref.actor.profiler.enable=True", "actor_rollout_ref.actor.profiler.all_ranks=True",
                    "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2",
                    "actor_rollout_ref.actor.megatron.pipeline_model_parallel_size=2"}));
        QVERIFY2(!hasErrors(r->diagnostics), qPrintable(dump(*r)));
        // 8 GPUs = tp 2 x cp 1 x dp 2 x pp 2. Workers: TaskRunner, then ranks 0..7.
        const std::vector<std::pair<long long, std::string>> want = {{0, "tp0-pp0-dp0-cp0"}, {1, "tp1-pp0-dp0-cp0"},
                                                                     {2, "tp0-pp0-dp1-cp0"}, {3, "tp1-pp0-dp1-cp0"},
                                                                     {5, "tp1-pp1-dp0-cp0"}, {6, "tp0-pp1-dp1-cp0"}};
        for (const auto &[rank, coords] : want) {
            const WorkerLaunch &w = r->launch.workers.at(static_cast<size_t>(rank) + 1);
            QCOMPARE(w.rank, rank);
            QVERIFY(!w.outputs.empty());
            const std::string expectedPart = "_rank" + std::to_string(rank) + "-of-8_" + coords + "_pid<PID>_";
            for (const std::string &o : w.outputs)
                QVERIFY2(o.find(expectedPart) != std::string::npos, (o + " lacks " + expectedPart).c_str());
        }
    }

    // V7: 0.9 keys a vLLM server's profiler on its replica index, main on the global GPU ranks
    // each replica owns (tp 2: replica r owns ranks 2r and 2r+1). The plan lists the engine's
    // trace folder on the replica's first worker.
    void rolloutRanksPerRelease_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("ranks");
        QTest::addColumn<long long>("profiledWorkerRank");
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("message");
        QTest::newRow("0.9: rank 3 is replica 3") << "v0.9.0"
                                                  << "[3]" << 6LL << ""
                                                  << "";
        QTest::newRow("main: rank 3 is on replica 1") << "main-1dda039b"
                                                      << "[3]" << 2LL << "verl.rollout-ranks-global"
                                                      << "profile rollout replica(s) [1]";
        QTest::newRow("0.9: only 4 replicas")
            << "v0.9.0"
            << "[5]" << -1LL << "verl.rollout-rank-out-of-range"
            << "rollout profiler rank 5 selects no rollout replica: verl 0.9 reads rollout ranks as replica "
               "indices, and there are 4 replicas of 2 GPUs";
        QTest::newRow("main: only 8 GPUs") << "main-1dda039b"
                                           << "[8]" << -1LL << "verl.rollout-rank-out-of-range"
                                           << "reads rollout ranks as global GPU ranks, and there are 8 GPUs";
    }

    void rolloutRanksPerRelease()
    {
        QFETCH(QString, version);
        QFETCH(QString, ranks);
        QFETCH(long long, profiledWorkerRank);
        QFETCH(QString, rule);
        QFETCH(QString, message);
        const auto r = pstest::analyzeCase(onTree(
            version.toStdString(), "_generated_ppo_trainer",
            {"global_profiler.tool=torch", "global_profiler.steps=[1]", "actor_rollout_ref.rollout.name=vllm",
             "actor_rollout_ref.rollout.tensor_model_parallel_size=2", "actor_rollout_ref.actor.profiler.enable=True",
             "actor_rollout_ref.rollout.profiler.ranks=" + ranks.toStdString()}));
        QVERIFY2(!hasErrors(r->diagnostics), qPrintable(dump(*r)));
        for (const WorkerLaunch &w : r->launch.workers) {
            bool engineFolder = false;
            for (const std::string &o : w.outputs)
                engineFolder = engineFolder || o.find("rollout_replica_") != std::string::npos ||
                               o.find("rollout-replica") != std::string::npos;
            QVERIFY2(engineFolder == (w.rank == profiledWorkerRank && w.group == "global_pool"),
                     qPrintable(QString("worker rank %1").arg(w.rank)));
        }
        const Diagnostic *d = rule.isEmpty() ? nullptr : find(*r, rule.toStdString());
        if (rule.isEmpty()) {
            QVERIFY2(!find(*r, "verl.rollout-ranks-global") && !find(*r, "verl.rollout-rank-out-of-range"),
                     qPrintable(dump(*r)));
        } else {
            QVERIFY2(d, qPrintable(dump(*r)));
            QVERIFY2(d->message.find(message.toStdString()) != std::string::npos, d->message.c_str());
            QVERIFY2(d->line > 0, "located");
        }
    }

    // expected-verl/verl-main-relocate-hook: relocation and the finish hook with its environment.
    void relocateAndFinishHookOnMain()
    {
        pstest::Case c;
        c.configDirs = {pstest::testdata("configs/expected-verl/verl-main-relocate-hook")};
        c.configName = "expected";
        const auto r = pstest::analyzeCase(c);
        QCOMPARE(r->model.verl.version, VerlVersion::Main);
        const WorkerLaunch &w0 = r->launch.workers.at(1);
        QVERIFY(w0.wrapped);
        QCOMPARE(w0.outputs, std::vector<std::string>{
                                 "outputs/profile/actor_rollout_<hostname>_worker_process_<PID>.<RID>.nsys-rep"});
        QCOMPARE(w0.hooks.size(), size_t(1));
        const HookRun &h = w0.hooks[0];
        QCOMPARE(h.when, std::string("after step 2"));
        QCOMPARE(h.argv,
                 (std::vector<std::string>{
                     "/bin/sh", "-c", "tar czf /shared/prof_$VERL_PROFILE_RANK.tgz -C $VERL_PROFILE_SAVE_PATH ."}));
        std::vector<std::string> names;
        for (const auto &[k, v] : h.env)
            names.push_back(k);
        QCOMPARE(names,
                 (std::vector<std::string>{"VERL_PROFILE_SAVE_PATH", "VERL_PROFILE_TOOL", "VERL_PROFILE_RANK",
                                           "VERL_PROFILE_PID", "VERL_PROFILE_ROLE", "VERL_PROFILE_RAY_NSIGHT_DIR"}));
        QCOMPARE(h.env.back().second, std::string("/tmp/ray/session_latest/logs/nsight"));
        QVERIFY(r->launch.workers.at(2).hooks.empty()); // default: the profiled ranks (rank 0)
        QCOMPARE(r->launch.collect.front().second, std::string("outputs/profile"));
        checkRoundTrip(r->launch);
    }

    // nsys discrete: ranges named by method before main, by stage label on main (V8).
    void nsysRangeLabels()
    {
        const std::vector<std::string> o = {"global_profiler.tool=nsys", "global_profiler.steps=[1]",
                                            "global_profiler.global_tool_config.nsys.discrete=True",
                                            "actor_rollout_ref.actor.profiler.enable=True"};
        const auto v09 = pstest::analyzeCase(onTree("v0.9.0", "_generated_ppo_trainer", o));
        const auto main = pstest::analyzeCase(onTree("main-1dda039b", "_generated_ppo_trainer", o));
        std::vector<std::string> l09, lmain;
        for (const auto &c : v09->launch.workers.at(1).captureRanges)
            l09.push_back(c.label);
        for (const auto &c : main->launch.workers.at(1).captureRanges)
            lmain.push_back(c.label);
        QCOMPARE(l09, (std::vector<std::string>{"step 1: compute_log_prob", "step 1: update_actor"}));
        QCOMPARE(lmain, (std::vector<std::string>{"step 1: actor_compute_log_prob", "step 1: actor_update"}));
        checkRoundTrip(v09->launch);
        checkRoundTrip(main->launch);
    }

    // The built-in presets of each release compose onto that release's tree, keep its version and
    // validate without errors.
    void presetsPerVersion_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("dir");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("version");
        const QString legacyDir = QString::fromStdString(pstest::testdata("configs/verl/tests/trainer/config"));
        QTest::newRow("legacy") << "legacy_nsys" << legacyDir << "legacy_ppo_trainer"
                                << "legacy";
        for (const char *p : {"nsys", "torch", "npu", "torch_memory"})
            QTest::newRow(p) << p << QString::fromStdString(tree("0.5-0.7.0")) << "ppo_trainer"
                             << "0.5-0.7.0";
        const auto gen = [](const char *v) { return QString::fromStdString(tree(v)); };
        QTest::newRow("0.7.1 torch") << "v0_7_1_torch" << gen("v0.7.1") << "_generated_ppo_trainer"
                                     << "0.7.1";
        QTest::newRow("0.9 precision_debugger")
            << "v0_8_precision_debugger" << gen("v0.9.0") << "_generated_ppo_trainer"
            << "0.9";
        QTest::newRow("0.9 torch schedule") << "v0_9_torch_schedule" << gen("v0.9.0") << "_generated_ppo_trainer"
                                            << "0.9";
        QTest::newRow("0.9 nsys discrete") << "v0_9_nsys_discrete" << gen("v0.9.0") << "_generated_ppo_trainer"
                                           << "0.9";
        QTest::newRow("main relocate") << "main_nsys_relocate" << gen("main-1dda039b") << "_generated_ppo_trainer"
                                       << "main";
        QTest::newRow("main torch") << "main_torch" << gen("main-1dda039b") << "_generated_ppo_trainer"
                                    << "main";
    }
    void presetsPerVersion()
    {
        QFETCH(QString, preset);
        QFETCH(QString, dir);
        QFETCH(QString, name);
        QFETCH(QString, version);
        pstest::Case c = inDir(dir, name);
        c.overrides = {"+verl=" + preset.toStdString()};
        c.builtinPresets = true;
        const auto r = pstest::analyzeCase(c);
        QCOMPARE(QString(verlVersionName(r->model.verl.version)), version);
        QVERIFY2(!hasErrors(r->diagnostics), qPrintable(dump(*r)));
        QVERIFY(r->model.verl.tool.has_value());
        bool writes = false;
        for (const auto &w : r->launch.workers)
            writes = writes || !w.outputs.empty();
        QVERIFY(writes);
        checkRoundTrip(r->launch);
    }

    void precisionDebuggerOutputs()
    {
        const auto r = pstest::analyzeCase(onTree("v0.9.0", "precision_debugger"));
        const WorkerLaunch &w5 = r->launch.workers.at(6); // rank 5: msprobe decides ranks, verl opens the gate
        const std::vector<std::string> want = {"outputs/profile/step_1/actor_update/",
                                               "outputs/profile/step_2/actor_update/"};
        QCOMPARE(w5.outputs, want);
    }
};

QTEST_GUILESS_MAIN(TestVerlVersions)
#include "tst_verlversions.moc"
