#pragma once
// One case of ../shared/testdata/configs/expected (see its README), of expected-verl (same
// format, verl's newer trees) or of tests/config/data/hydra-oracle (same format, small trees whose
// expected output real Hydra 1.3.2 made, see its regen.sh): the CLI arguments, the environment,
// and the expected output or error. Shared by the in-process and the CLI tests.

#include <QDir>
#include <QFile>
#include <QMap>
#include <QString>
#include <QStringList>

struct ExpectedCase
{
    QString name;
    QString folder;
    QString configDir; // absolute
    QString configName;
    QStringList overrides;
    QMap<QString, QString> env; // {configs} already substituted
    bool expectError = false;
    bool errorWithResolve = false;
    QString expectedError;    // Hydra's text, {conf} substituted
    QString expectedYaml;     // empty when absent
    QString expectedResolved; // empty when absent
    bool hasYaml = false;
    bool hasResolved = false;
};

inline QString configsRoot()
{
    return QStringLiteral(PS_TESTDATA_DIR "/configs");
}

inline QString oracleCasesRoot()
{
    return QStringLiteral(PS_SOURCE_DIR "/tests/config/data/hydra-oracle");
}

inline QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

// The cases in `folder`; line 1 of each case's `args` (its config directory) is relative to `base`.
inline QList<ExpectedCase> loadExpectedCases(const QString &folder = configsRoot() + "/expected",
                                             const QString &base = configsRoot())
{
    QList<ExpectedCase> cases;
    QDir dir(folder);
    for (const QString &name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        ExpectedCase c;
        c.name = name;
        c.folder = dir.filePath(name);
        const QStringList args = QString::fromUtf8(readAll(c.folder + "/args")).split('\n');
        if (args.size() < 2)
            continue;
        c.configDir = base + "/" + args[0];
        c.configName = args[1];
        for (int i = 2; i < args.size(); ++i)
            if (!args[i].isEmpty())
                c.overrides << args[i];
        for (const QString &line : QString::fromUtf8(readAll(c.folder + "/env")).split('\n')) {
            int eq = line.indexOf('=');
            if (eq > 0)
                c.env[line.left(eq)] =
                    QString(line.mid(eq + 1)).replace("{configs}", configsRoot()).replace("{cases}", oracleCasesRoot());
        }
        c.expectError = QFile::exists(c.folder + "/expected.error");
        c.errorWithResolve = QFile::exists(c.folder + "/resolve");
        c.expectedError = QString::fromUtf8(readAll(c.folder + "/expected.error"))
                              .replace("{conf}", QDir::cleanPath(c.configDir)); // the oracle's CONF_DIR
        c.hasYaml = QFile::exists(c.folder + "/expected.yaml");
        c.hasResolved = QFile::exists(c.folder + "/expected.resolved.yaml");
        c.expectedYaml = QString::fromUtf8(readAll(c.folder + "/expected.yaml"));
        c.expectedResolved = QString::fromUtf8(readAll(c.folder + "/expected.resolved.yaml"));
        cases << c;
    }
    return cases;
}

// Every case the composer must reproduce: expected/, expected-verl/ and our oracle-made cases.
inline QList<ExpectedCase> loadAllExpectedCases()
{
    return loadExpectedCases() + loadExpectedCases(configsRoot() + "/expected-verl") +
           loadExpectedCases(oracleCasesRoot(), oracleCasesRoot());
}

// The lines of Hydra's message that our message must contain too: the text after
// "ERROR: <exception>: ", without Hydra's own search-path listing (we list ours).
// Hydra's message as it printed it: the text after "ERROR: <exception>: " (Python's warning lines
// before it dropped), without the final newline.
inline QString hydraMessage(const QString &expectedError)
{
    QString msg = expectedError;
    const qsizetype error = msg.startsWith("ERROR: ") ? 0 : msg.indexOf("\nERROR: ");
    if (error >= 0) {
        msg = msg.mid(error == 0 ? 7 : error + 8);
        int colon = msg.indexOf(": ");
        if (colon > 0)
            msg = msg.mid(colon + 2);
    }
    if (msg.endsWith('\n'))
        msg.chop(1);
    return msg;
}

inline QStringList hydraMessageLines(const QString &expectedError)
{
    QString msg = hydraMessage(expectedError);
    int sp = msg.indexOf("Config search path:");
    if (sp >= 0)
        msg = msg.left(sp);
    QStringList lines;
    for (const QString &l : msg.split('\n'))
        if (!l.trimmed().isEmpty())
            lines << l;
    return lines;
}
