#pragma once
// Writes the memory-snapshot and memory-timeline fixtures of tests/formats/memoryfixtures.py
// into a folder with the system's /usr/bin/python3 (its own pickle and json), with what a reader
// must find in them (expected.json, computed by the script independently of ProfStudio).

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>

namespace ps::test {

inline const char *kFixturePython = "/usr/bin/python3";

inline bool haveFixturePython()
{
    return QFile::exists(QString::fromLatin1(kFixturePython));
}

// False (and the reason in `error`, the script's stderr when it fails) when the fixtures are not
// written. Tests skip only without python3 (haveFixturePython) and fail on any other error.
inline bool writeMemoryFixtures(const QString &dir, const QString &sentinel, QJsonObject &expected, QString &error)
{
    if (!haveFixturePython()) {
        error = QStringLiteral("no /usr/bin/python3");
        return false;
    }
    QProcess p;
    p.start(QString::fromLatin1(kFixturePython),
            {QStringLiteral(PS_SOURCE_DIR "/tests/formats/memoryfixtures.py"), dir, sentinel});
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

} // namespace ps::test
