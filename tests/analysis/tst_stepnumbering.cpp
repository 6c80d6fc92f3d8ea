// Steps numbered as the run profiled them (core/analysis/phases/stepnumbering.h): the step list a config
// beside the reports names (verl's global_profiler.steps and trainer.profile_steps, RLinf's
// cluster.profiling.steps), ranges that name their step, and the phase table and `trace phases`
// on a demo run that profiled steps 5-6: steps 5 and 6, not 1 and 2. Without a config, or with one
// that does not fit, steps stay counted 1..N and the table says why.
#include "core/analysis/phases/phases.h"
#include "core/analysis/phases/stepnumbering.h"
#include "core/demo/demorun.h"
#include "core/trace/read/traceloader.h"
#include "core/trace/store/storebuilder.h"
#include "tests/support/clirun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <filesystem>
#include <set>

using namespace ps::core::analysis;
namespace tr = ps::core::trace;

namespace {

void writeText(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

std::vector<tr::ReportPtr> load(const std::vector<std::string> &paths)
{
    tr::LoadOptions lo;
    lo.useCache = false;
    return tr::loadReports(paths, lo).reports;
}

std::vector<int64_t> distinctSteps(const PhaseTable &t)
{
    std::vector<int64_t> out;
    for (const PhaseRow &r : t.rows)
        if (out.empty() || out.back() != r.step)
            out.push_back(r.step);
    return out;
}

} // namespace

class TestStepNumbering : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    ps::core::demo::DemoResult m_demo;

private slots:
    void initTestCase()
    {
        ps::core::demo::DemoOptions o;
        o.outDir = m_dir.filePath("run").toStdString();
        o.ranks = 2;
        o.steps = 2;
        o.firstStep = 5;
        std::string error;
        QVERIFY2(ps::core::demo::writeDemoRun(o, m_demo, error), error.c_str());
        QCOMPARE(m_demo.profiledSteps, (std::vector<int>{5, 6}));
    }

    void rangesThatNameTheirStep()
    {
        QCOMPARE(stepNamedBy("ProfilerStep#12"), std::optional<int64_t>(12));
        QCOMPARE(stepNamedBy("step 3"), std::optional<int64_t>(3));
        QCOMPARE(stepNamedBy("step_3"), std::optional<int64_t>(3));
        QCOMPARE(stepNamedBy("Step#4"), std::optional<int64_t>(4));
        QCOMPARE(stepNamedBy("step:0"), std::optional<int64_t>(0));
        QCOMPARE(stepNamedBy("step7"), std::optional<int64_t>(7));
        for (const char *no :
             {"step", "step ", "steps 3", "training_step", "step 3a", "step -1", "ProfilerStep#", "x step 3"})
            QVERIFY2(!stepNamedBy(no), no);
    }

    void configKeysOfEachSchema()
    {
        QTemporaryDir d;
        writeText(d.filePath("verl.yaml"), "global_profiler:\n  tool: nsys\n  steps: [9, 3, 3]\n");
        writeText(d.filePath("legacy.yaml"), "trainer:\n  profile_steps: [1, 2]\n");
        writeText(d.filePath("null.yaml"), "global_profiler:\n  steps: null\n");
        writeText(d.filePath("strings.yaml"), "cluster:\n  profiling:\n    steps: [a, 2]\n");
        writeText(d.filePath("broken.yaml"), "cluster: [\n");
        const auto verl = profiledStepsInFile(d.filePath("verl.yaml").toStdString());
        QVERIFY(verl);
        QCOMPARE(verl->steps, (std::vector<int64_t>{3, 9})); // ascending, distinct
        QCOMPARE(verl->key, std::string("global_profiler.steps"));
        QCOMPARE(profiledStepsInFile(d.filePath("legacy.yaml").toStdString())->key,
                 std::string("trainer.profile_steps"));
        for (const char *none : {"null.yaml", "strings.yaml", "broken.yaml", "missing.yaml"})
            QVERIFY2(!profiledStepsInFile(d.filePath(none).toStdString()), none);
    }

    // Configs and folder listings are read once per version (every report of a run asks): a config
    // edited afterwards, or one added to the folder, is read again.
    void editedConfigsAreReadAgain()
    {
        QTemporaryDir d;
        const std::string report = d.filePath("rank0.sqlite").toStdString();
        QVERIFY(!profiledStepsNear({report}));
        writeText(d.filePath("run.yaml"), "global_profiler:\n  steps: [5, 6]\n");
        std::filesystem::last_write_time(d.path().toStdString(),
                                         std::filesystem::file_time_type::clock::now() + std::chrono::seconds(1));
        QCOMPARE(profiledStepsNear({report})->steps, (std::vector<int64_t>{5, 6}));
        const std::string config = d.filePath("run.yaml").toStdString();
        writeText(d.filePath("run.yaml"), "global_profiler:\n  steps: [7, 8]\n"); // the same size
        std::filesystem::last_write_time(config,
                                         std::filesystem::file_time_type::clock::now() + std::chrono::seconds(2));
        QCOMPARE(profiledStepsNear({report})->steps, (std::vector<int64_t>{7, 8}));
    }

