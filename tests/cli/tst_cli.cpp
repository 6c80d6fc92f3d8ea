// The CLI's command surface (../shared/spec/cli.md): help, version, exit statuses.
#include <QProcess>
#include <QtTest>

namespace {
struct Run
{
    int code;
    QString out;
    QString err;
};
Run runCli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(PS_BIN_DIR "/profstudio-cli"), args);
    if (!p.waitForFinished(60000))
        return {-1, {}, "timeout"};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}
} // namespace

class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void helpListsEveryCommand()
    {
        auto r = runCli({"--help"});
        QCOMPARE(r.code, 0);
        for (const char *c : {"compose", "explain", "validate", "plan", "export", "demo", "trace info",
                              "trace stats", "trace align"})
            QVERIFY2(r.out.contains(QLatin1String(c)), c);
    }
    void version()
    {
        auto r = runCli({"--version"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("profstudio-cli "));
        QVERIFY(QRegularExpression("\\d+\\.\\d+\\.\\d+").match(r.out).hasMatch());
    }
    void noArgumentsIsUsageError()
    {
        auto r = runCli({});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("Usage:"));
    }
    void unknownCommandIsUsageError()
    {
        auto r = runCli({"frobnicate"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("unknown command 'frobnicate'"));
        r = runCli({"trace", "frobnicate"});
        QCOMPARE(r.code, 2);
    }
    void everyCommandHasHelp_data()
    {
        QTest::addColumn<QStringList>("words");
        for (const char *c : {"compose", "explain", "validate", "plan", "export", "demo"})
            QTest::newRow(c) << QStringList{c};
        for (const char *c : {"info", "stats", "align"})
            QTest::newRow(c) << QStringList{"trace", c};
    }
    void everyCommandHasHelp()
    {
        QFETCH(QStringList, words);
        auto r = runCli(words + QStringList{"--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("Usage: profstudio-cli " + words.join(' ')));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
