// Names from traces reach the terminal escaped (#37): a Kineto kernel named with an OSC title
// sequence, a BEL and a right-to-left override prints as \x1b, \x07 and \u202e in the table and
// the CSV, and exactly in the JSON.

#include "tests/support/clirun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

class TestTerminalNames : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_trace;

private slots:
    void initTestCase()
    {
        m_trace = m_dir.filePath(QStringLiteral("hostile.json"));
        QFile f(m_trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        // The name as Kineto writes it: JSON escapes for ESC, BEL and U+202E.
        const QByteArray name = "k\\u001b]0;pwned\\u0007\\u202ex";
        f.write("{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + name +
                "\", \"pid\": 0, \"tid\": 7, \"ts\": 10, \"dur\": 5, \"args\": {\"device\": 0, \"stream\": 7}}]}");
    }

    void tableAndCsvEscaped_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("text") << QStringLiteral("text");
        QTest::newRow("csv") << QStringLiteral("csv");
    }
    void tableAndCsvEscaped()
    {
        QFETCH(QString, format);
        QStringList args{"trace", "stats", "--no-cache", "--report", "kernel_sum", m_trace};
        if (format != QStringLiteral("text")) // the table is the default
            args << "--format" << format;
        const auto r = ps::test::runCli(args);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("k\\x1b]0;pwned\\x07\\u202ex")), qPrintable(r.out));
        for (const QChar c : {QChar(0x1b), QChar(0x07), QChar(0x202e)})
            QVERIFY2(!r.out.contains(c), qPrintable(r.out));
    }

    void jsonExact()
    {
        const auto r =
            ps::test::runCli({"trace", "stats", "--no-cache", "--report", "kernel_sum", "--format", "json", m_trace});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray rows = QJsonDocument::fromJson(r.out.toUtf8()).object()["rows"].toArray();
        QVERIFY(!rows.isEmpty());
        QCOMPARE(rows[0].toObject()["name"].toString(), QStringLiteral("k\x1b]0;pwned\x07") + QChar(0x202e) + "x");
    }
};

QTEST_GUILESS_MAIN(TestTerminalNames)
#include "tst_terminalnames.moc"
