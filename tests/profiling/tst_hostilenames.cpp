// Every artefact ProfStudio generates from names (collect.sh, launch.sh, the Ray digest job and
// the `ray job submit` line) is run, as a user runs it, with the sixteen hostile names of
// tests/support/hostilenames.h as folders, config label, working dir and arguments: bash and
// python3 execute them with stand-ins for rsync, ray and profstudio-cli on PATH that record the
// argv they get. Nothing injected may run (no $PS_PWNED file appears), and each name arrives at
// the stand-in byte for byte. The collect script also copies the folders for real (rsync on
// localhost), and a newline in --experiment-name / --log-path goes through the real plan.

#include "core/configedit/launchscript.h"
#include "core/profiling/collectscript.h"
#include "core/profiling/exporters.h"
#include "core/profiling/raydigestjob.h"
#include "profilingtestutil.h"
#include "tests/support/hostilenames.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace ps::core::profiling;
using Argv = std::vector<std::string>;

namespace {

struct Proc
{
    int code = -1;
    QString out, err;
};

Proc runIn(const QString &cwd, const QString &program, const QStringList &args, const QProcessEnvironment &env)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(cwd);
    p.start(program, args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

QString fromBytes(const std::string &s)
{
    return QFile::decodeName(QByteArray::fromStdString(s));
}

std::vector<std::string> names()
{
    std::vector<std::string> out;
    for (const ps::test::HostileName &h : ps::test::hostileNames())
        out.push_back(h.name);
    return out;
}

// All sixteen names in one label (config labels land in comments and in Python).
std::string hostileLabel()
{
    std::string label;
    for (const std::string &n : names())
        label += n + "|";
    return label;
}

// A plan whose rank 0 writes into a folder of every hostile name, relative to its working dir.
LaunchPlan hostilePlan()
{
    LaunchPlan plan;
    plan.framework = Framework::RLinf;
    WorkerLaunch w;
    w.name = "ActorGroup:0";
    w.wrapped = true;
    for (const std::string &n : names()) {
        plan.collect.push_back({0, n});
        w.outputs.push_back(n + "/rlinf_profile_ActorGroup_0_<PID>.nsys-rep");
    }
    plan.workers.push_back(w);
    return plan;
}

std::string quoteList(const Argv &argv)
{
    std::string out;
    for (const std::string &a : argv)
        out += "[" + a + "] ";
    return out;
}

} // namespace

class TestHostileNames : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_pwned, m_bin, m_log, m_node;

    QProcessEnvironment env() const
    {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert("PS_PWNED", m_pwned);
        e.insert("PATH", m_bin + ":" + e.value("PATH"));
        e.insert("STANDIN_LOG", m_log);
        return e;
    }

    // A stand-in that records its argv (NUL-separated, one file per call) and prints `output`.
    void writeStandIn(const QString &name, const QByteArray &output = {})
    {
        QFile f(m_bin + "/" + name);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/bash\nf=$(mktemp \"$STANDIN_LOG/$(basename \"$0\").XXXXXX\")\nprintf '%s\\0' \"$@\" > \"$f\"\n"
                "printf '%s' '" +
                output + "'\n");
        f.close();
        QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    }

    // The argv of every call of the stand-in `tool` since the log was last cleared.
    std::vector<Argv> calls(const QString &tool) const
    {
        std::vector<Argv> out;
        for (const QString &f : QDir(m_log).entryList({tool + ".*"}, QDir::Files, QDir::Name)) {
            QFile file(m_log + "/" + f);
            if (!file.open(QIODevice::ReadOnly))
                continue;
            const std::string all = file.readAll().toStdString();
            Argv argv;
            for (size_t at = 0, nul; (nul = all.find('\0', at)) != std::string::npos; at = nul + 1)
                argv.push_back(all.substr(at, nul - at));
            out.push_back(argv);
        }
        return out;
    }

    void clearLog() { QVERIFY(QDir(m_log).removeRecursively() && QDir().mkpath(m_log)); }

    QString write(const QString &name, const std::string &text)
    {
        const QString path = m_tmp.filePath(name);
        std::ofstream(path.toStdString(), std::ios::binary) << text;
        return path;
    }

