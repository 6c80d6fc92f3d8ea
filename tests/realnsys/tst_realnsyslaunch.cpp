// Launch commands checked by the real nsys: `profstudio-cli plan --format json` gives a profiled
// worker's argv and the files it predicts; the worker's Python is replaced by a CPU stand-in
// (python3 pushing NVTX ranges through libnvToolsExt.so.1), run under PS_NSYS with the
// environment Ray's runtime_env gives it (verl: RANK): nsys accepts every option, the reports
// appear exactly where `outputs` says (<PID> = the stand-in's PID, %q{RANK} expanded, .<RID> per
// capture range), and ProfStudio opens them and names their rank when the name holds one.
//
// Capture ranges: cudaProfilerApi never opens without a GPU. One case drops its two options (and
// says so), checking the rest of the argv; the others put an NVTX capture range in its place
// (--capture-range=nvtx on the stand-in's range) and keep capture-range-end, so nsys's own
// .<RID> naming is checked against the prediction.
//
// Every run adds --sample=none --cpuctxsw=none: without them nsys 2022.4's agent often never
// ends once the stand-in exits (its analysis thread spins on epoll_wait, which keeps returning
// EPOLLHUP for the exited process's perf_event descriptors; 7 runs of 8 here, with or without
// cuda or ucx in --trace); with them, every run ended in 2-8 s.

#include "core/trace/read/traceloader.h"
#include "realnsys.h"
#include "tests/support/clirun.h"
#include "tests/support/envguard.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace ps::core::trace;

namespace {

const QString kConfigs = QStringLiteral(PS_TESTDATA_DIR "/configs");
const QString kRLinf = kConfigs + "/rlinf-with-profile/examples/embodiment";
const QString kVerl = kConfigs + "/verl/verl/trainer/config";

// How the argv's cudaProfilerApi capture range is run on a CPU.
enum class Range { None, Dropped, Nvtx };

QJsonObject workerOf(const QStringList &planArgs, const QString &name)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("EMBODIED_PATH", kRLinf);
    const ps::test::CliRun r = ps::test::runCli(QStringList{"plan", "--format", "json"} + planArgs, env);
    for (const QJsonValue &w : QJsonDocument::fromJson(r.out.toUtf8()).object()["workers"].toArray())
        if (w["name"].toString() == name)
            return w.toObject();
    qWarning("%s", qPrintable(r.err));
    return {};
}

QStringList withCaptureRange(QStringList argv, Range range)
{
    const qsizetype at = argv.indexOf("--capture-range=cudaProfilerApi");
    if (at < 0 || range == Range::None)
        return argv;
    if (range == Range::Nvtx) {
        argv.replace(at, "--capture-range=nvtx");
        argv.insert(at + 1, "--nvtx-capture=update_actor");
        return argv;
    }
    argv.removeAt(at);
    argv.erase(
        std::remove_if(argv.begin(), argv.end(), [](const QString &a) { return a.startsWith("--capture-range-end="); }),
        argv.end());
    return argv;
}

// The argv with CPU sampling and context-switch tracing off (the hang above: both open
// perf_event descriptors, and either alone hung too); `replaced` lists the argv's own values
// that had to go.
QStringList withoutPerfEvents(QStringList argv, QStringList &replaced)
{
    for (const QString name : {"--cpuctxsw=", "--sample="}) {
        const auto own = std::find_if(argv.begin(), argv.end(), [&](const QString &a) { return a.startsWith(name); });
        if (own == argv.end()) {
            argv.insert(2, name + "none");
        } else if (*own != name + "none") {
            replaced << *own;
            *own = name + "none";
        }
    }
    return argv;
}

// The worker's argv under PS_NSYS with the stand-in for its Python, which opens `ranges` NVTX
// ranges named update_actor.
QStringList runnable(const QJsonObject &worker, Range range, const QString &pidFile, int ranges)
{
    QStringList argv;
    for (const QJsonValue &a : worker["argv"].toArray())
        argv << a.toString();
    argv.removeLast(); // the worker's Python
    argv[0] = realnsys::nsys();
    argv = withCaptureRange(argv, range);
    return argv << "python3"
                << "-c"
                << "import os, ctypes; open('" + pidFile + "', 'w').write(str(os.getpid())); n = ctypes.CDLL('" +
                       realnsys::nvtxLibrary() + "')\nfor _ in range(" + QString::number(ranges) +
                       "): n.nvtxRangePushA(b'update_actor'); n.nvtxRangePop()";
}

