#pragma once
// Runs profstudio-cli for the CLI tests of every area. runCli calls the commands in this process
// (ps::cli::run of the profstudio_cli library, which the test links): no process start per call,
// output captured as strings. spawnCli starts the built executable (PS_BIN_DIR) as a script
// would, for the few smoke tests of what only a process shows (main(), real pipes).
// Header-only: tests/support is not a test area of its own.

#include "app/cli/cli.h"

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <sstream>

namespace ps::test {

struct CliRun
{
    int exitCode = -1; // spawnCli only: -2 crashed, -1 did not finish in time
    QString out;
    QString err;
};

// Makes the process environment `wanted` for its lifetime and restores every variable it
// changed afterwards, so that one in-process run's variables (PROFSTUDIO_CACHE_DIR,
// PROFSTUDIO_CACHE_MAX_BYTES, oc.env lookups) never leak into the next test.
class ScopedEnvironment
{
public:
    explicit ScopedEnvironment(const QProcessEnvironment &wanted)
    {
        const QProcessEnvironment now = QProcessEnvironment::systemEnvironment();
        for (const QString &name : now.keys())
            if (!wanted.contains(name))
                set(name, std::nullopt);
        for (const QString &name : wanted.keys())
            if (!now.contains(name) || now.value(name) != wanted.value(name))
                set(name, wanted.value(name).toLocal8Bit());
    }
    ~ScopedEnvironment()
    {
        for (const auto &[name, old] : m_saved)
            apply(name, old);
    }
    ScopedEnvironment(const ScopedEnvironment &) = delete;
    ScopedEnvironment &operator=(const ScopedEnvironment &) = delete;

private:
    void set(const QString &name, const std::optional<QByteArray> &value)
    {
        const QByteArray key = name.toLocal8Bit();
        m_saved.emplace(key, qEnvironmentVariableIsSet(key.constData())
                                 ? std::optional<QByteArray>(qgetenv(key.constData()))
                                 : std::nullopt);
        apply(key, value);
    }
    static void apply(const QByteArray &name, const std::optional<QByteArray> &value)
    {
        if (value)
            qputenv(name.constData(), *value);
        else
            qunsetenv(name.constData());
    }
    std::map<QByteArray, std::optional<QByteArray>> m_saved;
};

// profstudio-cli `args` run in process with the environment `env`.
inline CliRun runCli(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    std::vector<std::string> words;
    for (const QString &a : args)
        words.push_back(a.toStdString());
    std::ostringstream out, err;
    int status = 0;
    {
        const ScopedEnvironment scope(env);
        status = ps::cli::run(words, out, err);
    }
    return {status, QString::fromStdString(out.str()), QString::fromStdString(err.str())};
}

// The built profstudio-cli run in a child process.
inline CliRun spawnCli(const QStringList &args,
                       const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
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
