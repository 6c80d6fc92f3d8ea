// A simulated cluster, end to end: a 16-rank demo run whose reports sit in two "node" folders
// (each plays one node's filesystem; the run's relative output folder resolves inside it), as
// the launch plan places the ranks. The Ray digest job that `export --as ray-digest` writes runs
// with /usr/bin/python3 against a stand-in `ray` module (tests/profiling/rayshim: Ray is not
// packaged in Debian) that records its calls and runs each pinned task in its node's folder: the
// same per-node function the real task runs. The collect script then fetches the digests from
// both nodes by rsync over a stand-in ssh (it runs the remote rsync in the node's folder), and the
// gathered folder opens as one run whose statistics and stragglers equal the raw reports'.

#include "core/trace/read/traceloader.h"
#include "profilingtestutil.h"
#include "tests/support/clirun.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace ps::core::profiling;

namespace {

struct Proc
{
    int code = -1;
    QString out, err;
};

Proc runProcess(const QString &program, const QStringList &args, const QProcessEnvironment &env)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(180000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

// A `trace` command's JSON with the folders and the digest suffix taken out of every path.
QString runJson(const QStringList &args, const QString &folder)
{
    const ps::test::CliRun r = ps::test::runCli(args + QStringList{"--format", "json", "--no-cache", folder});
    QString out = r.out;
    out.replace(".psdigest", "");
    out.replace(QRegularExpression("\"[^\"]*/(rlinf_profile_[^\"/]*)\""), "\"\\1\"");
    out.replace(QRegularExpression("(\"steps_from\": \"[a-z_.]+ in )[^\"]*/"), "\\1"); // the config's folder
    return r.exitCode == 0 ? out : "exit " + QString::number(r.exitCode) + ": " + r.err;
}

} // namespace

class TestSimulatedCluster : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

    bool writeExecutable(const QString &path, const QByteArray &text)
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
            return false;
        f.close();
        return f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }

private slots:
    void digestOnNodesCollectOpenAsOneRun()
    {
        const QString run = m_tmp.filePath("run"), nodes = m_tmp.filePath("nodes");
        QCOMPARE(ps::test::runCli({"demo", "--out", run, "--ranks", "16", "--steps", "1"}).exitCode, 0);
        pstest::Case c;
        c.configDirs = {(run + "/config").toStdString()};
        c.configName = "maniskill_ppo_demo";
        c.overrides = {"cluster.profiling.output_dir=profiling"};
        const auto plan = pstest::analyzeCase(c);

        // Each rank's report on the node the plan puts it on.
        QSet<long long> nodeIds;
        for (const WorkerLaunch &w : plan->launch.workers) {
            if (!w.wrapped)
                continue;
            const QString dir = QString("%1/node%2/profiling").arg(nodes).arg(w.node);
            QVERIFY(QDir().mkpath(dir));
            const QStringList found =
                QDir(run + "/profiling").entryList({QString("rlinf_profile_ActorGroup_%1_*.sqlite").arg(w.rank)});
            QCOMPARE(found.size(), 1);
            QVERIFY(QFile::copy(run + "/profiling/" + found[0], dir + "/" + found[0]));
            // Ray ships the job's working directory, its Hydra config included, to every node.
            QDir().mkpath(QString("%1/node%2/config").arg(nodes).arg(w.node));
            QFile::copy(run + "/config/maniskill_ppo_demo.yaml",
                        QString("%1/node%2/config/maniskill_ppo_demo.yaml").arg(nodes).arg(w.node));
            nodeIds.insert(w.node);
        }
        QCOMPARE(nodeIds.size(), 2);
        QString standInNodes;
        for (long long n : nodeIds)
            standInNodes += QString("node%1=%2/node%1;").arg(n).arg(nodes);

        // The Ray job: a damaged report on node 1 fails alone, and the job says so.
        const QString job = m_tmp.filePath("profstudio_digest_job.py");
        std::ofstream(job.toStdString()) << plan->exports.rayDigest;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PYTHONPATH", PS_SOURCE_DIR "/tests/profiling/rayshim");
        env.insert("RAY_STANDIN_NODES", standInNodes);
        env.insert("RAY_STANDIN_LOG", m_tmp.filePath("ray.log"));
        env.insert("PROFSTUDIO_CLI", PS_BIN_DIR "/profstudio-cli");
        env.insert("PROFSTUDIO_CACHE_DIR", m_tmp.filePath("cache"));
        const QString damaged = nodes + "/node1/profiling/rlinf_profile_ActorGroup_99_1.sqlite";
        QVERIFY(writeExecutable(damaged, "not a report"));
        const Proc bad = runProcess("/usr/bin/python3", {job}, env);
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.contains("failed on node1") && bad.err.contains("rlinf_profile_ActorGroup_99_1.sqlite"),
                 qPrintable(bad.out + bad.err));
        QVERIFY(QFile::remove(damaged));
        QVERIFY(QFile::remove(m_tmp.filePath("ray.log")));
        const Proc ok = runProcess("/usr/bin/python3", {job}, env);
        QVERIFY2(ok.code == 0, qPrintable(ok.out + ok.err));
        QVERIFY2(ok.out.contains("node node0: 8 report(s) digested, 0 failed") &&
                     ok.out.contains("node node1: 8 report(s) digested, 0 failed") &&
                     ok.out.contains("16 report(s) digested on 2 node(s)"),
                 qPrintable(ok.out));
        // One task per node, pinned to it (not soft), as Ray was asked.
        QFile log(m_tmp.filePath("ray.log"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QStringList pinned;
        for (const QByteArray &line : log.readAll().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o["call"].toString() == "init")
                QCOMPARE(o["address"].toString(), QString("auto"));
            if (o["call"].toString() != "task")
                continue;
            QCOMPARE(o["strategy"].toString(), QString("NodeAffinitySchedulingStrategy"));
            QCOMPARE(o["soft"].toBool(true), false);
            QCOMPARE(o["args"].toArray().at(0).toArray().at(0).toString(), QString("profiling"));
            pinned << o["node_id"].toString();
        }
        pinned.sort();
        QCOMPARE(pinned, (QStringList{"node0", "node1"}));

        // Collect: digests only, from both nodes, over a stand-in ssh.
        const QString collect = m_tmp.filePath("collect.sh"), ssh = m_tmp.filePath("ssh");
        std::ofstream(collect.toStdString()) << plan->exports.collect;
        QVERIFY(writeExecutable(ssh, "#!/bin/sh\n# ssh HOST COMMAND...: run COMMAND in HOST's node folder\n"
                                     "host=$1; shift\ncd \"$SIM_NODES/$host\" && exec sh -c \"$*\"\n"));
        QProcessEnvironment cenv = QProcessEnvironment::systemEnvironment();
        cenv.insert("RSYNC_RSH", ssh);
        cenv.insert("SIM_NODES", nodes);
        cenv.insert("DEST", m_tmp.filePath("got"));
        QStringList hosts;
        for (long long n = 0; n < 2; ++n)
            hosts << QString("node%1").arg(n);
        const Proc got = runProcess("bash", QStringList{collect} + hosts, cenv);
        QVERIFY2(got.code == 0, qPrintable(got.out + got.err));
        int digests = 0, raw = 0;
        for (QDirIterator it(m_tmp.filePath("got"), QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
            const QString f = it.next();
            (f.endsWith(".psdigest") ? digests : raw) += 1;
        }
        QCOMPARE(digests, 16);
        QCOMPARE(raw, 0);

        // One run (the collected folder), each report with the node it came from.
        ps::core::trace::LoadOptions lo;
        lo.useCache = false;
        const auto loaded = ps::core::trace::loadReports({m_tmp.filePath("got").toStdString()}, lo);
        QCOMPARE(loaded.reports.size(), size_t(16));
        for (const auto &r : loaded.reports) {
            QCOMPARE(r->identity.run, std::string("got"));
            QVERIFY2(r->identity.host == "node0" || r->identity.host == "node1", r->identity.host.c_str());
        }
        // The gathered digests open as the run: same statistics, phases and stragglers.
        for (const QStringList &cmd : {QStringList{"trace", "stats"}, QStringList{"trace", "phases"}}) {
            const QString fromRaw = runJson(cmd, run + "/profiling");
            QVERIFY2(!fromRaw.startsWith("exit"), qPrintable(fromRaw));
            QCOMPARE(runJson(cmd, m_tmp.filePath("got")), fromRaw);
        }
    }
};

QTEST_GUILESS_MAIN(TestSimulatedCluster)
#include "tst_simulatedcluster.moc"
