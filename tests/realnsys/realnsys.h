#pragma once
// The real Nsight Systems for tests/realnsys: PS_NSYS (cmake -DPS_NSYS, set by scripts/test.sh
// to the nsys scripts/fetch-nsys.sh fetched). Without it a test skips, and fails when CI=true:
// CI must run them.

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QtTest>

namespace realnsys {

inline QString nsys()
{
    return QStringLiteral(PS_NSYS);
}

inline bool inCi()
{
    return qgetenv("CI") == "true";
}

// Skips the test (fails it in CI) when there is no nsys to run.
#define REALNSYS_REQUIRE()                                                                                             \
    do {                                                                                                               \
        if (realnsys::nsys().isEmpty() || !QFileInfo(realnsys::nsys()).isExecutable()) {                               \
            const QByteArray why = "no nsys (PS_NSYS='" + realnsys::nsys().toUtf8() +                                  \
                                   "'): scripts/test.sh fetches one (scripts/fetch-nsys.sh)";                          \
            if (realnsys::inCi())                                                                                      \
                QFAIL(why.constData());                                                                                \
            QSKIP(why.constData());                                                                                    \
        }                                                                                                              \
    } while (0)

// libnvToolsExt.so.1 of that nsys (fetch-nsys.sh puts it in <dest>/lib), else the system's.
inline QString nvtxLibrary()
{
    const QString beside = QFileInfo(nsys()).absolutePath() + "/../lib/libnvToolsExt.so.1";
    return QFileInfo::exists(beside) ? QFileInfo(beside).absoluteFilePath() : QStringLiteral("libnvToolsExt.so.1");
}

inline QString scriptPath(const char *name)
{
    return QStringLiteral(PS_SOURCE_DIR "/tests/realnsys/") + name;
}

// Kills the agent an `nsys profile` (process `nsysPid`) started: it outlives a killed nsys
// (reparented to init, it may spin for many minutes). Its command line names the session
// "profile-<program>-<nsys's pid>".
inline void killAgentOf(qint64 nsysPid)
{
    const QString tail = "-" + QString::number(nsysPid);
    for (const QString &pid : QDir("/proc").entryList(QDir::Dirs)) {
        QFile f("/proc/" + pid + "/cmdline");
        if (!f.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray &arg : f.readAll().split('\0'))
            if (arg.startsWith("--session-name=profile-") && QString::fromUtf8(arg).endsWith(tail))
                QProcess::execute("kill", {"-9", pid});
    }
}

// Runs a program to its end (at most `seconds`); its output, stdout and stderr merged. -1 when it
// was killed for running too long.
inline int run(const QString &program, const QStringList &args, QString *output = nullptr, int seconds = 180,
               const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(seconds * 1000)) {
        const qint64 pid = p.processId();
        p.kill();
        p.waitForFinished();
        killAgentOf(pid);
        if (output)
            *output = QString::fromUtf8(p.readAll()) + "\n(killed after " + QString::number(seconds) + " s)";
        return -1;
    }
    if (output)
        *output = QString::fromUtf8(p.readAll());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
}

// `nsys export --type sqlite` of `rep` beside it (X.nsys-rep → X.sqlite).
inline bool exportSqlite(const QString &rep, QString *output = nullptr)
{
    QString sqlite = rep;
    sqlite.replace(".nsys-rep", ".sqlite");
    return run(nsys(), {"export", "--type", "sqlite", "--output", sqlite, rep}, output) == 0 &&
           QFileInfo::exists(sqlite);
}

// The options every test profile uses: CPU only (NVTX and OS runtime calls), no sampling.
inline QStringList cpuProfileOptions()
{
    return {"-t", "nvtx,osrt", "-s", "none", "--cpuctxsw=none"};
}

} // namespace realnsys