    void expectNothingInjected(const QString &what)
    {
        QVERIFY2(!QFile::exists(m_pwned), qPrintable(what + ": an injected command ran"));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_pwned = m_tmp.filePath("PWNED");
        m_bin = m_tmp.filePath("bin");
        m_log = m_tmp.filePath("log");
        m_node = m_tmp.filePath("node");
        QVERIFY(QDir().mkpath(m_bin) && QDir().mkpath(m_log));
        // The node's folders, one per name, each with a digest.
        for (const std::string &n : names()) {
            const QString dir = m_node + "/" + fromBytes(n);
            QVERIFY2(QDir().mkpath(dir), qPrintable(dir));
            QFile f(dir + "/r.psdigest");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("digest");
        }
        QCOMPARE(QDir(m_node).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 16);
    }

    // collect.sh against a remote host: one rsync per folder, protected arguments, `--` before
    // the paths, each path exactly the folder's name.
    void collectScriptRemote()
    {
        writeStandIn("rsync");
        clearLog();
        const std::string script = exportCollectScript(hostilePlan(), hostileLabel());
        const QString path = write("collect.sh", script);
        const QString dest = m_tmp.filePath("got");
        QProcessEnvironment e = env();
        e.insert("DEST", dest);
        const Proc p = runIn(m_node, "bash", {path, "node0"}, e);
        expectNothingInjected("collect.sh");
        QVERIFY2(p.code == 1 || p.code == 0, qPrintable(p.err)); // 1: the stand-in copies no digest
        const std::vector<Argv> got = calls("rsync");
        QCOMPARE(got.size(), names().size());
        for (const std::string &n : names()) {
            const Argv *call = nullptr;
            for (const Argv &a : got)
                if (a.size() >= 2 && a[a.size() - 2] == "node0:./" + n + "/")
                    call = &a;
            QVERIFY2(call, ("no rsync of " + n).c_str());
            QCOMPARE(call->back(), dest.toStdString() + "/node0/" + n + "/");
            QVERIFY2(std::find(call->begin(), call->end(), "-s") != call->end(), quoteList(*call).c_str());
            QCOMPARE((*call)[call->size() - 3], std::string("--"));
        }
        // A host that is an option is refused before anything runs.
        clearLog();
        const Proc bad = runIn(m_node, "bash", {path, "-oProxyCommand=touch $PS_PWNED"}, e);
        QCOMPARE(bad.code, 2);
        QVERIFY(calls("rsync").empty());
        expectNothingInjected("collect.sh with an option as host");
    }

    // collect.sh with the real rsync on localhost: every folder is copied, names intact.
    void collectScriptCopiesLocally()
    {
        QFile::remove(m_bin + "/rsync");
        const QString path = write("collect.sh", exportCollectScript(hostilePlan(), hostileLabel()));
        const QString dest = m_tmp.filePath("local");
        QProcessEnvironment e = env();
        e.insert("DEST", dest);
        const Proc p = runIn(m_node, "bash", {path, "localhost"}, e);
        expectNothingInjected("collect.sh localhost");
        QVERIFY2(p.code == 0, qPrintable(p.out + p.err));
        for (const std::string &n : names())
            QVERIFY2(QFile::exists(dest + "/localhost/" + fromBytes(n) + "/r.psdigest"), n.c_str());
    }

    // The Ray job: compiles, runs under a stand-in Ray on a node holding every folder, and hands
    // profstudio-cli the folders after `--`, exactly; CONFIG holds the label's bytes.
    void rayDigestJob()
    {
        clearLog();
        writeStandIn("profstudio-cli", "{\"digests\": [], \"failures\": []}");
        const QString job = write("profstudio_digest_job.py", exportRayDigestJob(hostilePlan(), hostileLabel()));
        QProcessEnvironment e = env();
        const Proc compiled = runIn(m_tmp.path(), "/usr/bin/python3", {"-m", "py_compile", job}, e);
        QVERIFY2(compiled.code == 0, qPrintable(compiled.err));
        const Proc config = runIn(m_tmp.path(), "/usr/bin/python3",
                                  {"-c",
                                   "import ast, os, sys\n"
                                   "for node in ast.parse(open(sys.argv[1], 'rb').read()).body:\n"
                                   "    if isinstance(node, ast.Assign) and node.targets[0].id == 'CONFIG':\n"
                                   "        print(os.fsencode(ast.literal_eval(node.value)).hex())\n",
                                   job},
                                  e);
        QCOMPARE(config.out.trimmed(), QString(QByteArray::fromStdString(hostileLabel()).toHex()));
        e.insert("PYTHONPATH", PS_SOURCE_DIR "/tests/profiling/rayshim");
        e.insert("RAY_STANDIN_NODES", "node0=" + m_node);
        e.insert("PROFSTUDIO_CLI", m_bin + "/profstudio-cli");
        const Proc p = runIn(m_tmp.path(), "/usr/bin/python3", {job}, e);
        expectNothingInjected("the Ray job");
        QVERIFY2(p.code == 0, qPrintable(p.out + p.err));
        const std::vector<Argv> got = calls("profstudio-cli");
        QCOMPARE(got.size(), size_t(1));
        Argv want = {"trace", "digest", "--format", "json", "--"};
        for (const std::string &n : names())
            want.push_back(n);
        QCOMPARE(quoteList(got[0]), quoteList(want));
    }

