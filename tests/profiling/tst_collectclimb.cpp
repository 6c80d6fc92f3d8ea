// collect.sh writes only below DEST (#37): a node folder that climbs with .. (a relative
// output_dir such as ../../shared) is refused with a warning and exit 1, the other folders are
// still copied, and nothing appears outside DEST. Runs the exported script with the real rsync on
// localhost.

#include "core/profiling/collectscript.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps::core::profiling;

class TestCollectClimb : public QObject
{
    Q_OBJECT
private slots:
    void climbingFolderRefused()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("rsync")).isEmpty())
            QSKIP("no rsync");
        QTemporaryDir tmp;
        // The node's working folder is tmp/node/work; ../../outside is tmp/outside.
        const QString work = tmp.filePath(QStringLiteral("node/work"));
        QVERIFY(QDir().mkpath(work + "/ok") && QDir().mkpath(tmp.filePath(QStringLiteral("outside"))));
        for (const QString &f : {work + "/ok/r.psdigest", tmp.filePath(QStringLiteral("outside/secret.psdigest"))}) {
            QFile file(f);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("x");
        }
        LaunchPlan plan;
        plan.framework = Framework::RLinf;
        plan.collect.push_back({0, "ok"});
        plan.collect.push_back({0, "../../outside"});
        WorkerLaunch w;
        w.name = "ActorGroup:0";
        w.outputs = {"ok/rlinf_profile_ActorGroup_0_<PID>.nsys-rep"};
        plan.workers.push_back(w);
        const QString script = tmp.filePath(QStringLiteral("collect.sh"));
        QFile out(script);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QByteArray::fromStdString(exportCollectScript(plan, "climb")));
        out.close();

        const QString dest = tmp.filePath(QStringLiteral("dest"));
        QProcess p;
        p.setWorkingDirectory(work);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DEST"), dest);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("bash"), {script, QStringLiteral("localhost")});
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.contains(QStringLiteral("not copied: ../../outside climbs with ..")), qPrintable(err));
        QVERIFY(QFile::exists(dest + "/localhost/ok/r.psdigest"));
        // Nothing of the climbing folder anywhere: not in DEST, not beside it.
        QDirIterator it(tmp.path(), {QStringLiteral("secret.psdigest")}, QDir::Files, QDirIterator::Subdirectories);
        QStringList found;
        while (it.hasNext())
            found << it.next();
        QCOMPARE(found, QStringList{tmp.filePath(QStringLiteral("outside/secret.psdigest"))});
    }
};

QTEST_GUILESS_MAIN(TestCollectClimb)
#include "tst_collectclimb.moc"
