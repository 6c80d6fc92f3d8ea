#pragma once
// Writes the memory-snapshot and memory-timeline fixtures of tests/formats/memoryfixtures.py
// into a folder with the system's /usr/bin/python3 (its own pickle and json), with what a reader
// must find in them (expected.json, computed by the script independently of ProfStudio).

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace ps::test {

inline const char *kFixturePython = "/usr/bin/python3";

inline bool haveFixturePython()
{
    return QFile::exists(QString::fromLatin1(kFixturePython));
}

// False (and the reason in `error`, the script's stderr when it fails) when the fixtures are not
// written. Tests skip only without python3 (haveFixturePython) and fail on any other error.
// `set` "beside": the run of snapshots beside Kineto traces of the same ranks (see the script).
inline bool writeMemoryFixtures(const QString &dir, const QString &sentinel, QJsonObject &expected, QString &error,
                                const QString &set = {})
{
    if (!haveFixturePython()) {
        error = QStringLiteral("no /usr/bin/python3");
        return false;
    }
    QProcess p;
    p.start(QString::fromLatin1(kFixturePython),
            QStringList{QStringLiteral(PS_SOURCE_DIR "/tests/formats/memoryfixtures.py"), dir, sentinel} +
                (set.isEmpty() ? QStringList() : QStringList{set}));
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        error = p.errorString() + QStringLiteral("\n") + QString::fromUtf8(p.readAllStandardError());
        return false;
    }
    QFile f(dir + QStringLiteral("/expected.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        error = QStringLiteral("no expected.json");
        return false;
    }
    expected = QJsonDocument::fromJson(f.readAll()).object();
    return true;
}

// The plain set into `dir` and the "beside" set into `besideDir`, each with its own sentinel
// file; "" or what failed.
inline QString writeBothMemoryFixtures(const QString &dir, QJsonObject &expected, const QString &besideDir,
                                       QJsonObject &besideExpected)
{
    QString error;
    if (!writeMemoryFixtures(dir, dir + QStringLiteral("/SENTINEL"), expected, error) ||
        !writeMemoryFixtures(besideDir, besideDir + QStringLiteral("/SENTINEL"), besideExpected, error,
                             QStringLiteral("beside")))
        return QStringLiteral("fixtures not written: ") + error;
    return {};
}

} // namespace ps::test