    // launch.sh (comments hold the label and the folders) and the `ray job submit` line it
    // carries, with a hostile working dir and hostile trainer arguments.
    void launchScriptAndSubmitLine()
    {
        writeStandIn("ray");
        AnalysisResult a;
        a.model.framework = Framework::Verl;
        a.launch = hostilePlan();
        a.launch.framework = Framework::Verl;
        Argv driver = {"python3", "-m", "verl.trainer.main_ppo"};
        for (const std::string &n : names())
            driver.push_back("trainer.project_name=" + n);
        LaunchOptions options;
        options.workingDir = names()[6]; // the newline
        a.exports.rayJob = exportRayJob(Framework::Verl, driver, options);
        const QString launch = write("launch.sh", ps::core::configedit::launchScript(a, hostileLabel()));
        const QString submit = write("submit.sh", a.exports.rayJob);
        for (const QString &script : {launch, submit}) {
            clearLog();
            const Proc p = runIn(m_tmp.path(), "bash", {script}, env());
            expectNothingInjected(script);
            QVERIFY2(p.code == 0, qPrintable(p.err));
            const std::vector<Argv> got = calls("ray");
            QCOMPARE(got.size(), size_t(1));
            const Argv &argv = got[0];
            QVERIFY(argv.size() == 5 + driver.size());
            QCOMPARE(quoteList(Argv(argv.begin(), argv.begin() + 3)),
                     quoteList({"job", "submit", "--runtime-env-json"}));
            const QJsonObject env = QJsonDocument::fromJson(QByteArray::fromStdString(argv[3])).object();
            QCOMPARE(env["working_dir"].toString().toStdString(), names()[6]);
            QCOMPARE(argv[4], std::string("--"));
            QCOMPARE(quoteList(Argv(argv.begin() + 5, argv.end())), quoteList(driver));
        }
    }

    // The real plan: --experiment-name and --log-path with a newline (the reproducer)
    // reach the collect script's comments and commands, and the Ray job's literals.
    void experimentNameFromTheCommandLine()
    {
        writeStandIn("rsync");
        clearLog();
        auto c = pstest::rlinfCase("rlinf-with-profile", "maniskill_ppo_mlp", {});
        c.launch.experimentName = "exp\ntouch \"$PS_PWNED\"\n";
        c.launch.logPath = "/mnt/logs\r\n$(touch \"$PS_PWNED\")";
        const auto r = pstest::analyzeCase(c);
        QVERIFY(!r->launch.collect.empty());
        const QString collect = write("collect-exp.sh", r->exports.collect);
        const Proc p = runIn(m_node, "bash", {collect, "node0"}, env());
        expectNothingInjected("collect.sh of the real plan");
        QVERIFY2(p.code == 0 || p.code == 1, qPrintable(p.err));
        const std::vector<Argv> got = calls("rsync");
        QVERIFY(!got.empty());
        bool named = false;
        for (const Argv &a : got)
            named = named || (a.size() >= 2 && a[a.size() - 2].find(*c.launch.experimentName) != std::string::npos);
        QVERIFY2(named, quoteList(got[0]).c_str());
        const QString job = write("job-exp.py", r->exports.rayDigest);
        const Proc compiled = runIn(m_tmp.path(), "/usr/bin/python3", {"-m", "py_compile", job}, env());
        QVERIFY2(compiled.code == 0, qPrintable(compiled.err));
    }
};

QTEST_GUILESS_MAIN(TestHostileNames)
#include "tst_hostilenames.moc"