// The environment Ray's runtime_env gives the worker: its planned env, and verl's RANK.
QProcessEnvironment workerEnv(const QJsonObject &worker)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QJsonObject planned = worker["env"].toObject();
    for (auto it = planned.begin(); it != planned.end(); ++it)
        env.insert(it.key(), it.value().toString());
    if (worker["group"].toString() == "global_pool")
        env.insert("RANK", QString::number(worker["rank"].toInt()));
    env.insert("NSYS_NVTX_PROFILER_REGISTER_ONLY", "0"); // the NVTX capture range matches unregistered names
    return env;
}

// The argv as planned, options nsys would hang with included: nsys checks its options before it
// starts the program, so a run that launched the stand-in (its pid file written) accepted them,
// whether or not nsys then ended.
bool acceptsOptions(const QStringList &argv, const QProcessEnvironment &env, const QString &pidFile, QString &said)
{
    QFile::remove(pidFile);
    const int code = realnsys::run(argv[0], argv.mid(1), &said, 20, env);
    if (code == -1)
        qInfo("nsys hung after starting the stand-in, as expected with sampling on");
    return (code == 0 || code == -1) && QFileInfo::exists(pidFile);
}

// Runs nsys; a run that still hangs is retried once, then fails the test: none passes unrun.
bool runUnderNsys(const QStringList &argv, const QProcessEnvironment &env, QString &said)
{
    for (int attempt = 1; attempt <= 2; ++attempt) {
        const int code = realnsys::run(argv[0], argv.mid(1), &said, 60, env);
        if (code != -1)
            return code == 0;
        qInfo("nsys hung (attempt %d of 2): %s", attempt, qPrintable(said.right(300)));
    }
    return false;
}

// The reports `outputs` predicts for this run: <PID> known, <RID> = 1..ranges (none when dropped).
QStringList predicted(QString output, const QString &pid, Range range, int ranges)
{
    output.replace("<PID>", pid);
    if (!output.contains(".<RID>"))
        return {output};
    if (range != Range::Nvtx)
        return {output.remove(".<RID>")};
    QStringList files;
    for (int rid = 1; rid <= ranges; ++rid)
        files << QString(output).replace("<RID>", QString::number(rid));
    return files;
}

} // namespace

Q_DECLARE_METATYPE(Range)

class TestRealNsysLaunch : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QStringList verl(const QStringList &more) const
    {
        return QStringList{"--ray-session-dir",
                           m_dir.filePath("ray"),
                           "--config-dir",
                           kVerl,
                           "--config-name",
                           "ppo_trainer",
                           "global_profiler.tool=nsys",
                           "global_profiler.steps=[1]"} +
               more;
    }

    // Opens one report as ProfStudio does; checks its NVTX range, pid and rank.
    void openReport(const QString &path, int pid, int rank, int rid)
    {
        QTemporaryDir cache;
        const ps::test::EnvGuard nsys("PROFSTUDIO_NSYS", realnsys::nsys().toUtf8());
        const ps::test::EnvGuard cacheDir("PROFSTUDIO_CACHE_DIR", cache.path().toUtf8());
        std::string error;
        const ReportPtr report = loadReport(path.toStdString(), ReadContext{}, error);
        QVERIFY2(report, error.c_str());
        QCOMPARE(report->store->count(TrackKind::NvtxPushPop), size_t(1));
        QCOMPARE(report->identity.pid.value_or(0), uint32_t(pid));
        QCOMPARE(report->identity.rank.value_or(-1), rank);
        QCOMPARE(report->identity.step.value_or(-1), rid);
    }