    // Where configs are looked for: the demo's config/ beside profiling/, Hydra's .hydra/; two
    // configs that disagree name nothing, and say so.
    void configBesideTheReports()
    {
        const auto demo = profiledStepsNear({m_demo.reports.front().path});
        QVERIFY(demo);
        QCOMPARE(demo->steps, (std::vector<int64_t>{5, 6}));
        QCOMPARE(demo->source(), "cluster.profiling.steps in " + m_demo.configPath);

        QTemporaryDir d;
        writeText(d.filePath("outputs/.hydra/config.yaml"), "global_profiler:\n  steps: [4]\n");
        QCOMPARE(profiledStepsNear({d.filePath("outputs/profile/r0.json").toStdString()})->steps,
                 (std::vector<int64_t>{4}));
        writeText(d.filePath("outputs/profile/extra.yaml"), "trainer:\n  profile_steps: [8]\n");
        std::string why;
        QVERIFY(!profiledStepsNear({d.filePath("outputs/profile/r0.json").toStdString()}, &why));
        QVERIFY2(why.find("configs disagree") == 0 && why.find("[4]") != std::string::npos &&
                     why.find("[8]") != std::string::npos,
                 why.c_str());
        why.clear();
        QVERIFY(!profiledStepsNear({d.filePath("elsewhere/r0.json").toStdString()}, &why));
        QVERIFY(why.empty());
    }

    // The demo profiled steps 5 and 6: the phase table says 5 and 6, and where it read that.
    // The same exports without their config: counted 1 and 2, and a config listing three steps
    // for the two the reports hold is not believed.
    void phaseTableNumbersTheProfiledSteps()
    {
        std::vector<std::string> paths;
        for (const auto &r : m_demo.reports)
            paths.push_back(r.path);
        PhaseTable t = computePhaseTable(load(paths), PhaseMapping::defaults());
        QCOMPARE(distinctSteps(t), (std::vector<int64_t>{5, 6}));
        QVERIFY(!t.stepsCounted);
        QCOMPARE(t.stepsFrom, "cluster.profiling.steps in " + m_demo.configPath);

        QTemporaryDir bare;
        std::vector<std::string> copies;
        for (const auto &r : m_demo.reports) {
            const QString to = bare.filePath("reports/" + QFileInfo(QString::fromStdString(r.path)).fileName());
            QDir().mkpath(bare.filePath("reports"));
            QVERIFY(QFile::copy(QString::fromStdString(r.path), to));
            copies.push_back(to.toStdString());
        }
        t = computePhaseTable(load(copies), PhaseMapping::defaults());
        QCOMPARE(distinctSteps(t), (std::vector<int64_t>{1, 2}));
        QVERIFY(t.stepsCounted && t.stepsFrom.empty() && t.stepsNote.empty());

        writeText(bare.filePath("config/run.yaml"), "cluster:\n  profiling:\n    steps: [1, 2, 3]\n");
        t = computePhaseTable(load(copies), PhaseMapping::defaults());
        QCOMPARE(distinctSteps(t), (std::vector<int64_t>{1, 2}));
        QVERIFY(t.stepsCounted);
        QVERIFY2(t.stepsNote.find("lists 3 step(s), the reports hold 2") != std::string::npos, t.stepsNote.c_str());
    }

