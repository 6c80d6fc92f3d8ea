#pragma once
// Runs the built profstudio-cli (PS_BIN_DIR) in a child process, as a script would, for the CLI
// tests of every area. Header-only: tests/support is not a test area of its own.

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace ps::test {

struct CliRun
{
    int exitCode = -1; // -2: crashed, -1: did not finish in time
    QString out;
    QString err;
};

inline CliRun runCli(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                     int timeoutMs = 120000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(PS_BIN_DIR "/profstudio-cli"), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-1, QString::fromUtf8(p.readAllStandardOutput()), "timeout"};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

} // namespace ps::test
