// Emitted commands must split back into exactly their argv under bash (ARCHITECTURE.md).
#include "core/common/pythonliteral.h"
#include "core/common/shellquote.h"

#include <QProcess>
#include <QtTest>

#include <random>

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

    // A comment line stays one line in bash and in Python whatever the text holds.
    void commentText()
    {
        QCOMPARE(ps::core::commentText("a\nb\rc\\d\te\x01\x7f caf\xc3\xa9 \xff"),
                 std::string("a\\nb\\rc\\\\d\\te\\x01\\x7f caf\xc3\xa9 \\xff"));
    }

    // Python literals of random bytes (every byte value, invalid UTF-8, quotes, CR, triple
    // quotes) compile and evaluate to the str os.fsdecode() gives for those bytes.
    void pythonLiteralsOfAnyBytes()
    {
        std::mt19937 rng(7);
        std::vector<std::string> items = {"",     "'''",    "\"\"\"",       "\\",
                                          "a\rb", "x\n'\"", "\xed\xa0\x80", "\xf4\x90\x80\x80"};
        for (int i = 0; i < 300; ++i) {
            std::string s(rng() % 24, '\0');
            for (char &c : s)
                c = char(rng() % 4 == 0 ? "'\"\\\r\n"[rng() % 5] : rng() % 256);
            items.push_back(s);
        }
        QByteArray hex;
        for (const std::string &s : items)
            hex += QByteArray::fromStdString(s).toHex() + "\n";
        const std::string program = "import os, sys\nITEMS = " + ps::core::pythonStringListLiteral(items) +
                                    "\nsys.stdout.write(''.join(os.fsencode(s).hex() + '\\n' for s in ITEMS))\n";
        QProcess py;
        py.start("/usr/bin/python3", {"-c", QString::fromStdString(program)});
        QVERIFY(py.waitForFinished(30000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        QCOMPARE(py.readAllStandardOutput(), hex);
    }
};

QTEST_GUILESS_MAIN(TestShellQuote)
#include "tst_shellquote.moc"
