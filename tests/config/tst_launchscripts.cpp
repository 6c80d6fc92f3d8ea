// Every example launch script upstream ships (../shared/testdata/configs/launch-scripts: verl main
// and RLinf main), run as a new user would under bash with stand-ins for python/torchrun/ray
// (tests/config/launchscripts/extract.sh; nothing real runs), and each Hydra launch it makes
// composed here as real Hydra 1.3.2 composes it: the expected output of each launch is the SHA-1
// of what the oracle printed (launchscripts/expected.tsv, made once by launchscripts/regen.sh):
// the composed YAML byte for byte, or, where Hydra fails, its error message.
#include "core/config/composer.h"
#include "core/config/yamlemitter.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps::core::config;

namespace {

const QString kHere = QStringLiteral(PS_SOURCE_DIR "/tests/config/launchscripts");

struct Launch
{
    QString id; // "verl/examples/x.sh#0"
    QString cwd, configDir, configName;
    QMap<QString, QString> env; // what the script exported
    QStringList overrides;
};

QList<Launch> readLaunches(const QString &file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<Launch> out;
    QMap<QString, int> perScript;
    for (const QByteArray &rec : f.readAll().split('\x1e')) {
        QList<QByteArray> fields = rec.split('\x1f');
        if (fields.size() < 6)
            continue;
        fields.removeLast(); // each field ends with \x1f
        Launch l;
        const QString script = QString::fromUtf8(fields[0]);
        l.id = script + "#" + QString::number(perScript[script]++);
        l.cwd = QString::fromUtf8(fields[1]);
        l.configDir = QString::fromUtf8(fields[2]);
        l.configName = QString::fromUtf8(fields[3]);
        for (const QString &line : QString::fromUtf8(fields[4]).split('\n')) {
            const qsizetype eq = line.indexOf('=');
            if (eq > 0)
                l.env[line.left(eq)] = line.mid(eq + 1);
        }
        for (int i = 5; i < fields.size(); ++i)
            l.overrides << QString::fromUtf8(fields[i]);
        out << l;
    }
    return out;
}

struct Expected
{
    bool error = false;
    QByteArray sha1;
};

QMap<QString, Expected> readExpected()
{
    QFile f(kHere + "/expected.tsv");
    QMap<QString, Expected> out;
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QList<QByteArray> cols = line.split('\t');
        if (cols.size() == 3)
            out[QString::fromUtf8(cols[0])] = Expected{cols[1] == "error", cols[2]};
    }
    return out;
}

QByteArray sha1(const QString &text)
{
    return QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha1).toHex();
}

} // namespace

class TestLaunchScripts : public QObject
{
    Q_OBJECT
private slots:
    void everyLaunchComposesAsHydraDoes()
    {
        QTemporaryDir work;
        QVERIFY(work.isValid());
        QProcess extract;
        extract.start("bash", {kHere + "/extract.sh", QStringLiteral(PS_TESTDATA_DIR "/configs"), work.path()});
        QVERIFY(extract.waitForFinished(300000));
        QCOMPARE(extract.exitCode(), 0);
        const QList<Launch> launches = readLaunches(work.path() + "/launches");
        const QMap<QString, Expected> expected = readExpected();
        const int scripts = QString::fromUtf8(readFile(work.path() + "/scripts")).trimmed().toInt();
        QVERIFY(scripts >= 140);
        QVERIFY2(!expected.isEmpty(), qPrintable(kHere + "/expected.tsv is missing or empty"));
        QVERIFY(!launches.isEmpty());
        QCOMPARE(launches.size(), expected.size()); // every launch the oracle saw, no more, no less

        const QString savedCwd = QDir::currentPath();
        int composedMatch = 0, errorMatch = 0, hydraComposed = 0, hydraErrors = 0;
        QStringList failures;
        QElapsedTimer timer;
        qint64 composeNs = 0;
        for (const Launch &l : launches) {
            const auto e = expected.find(l.id);
            if (e == expected.end()) {
                failures << l.id + ": not in expected.tsv (run launchscripts/regen.sh)";
                continue;
            }
            (e->error ? hydraErrors : hydraComposed)++;
            ComposeOptions o;
            o.configDirs = {l.configDir.toStdString()};
            o.configName = l.configName.toStdString();
            for (const QString &ov : l.overrides)
                o.overrides.push_back(ov.toStdString());
            o.builtinPresets = false;
            o.recordProvenance = false;
            const QMap<QString, QString> env = l.env;
            o.env = [env](const std::string &name) -> std::optional<std::string> {
                const auto it = env.find(QString::fromStdString(name));
                return it == env.end() ? std::nullopt : std::optional<std::string>(it->toStdString());
            };
            QDir::setCurrent(l.cwd); // `file://verl/trainer/config` is relative to it
            QString ours;
            bool failed = false;
            timer.start();
            try {
                ours = QString::fromStdString(toYaml(compose(o).config));
            } catch (const ConfigError &err) {
                ours = QString::fromStdString(err.message());
                failed = true;
            }
            composeNs += timer.nsecsElapsed();
            ours.replace(work.path(), "{work}"); // as regen.sh wrote the oracle's output,
            while (ours.endsWith('\n'))          // which bash's $(...) took without its final
                ours.chop(1);                    // newlines
            if (failed == e->error && sha1(ours) == e->sha1) {
                (failed ? errorMatch : composedMatch)++;
                continue;
            }
            failures << l.id + (e->error ? " (Hydra: error)" : " (Hydra: composes)") +
                            (failed ? ", ours fails: " : ", ours composes: ") + ours.left(400);
        }
        QDir::setCurrent(savedCwd);
        qInfo().noquote() << QString("%1 scripts, %2 launches: Hydra composes %3, ProfStudio byte-identical on %4; "
                                     "Hydra errors on %5, ProfStudio the same message on %6; %7 ms per launch")
                                 .arg(scripts)
                                 .arg(launches.size())
                                 .arg(hydraComposed)
                                 .arg(composedMatch)
                                 .arg(hydraErrors)
                                 .arg(errorMatch)
                                 .arg(launches.isEmpty() ? 0.0 : composeNs / 1e6 / launches.size(), 0, 'f', 1);
        QVERIFY2(failures.isEmpty(),
                 qPrintable(QString::number(failures.size()) + " launch(es) differ:\n" + failures.join("\n")));
    }

private:
    static QByteArray readFile(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
};

QTEST_GUILESS_MAIN(TestLaunchScripts)
#include "tst_launchscripts.moc"
