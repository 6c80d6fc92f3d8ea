// verl main's finish hook digests a worker's reports where they were written: the plan of a real
// verl main config with finish_hook_cmd set to ProfStudio's digest hook gives the hook's argv and
// environment (VERL_PROFILE_*, V3 of ../shared/spec/profiling-config-2026.md); the test runs that
// argv for real (/bin/sh -c, the built profstudio-cli on PATH) with that environment, its two
// folders moved into a temporary directory and <PID> made a pid. nsys cannot run here: a stand-in
// `nsys` on PATH "exports" a .nsys-rep by copying a real nsys SQLite export to the path asked for.

#include "core/profiling/digesthook.h"
#include "core/trace/persist/digest.h"
#include "profilingtestutil.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace ps::core::profiling;

namespace {

const char *const kStandInNsys = R"SH(#!/bin/sh
# nsys export --type sqlite --force-overwrite true --output OUT REPORT
out=""
prev=""
for a in "$@"; do
  if [ "$prev" = "--output" ]; then out="$a"; fi
  prev="$a"
done
cp "$STAND_IN_EXPORT" "$out"
)SH";

bool writeFile(const QString &path, const QByteArray &bytes, bool executable = false)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        return false;
    f.close();
    return !executable || f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

} // namespace

class TestVerlHookDigest : public QObject
{
    Q_OBJECT

private slots:
    // The contract as a pure function of the environment: no worker named is a usage error; the
    // folders come in verl's order; a report is the worker's by pid when its name has one, else by
    // rank; and "nothing found" names the worker and the folders looked in.
    void requestFromTheEnvironment()
    {
        std::map<std::string, std::string> vars;
        const auto env = [&vars](const char *name) {
            const auto it = vars.find(name);
            return it == vars.end() ? static_cast<const char *>(nullptr) : it->second.c_str();
        };
        VerlHookRequest r = verlHookRequest(env);
        QVERIFY(r.error.find(kVerlProfilePid) != std::string::npos);
        vars = {{kVerlProfilePid, "4242"},
                {kVerlProfileRank, "3"},
                {kVerlProfileSavePath, "/runs/save"},
                {kVerlProfileRayNsightDir, "/tmp/ray/nsight"}};
        r = verlHookRequest(env);
        QCOMPARE(r.error, std::string());
        QCOMPARE(r.folders, (std::vector<std::string>{"/tmp/ray/nsight", "/runs/save"}));
        QVERIFY(r.wants(4242u, 7)); // the pid decides when the name has one
        QVERIFY(!r.wants(4243u, 3));
        QVERIFY(r.wants(std::nullopt, 3)); // else the rank
        QVERIFY(!r.wants(std::nullopt, 2));
        QVERIFY(!r.wants(std::nullopt, std::nullopt));
        QCOMPARE(r.nothingFound({"/runs/save"}),
                 std::string("--verl-hook: no report of pid 4242 / rank 3 under /runs/save"));
        QVERIFY(r.nothingFound({}).find("name none that exists") != std::string::npos);
    }

    void planOffersTheHookAndItDigestsTheWorkersReports()
    {
        pstest::Case c;
        c.configDirs = {pstest::testdata("configs/expected-verl/verl-main-relocate-hook")};
        c.configName = "expected";
        c.overrides = {std::string("global_profiler.finish_hook_cmd='") + kVerlDigestHookCommand + "'"};
        const auto r = pstest::analyzeCase(c);
        const WorkerLaunch &w = r->launch.workers.at(1);
        QCOMPARE(w.hooks.size(), size_t(1));
        const HookRun &hook = w.hooks[0];
        QCOMPARE(hook.argv, (std::vector<std::string>{"/bin/sh", "-c", kVerlDigestHookCommand}));

        // The worker's folders: its relocated reports in save_path, Ray's nsight folder.
        QTemporaryDir tmp;
        const QString save = tmp.filePath("save"), nsight = tmp.filePath("nsight"), bin = tmp.filePath("bin");
        for (const QString &d : {save, nsight, bin})
            QVERIFY(QDir().mkpath(d));
        const QString sample = QStringLiteral(PS_TESTDATA_DIR "/traces/nsys/ppcu-lab7__report1.sqlite");
        QVERIFY(writeFile(save + "/actor_rollout_node7_worker_process_4242.1.nsys-rep", "stand-in report"));
        QVERIFY(QFile::copy(sample, nsight + "/worker_process_4242.2.sqlite"));
        QVERIFY(QFile::copy(sample, nsight + "/worker_process_777.1.sqlite")); // another worker
        QVERIFY(writeFile(bin + "/nsys", kStandInNsys, true));

        QProcessEnvironment env;
        for (const auto &[name, value] : hook.env)
            env.insert(QString::fromStdString(name), QString::fromStdString(value));
        QCOMPARE(env.value("VERL_PROFILE_PID"), QString("<PID>"));
        QCOMPARE(env.value("VERL_PROFILE_RANK"), QString("0"));
        env.insert("VERL_PROFILE_PID", "4242");
        env.insert("VERL_PROFILE_SAVE_PATH", save);
        env.insert("VERL_PROFILE_RAY_NSIGHT_DIR", nsight);
        env.insert("PATH", bin + ":" + PS_BIN_DIR + ":/usr/bin:/bin");
        env.insert("HOME", tmp.path());
        env.insert("PROFSTUDIO_CACHE_DIR", tmp.filePath("cache"));
        env.insert("STAND_IN_EXPORT", sample);
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QString::fromStdString(hook.argv[0]),
                {QString::fromStdString(hook.argv[1]), QString::fromStdString(hook.argv[2])});
        QVERIFY(p.waitForFinished(120000));
        const QString out = p.readAllStandardOutput(), err = p.readAllStandardError();
        QVERIFY2(p.exitCode() == 0, qPrintable(out + err));
        QVERIFY2(out.contains("2 of 2 report(s) digested"), qPrintable(out));

        // Each of the worker's reports has its digest beside it, the other worker's none.
        for (const QString &report :
             {save + "/actor_rollout_node7_worker_process_4242.1.nsys-rep", nsight + "/worker_process_4242.2.sqlite"}) {
            std::string error;
            const auto d = ps::core::trace::readDigest((report + ".psdigest").toStdString(), error);
            QVERIFY2(d, error.c_str());
            QCOMPARE(d->identity.pid, std::optional<uint32_t>(4242));
            QVERIFY(d->store->eventCount() > 0);
        }
        QVERIFY(!QFile::exists(nsight + "/worker_process_777.1.sqlite.psdigest"));

        // Run outside a verl hook, it says what is missing.
        QProcess bare;
        QProcessEnvironment plain;
        plain.insert("PATH", QString(PS_BIN_DIR) + ":/usr/bin:/bin");
        bare.setProcessEnvironment(plain);
        bare.start("/bin/sh", {"-c", kVerlDigestHookCommand});
        QVERIFY(bare.waitForFinished(60000));
        QCOMPARE(bare.exitCode(), 2);
        QVERIFY(QString(bare.readAllStandardError()).contains("VERL_PROFILE_PID"));
    }
};

QTEST_GUILESS_MAIN(TestVerlHookDigest)
#include "tst_verlhookdigest.moc"