    // verl's capture ranges: nsys writes worker_process_<PID>.<RID> per profiled step, RID 1, 2, 3
    // in capture order. Without a config they are steps 1-3 "by capture order", said so; with
    // verl's global_profiler.steps beside them they are the steps it lists.
    void verlCaptureRangesTakeTheConfigsSteps()
    {
        QTemporaryDir runs;
        QDir().mkpath(runs.filePath("nsight"));
        std::vector<std::string> captures;
        for (int capture = 1; capture <= 3; ++capture) {
            ps::core::demo::DemoOptions o;
            o.outDir = runs.filePath(QStringLiteral("demo%1").arg(capture)).toStdString();
            o.ranks = 2;
            o.steps = 1;
            o.seed = uint64_t(capture);
            ps::core::demo::DemoResult demo;
            std::string error;
            QVERIFY2(ps::core::demo::writeDemoRun(o, demo, error), error.c_str());
            for (size_t rank = 0; rank < demo.reports.size(); ++rank) {
                const QString to =
                    runs.filePath(QStringLiteral("nsight/worker_process_%1.%2.sqlite").arg(4000 + rank).arg(capture));
                QVERIFY(QFile::copy(QString::fromStdString(demo.reports[rank].path), to));
                captures.push_back(to.toStdString());
            }
        }
        PhaseTable t = computePhaseTable(load(captures), PhaseMapping::defaults());
        QCOMPARE(distinctSteps(t), (std::vector<int64_t>{1, 2, 3}));
        QVERIFY(t.stepsCounted && t.stepsByCapture);
        const ps::test::CliRun text = ps::test::runCli({"trace", "phases", "--no-cache", runs.filePath("nsight")});
        QVERIFY2(text.out.contains("steps numbered by capture order"), qPrintable(text.out + text.err));

        writeText(runs.filePath("nsight/config.yaml"), "global_profiler:\n  tool: nsys\n  steps: [2, 4, 6]\n");
        t = computePhaseTable(load(captures), PhaseMapping::defaults());
        QCOMPARE(distinctSteps(t), (std::vector<int64_t>{2, 4, 6}));
        QVERIFY(!t.stepsCounted && !t.stepsByCapture);
        QCOMPARE(t.stepsFrom, "global_profiler.steps in " + runs.filePath("nsight/config.yaml").toStdString());
        // Each row holds the two ranks' captures of that step.
        for (const PhaseRow &r : t.rows)
            QCOMPARE(std::count_if(r.cells.begin(), r.cells.end(), [](const PhaseCell &c) { return c.present; }), 2);
    }

    // Ranges that name their step ("step 7") number the phases inside them, with no config.
    void stepRangesInTheData()
    {
        tr::StoreBuilder b;
        const tr::TrackHandle h = b.track({tr::TrackKind::NvtxPushPop, 100, 11, 0});
        for (int s = 0; s < 2; ++s) {
            const int64_t t0 = s * 100;
            b.add(h, t0, t0 + 90, b.intern("step " + std::to_string(7 + s)));
            b.add(h, t0 + 10, t0 + 40, b.intern("run_training"));
        }
        const tr::EventStore store = std::move(b).build();
        bool counted = true;
        const std::vector<PhaseOccurrence> phases = findPhases(store, PhaseMapping::defaults(), std::nullopt, &counted);
        QVERIFY(!counted);
        QCOMPARE(phases.size(), size_t(2));
        QCOMPARE(phases[0].step, int64_t(7));
        QCOMPARE(phases[1].step, int64_t(8));
    }

    // `trace phases` says the steps and where they come from, as text and JSON.
    void cliSaysWhereTheStepsComeFrom()
    {
        const QString dir = QString::fromStdString(m_demo.reportDir);
        const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        ps::test::CliRun r = ps::test::runCli({"trace", "phases", "--no-cache", dir}, env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(
            r.out.contains(QString::fromStdString("steps numbered as cluster.profiling.steps in " + m_demo.configPath)),
            qPrintable(r.out));
        QVERIFY2(QRegularExpression("\\n\\s+5  update_actor").match(r.out).hasMatch(), qPrintable(r.out));
        QVERIFY(!QRegularExpression("\\n\\s+1  update_actor").match(r.out).hasMatch());
        r = ps::test::runCli({"trace", "phases", "--no-cache", "--format", "json", dir}, env);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["steps_counted"].toBool(), false);
        QCOMPARE(o["steps_from"].toString(), QString::fromStdString("cluster.profiling.steps in " + m_demo.configPath));
        QCOMPARE(o["rows"].toArray().first().toObject()["step"].toInt(), 5);
    }

    // `trace collectives` puts its instances in the same steps as `trace phases`: 5 and 6.
    void collectivesPerPhaseSayTheSameSteps()
    {
        const QString dir = QString::fromStdString(m_demo.reportDir);
        const ps::test::CliRun r = ps::test::runCli({"trace", "collectives", "--no-cache", "--format", "json", dir},
                                                    QProcessEnvironment::systemEnvironment());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        std::set<int> steps;
        for (const QJsonValue &p : QJsonDocument::fromJson(r.out.toUtf8()).object()["phases"].toArray())
            steps.insert(p.toObject()["step"].toInt());
        QCOMPARE(steps, (std::set<int>{5, 6}));
    }
};

QTEST_GUILESS_MAIN(TestStepNumbering)
#include "tst_stepnumbering.moc"