private slots:
    void initTestCase()
    {
        REALNSYS_REQUIRE();
        QVERIFY(m_dir.isValid());
    }

    void workerUnderNsys_data()
    {
        QTest::addColumn<QStringList>("plan");
        QTest::addColumn<QString>("worker");
        QTest::addColumn<Range>("range");
        QTest::addColumn<int>("ranges"); // NVTX ranges the stand-in opens
        QTest::addColumn<int>("rank");   // the rank ProfStudio names, -1 none (the name holds none)
        const QString actor = "actor_rollout_ref.actor.profiler.enable=True";
        QTest::newRow("verl whole process") << verl({}) << "TaskRunner" << Range::None << 1 << -1;
        QTest::newRow("verl capture range, cudaProfilerApi dropped")
            << verl({actor}) << "global_pool:0" << Range::Dropped << 1 << -1;
        QTest::newRow("verl capture range, nvtx in its place")
            << verl({actor}) << "global_pool:0" << Range::Nvtx << 2 << -1;
        // validate's fix for verl.o-without-rank, on a rank other than 0.
        QTest::newRow("verl o with %q{RANK}")
            << verl({actor, "actor_rollout_ref.actor.profiler.all_ranks=True", "trainer.n_gpus_per_node=4",
                     "+global_profiler.global_tool_config.nsys.worker_nsight_options.o='worker_process_rank%q{RANK}_%"
                     "p'"})
            << "global_pool:3" << Range::Nvtx << 2 << 3;
        QTest::newRow("rlinf") << QStringList{"--log-path",
                                              m_dir.filePath("rlinf"),
                                              "--config-dir",
                                              kRLinf + "/config",
                                              "--config-name",
                                              "maniskill_ppo_mlp",
                                              "+cluster.profiling.steps=[3]"}
                               << "ActorGroup:0" << Range::Dropped << 1 << 0;
    }

    void workerUnderNsys()
    {
        QFETCH(QStringList, plan);
        QFETCH(QString, worker);
        QFETCH(Range, range);
        QFETCH(int, ranges);
        QFETCH(int, rank);
        const QJsonObject w = workerOf(plan, worker);
        QVERIFY2(!w.isEmpty() && !w["outputs"].toArray().isEmpty(), qPrintable(worker));
        const QString pidFile = m_dir.filePath(QString(QTest::currentDataTag()).replace(' ', '_') + ".pid");
        QStringList replaced;
        const QStringList planned = runnable(w, range, pidFile, ranges);
        const QStringList argv = withoutPerfEvents(planned, replaced);
        if (range == Range::Dropped)
            qInfo("%s: its capture range (cudaProfilerApi) opens only on a GPU: run without it", qPrintable(worker));
        if (range == Range::Nvtx)
            qInfo("%s: an NVTX capture range in place of cudaProfilerApi (GPU only)", qPrintable(worker));
        const QString output = w["outputs"].toArray()[0].toString();
        QVERIFY(QDir().mkpath(QFileInfo(output).absolutePath()));
        QString said;
        if (!replaced.isEmpty()) {
            qInfo("%s: %s set to none (nsys 2022.4 hangs with them): first checked as planned", qPrintable(worker),
                  qPrintable(replaced.join(", ")));
            QVERIFY2(acceptsOptions(planned, workerEnv(w), pidFile, said), qPrintable(said));
            QDir(QFileInfo(output).absolutePath()).removeRecursively(); // the planned run's report, if it ended
            QVERIFY(QDir().mkpath(QFileInfo(output).absolutePath()));
        }
        QVERIFY2(runUnderNsys(argv, workerEnv(w), said), qPrintable(argv.join(' ') + "\n" + said));
        QFile pidOf(pidFile);
        QVERIFY2(pidOf.open(QIODevice::ReadOnly), qPrintable(said));
        const QString pid = QString::fromUtf8(pidOf.readAll()).trimmed();
        const QStringList files = predicted(output, pid, range, ranges);
        QDir dir(QFileInfo(output).absolutePath());
        const QStringList written = dir.entryList({"*" + pid + "*.nsys-rep"}, QDir::Files, QDir::Name);
        QCOMPARE(written.size(), files.size());
        for (int i = 0; i < files.size(); ++i) {
            QVERIFY2(QFileInfo::exists(files[i]), qPrintable(files[i] + "\nwritten: " + written.join(' ')));
            openReport(files[i], pid.toInt(), rank, range == Range::Nvtx ? i + 1 : -1);
        }
    }
};

QTEST_GUILESS_MAIN(TestRealNsysLaunch)
#include "tst_realnsyslaunch.moc"
