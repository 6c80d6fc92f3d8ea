// RLinf cluster.tracer (R1) and the Megatron / vLLM torch-profiler knobs (R2) on the real RLinf
// trees of testdata (spec profiling-config-2026.md R1-R2; RLinf a3816b59 rlinf/config.py
// validate_cfg and validate_megatron_cfg, rlinf/scheduler/cluster/cluster.py L448-453,
// rlinf/utils/profiler.py), through the CLI's override syntax.

#include "core/profiling/launchplan.h"
#include "profilingtestutil.h"

#include <QtTest>

using namespace ps::core::profiling;

namespace {

const WorkerLaunch *worker(const LaunchPlan &plan, const std::string &name)
{
    for (const auto &w : plan.workers)
        if (w.name == name)
            return &w;
    return nullptr;
}

std::vector<const Diagnostic *> withRule(const AnalysisResult &r, const std::string &rule)
{
    std::vector<const Diagnostic *> out;
    for (const auto &d : r.diagnostics)
        if (d.rule == rule)
            out.push_back(&d);
    return out;
}

const std::vector<std::string> kTrees = {"rlinf", "rlinf-with-profile"};
const std::vector<std::string> kConfigs = {"maniskill_ppo_mlp", "libero_spatial_ppo_openpi"};

} // namespace

class TestRlinfTracerPlan : public QObject
{
    Q_OBJECT
private slots:
    // `+cluster.tracer.enable=true` (docs guides/profile.rst §Tracing) on every real main config.
    void tracerOnRealConfigs_data()
    {
        QTest::addColumn<QString>("tree");
        QTest::addColumn<QString>("config");
        for (const auto &t : kTrees)
            for (const auto &c : kConfigs)
                QTest::newRow((t + "/" + c).c_str()) << QString::fromStdString(t) << QString::fromStdString(c);
        QVERIFY(!kTrees.empty() && !kConfigs.empty());
    }
    void tracerOnRealConfigs()
    {
        QFETCH(QString, tree);
        QFETCH(QString, config);
        auto r = pstest::analyzeCase(
            pstest::rlinfCase(tree.toStdString(), config.toStdString(), {"+cluster.tracer.enable=true"}));
        QVERIFY(r);
        const RLinfTracer &t = r->model.rlinf.tracer;
        QVERIFY(t.present && t.enable && t.outputFileDerived);
        // os.path.join(log_path, experiment_name, "trace/trace_events.jsonl"), relative as written.
        const std::string expected = "../results/" + config.toStdString() + "/trace/trace_events.jsonl";
        QCOMPARE(t.outputFile, expected);
        const WorkerLaunch *w = worker(r->launch, "Tracer");
        QVERIFY(w);
        QCOMPARE(w->node, 0LL);
        QVERIFY(!w->wrapped);
        QCOMPARE(w->outputs, std::vector<std::string>{expected});
        QVERIFY(std::find(r->launch.collect.begin(), r->launch.collect.end(),
                          std::pair<long long, std::string>{0, "../results/" + config.toStdString() + "/trace"}) !=
                r->launch.collect.end());
        QVERIFY(withRule(*r, "rlinf.tracer-enable-not-bool").empty());
    }

    // The same configs without the override: no tracer actor, no file.
    void tracerOffByDefault()
    {
        auto r = pstest::analyzeCase(pstest::rlinfCase("rlinf", "maniskill_ppo_mlp", {}));
        QVERIFY(r);
        QVERIFY(!r->model.rlinf.tracer.enable);
        QVERIFY(!worker(r->launch, "Tracer"));
    }

    // The string "false" from the command line: bool("false") is True, so RLinf traces.
    void tracerStringFalseEnables()
    {
        auto r = pstest::analyzeCase(
            pstest::rlinfCase("rlinf", "maniskill_ppo_mlp",
                              {"+cluster.tracer.enable='false'", "+cluster.tracer.output_file=/tmp/t/ev.jsonl"}));
        QVERIFY(r);
        QVERIFY(r->model.rlinf.tracer.enable);
        QCOMPARE(r->model.rlinf.tracer.outputFile, std::string("/tmp/t/ev.jsonl"));
        QVERIFY(!r->model.rlinf.tracer.outputFileDerived);
        const auto d = withRule(*r, "rlinf.tracer-enable-not-bool");
        QCOMPARE(d.size(), size_t(1));
        QCOMPARE(d[0]->severity, Severity::Warning);
        QCOMPARE(d[0]->message, std::string("cluster.tracer.enable is 'false', not a bool; RLinf sets enable = "
                                            "bool(enable), so tracing is ON"));
        QCOMPARE(d[0]->file, std::string("<override +cluster.tracer.enable='false'>"));
    }

