// Emitted commands must split back into exactly their argv under bash (ARCHITECTURE.md).
#include "core/common/shellquote.h"

#include <QProcess>
#include <QtTest>

class TestShellQuote : public QObject
{
    Q_OBJECT
private slots:
    void quote_data()
    {
        QTest::addColumn<QString>("arg");
        QTest::addColumn<QString>("expected");
        QTest::newRow("safe") << "--capture-range=cudaProfilerApi"
                              << "--capture-range=cudaProfilerApi";
        QTest::newRow("empty") << ""
                               << "''";
        QTest::newRow("space") << "a b"
                               << "'a b'";
        QTest::newRow("single quote") << "it's"
                                      << "'it'\"'\"'s'";
        QTest::newRow("dollar") << "$HOME"
                                << "'$HOME'";
        QTest::newRow("percent p") << "/tmp/rep_%p"
                                   << "/tmp/rep_%p";
    }
    void quote()
    {
        QFETCH(QString, arg);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(ps::core::shellQuote(arg.toStdString())), expected);
    }

    // bash must split the joined line back into the same argv, whatever the arguments hold.
    void roundTripThroughBash()
    {
        const std::vector<std::string> argv = {"nsys",        "profile",   "a b",          "it's", "$x",
                                               "a;b",         "*",         "line1\nline2", "",     "\"dq\"",
                                               "back\\slash", "tab\there", "~user",        "!bang"};
        const std::string cmd = ps::core::shellJoin(argv);
        QProcess bash;
        bash.start("bash", {"-c", QString::fromStdString("printf '%s\\0' " + cmd)});
        QVERIFY(bash.waitForFinished(10000));
        QCOMPARE(bash.exitCode(), 0);
        const QByteArray out = bash.readAllStandardOutput();
        QList<QByteArray> parts = out.split('\0');
        parts.removeLast(); // after the final NUL
        QCOMPARE(parts.size(), qsizetype(argv.size()));
        for (size_t i = 0; i < argv.size(); ++i)
            QCOMPARE(parts[qsizetype(i)].toStdString(), argv[i]);
    }
};

QTEST_GUILESS_MAIN(TestShellQuote)
#include "tst_shellquote.moc"