    // actor.megatron.profiler as examples/agent/** write it, given on the command line on a
    // real tree: tensorboard folders listed for every ActorGroup rank.
    void megatronProfilerOutputs()
    {
        std::vector<std::string> o = {"actor.training_backend=megatron", "+actor.megatron.use_profiler=True"};
        for (const char *kv :
             {"output_dir=/runs/prof", "activities=[cpu,cuda]", "record_shapes=False", "profile_memory=False",
              "with_stack=False", "with_flops=False", "with_modules=True", "export_tensorboard=True",
              "export_chrome_trace=False", "chrome_filename_prefix=chrome_trace", "schedule_warmup=2",
              "schedule_active=1", "schedule_repeat=1"})
            o.push_back(std::string("+actor.megatron.profiler.") + kv);
        auto r = pstest::analyzeCase(pstest::rlinfCase("rlinf", "maniskill_ppo_mlp", o));
        QVERIFY(r);
        for (const auto &d : r->diagnostics)
            QVERIFY2(d.rule.rfind("rlinf.megatron", 0) != 0, d.format().c_str());
        QCOMPARE(r->model.rlinf.megatronProfilers.size(), size_t(1));
        const WorkerLaunch *w = worker(r->launch, "ActorGroup:0");
        QVERIFY(w);
        QCOMPARE(w->outputs,
                 (std::vector<std::string>{"/runs/prof/tensorboard/fwd/<hostname>_<PID>.<time_ns>.pt.trace.json",
                                           "/runs/prof/tensorboard/fwd_bwd/<hostname>_<PID>.<time_ns>.pt.trace.json"}));
    }

    // validate_cfg's defaults (warmup 3, active 1) and init_profiler's message, verbatim.
    void megatronDefaultsAndMessages()
    {
        auto r = pstest::analyzeCase(pstest::rlinfCase(
            "rlinf", "maniskill_ppo_mlp",
            {"actor.training_backend=megatron", "+actor.megatron.use_profiler=True",
             "+actor.megatron.profiler.output_dir=/p", "+actor.megatron.profiler.schedule_active=0"}));
        QVERIFY(r);
        QCOMPARE(r->model.rlinf.megatronProfilers.at(0).scheduleWarmup, 3LL);
        const auto active = withRule(*r, "rlinf.megatron-active-invalid");
        QCOMPARE(active.size(), size_t(1));
        QCOMPARE(active[0]->message,
                 std::string("AssertionError: <schedule_active> must be set and greater than 0 when using profiler."));
        const auto missing = withRule(*r, "rlinf.megatron-profiler-missing-key");
        QCOMPARE(missing.size(), size_t(1));
        QCOMPARE(missing[0]->message,
                 std::string("ValueError: Missing required profiler parameters: {'activities', "
                             "'chrome_filename_prefix', 'export_chrome_trace', 'export_tensorboard', "
                             "'profile_memory', 'record_shapes', 'schedule_repeat', 'with_flops', "
                             "'with_modules', 'with_stack'}"));
    }

    void vllmProfilerDirEnv()
    {
        auto r = pstest::analyzeCase(
            pstest::rlinfCase("rlinf", "maniskill_ppo_mlp",
                              {"+rollout.rollout_backend=vllm", "+rollout.vllm.torch_profiler_dir=/runs/vllm"}));
        QVERIFY(r);
        const WorkerLaunch *w = worker(r->launch, "RolloutGroup:0");
        QVERIFY(w);
        QVERIFY(std::find(w->env.begin(), w->env.end(),
                          std::pair<std::string, std::string>{"VLLM_TORCH_PROFILER_DIR", "/runs/vllm"}) !=
                w->env.end());
        QCOMPARE(withRule(*r, "rlinf.vllm-profiler-never-started").size(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestRlinfTracerPlan)
#include "tst_rlinftracerplan.moc"
