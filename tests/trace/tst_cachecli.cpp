// profstudio-cli trace cache info | prune | clear end to end: caches written by real loads of the
// nsys samples (copies, so that a report can go away), JSON checked field by field.

#include "tests/support/clirun.h"
#include "tests/support/sqlref.h"
#include "tests/support/testdata.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

namespace {

struct Run
{
    int code = -1;
    QJsonObject json; // stdout parsed, when it is JSON
    QString out, err;
};

} // namespace

class TestCacheCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_cache;
    QStringList m_reports;

    Run cli(const QStringList &args, const QString &maxBytesEnv = {})
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PROFSTUDIO_CACHE_DIR", m_cache);
        env.remove("PROFSTUDIO_CACHE_MAX_BYTES");
        if (!maxBytesEnv.isNull())
            env.insert("PROFSTUDIO_CACHE_MAX_BYTES", maxBytesEnv);
        const ps::test::CliRun r = ps::test::runCli(args, env);
        return {r.exitCode, QJsonDocument::fromJson(r.out.toUtf8()).object(), r.out, r.err};
    }

    // Loads every report copy still there through `trace info`, which writes their caches.
    void fillCache()
    {
        QStringList present;
        for (const QString &p : m_reports)
            if (QFile::exists(p))
                present << p;
        const Run r = cli(QStringList{"trace", "info"} + present);
        QCOMPARE(r.code, 0);
    }

    static QString canonical(const QString &p)
    {
        return QString::fromStdString(std::filesystem::weakly_canonical(p.toStdString()).string());
    }

private slots:
    void init()
    {
        QVERIFY(m_tmp.isValid());
        m_cache = m_tmp.filePath("cache");
        QDir(m_cache).removeRecursively();
        m_reports.clear();
        for (const char *name :
             {"extrap__concurrent.s1.sqlite", "extrap__concurrent.s2.sqlite", "tutorial_vqe__report1.sqlite"}) {
            const QString copy = m_tmp.filePath(name);
            if (!QFile::exists(copy))
                QVERIFY(QFile::copy(ps::test::nsysDir() + "/" + name, copy));
            m_reports << copy;
        }
    }

    void infoJson()
    {
        Run empty = cli({"trace", "cache", "info", "--format", "json"});
        QCOMPARE(empty.code, 0);
        QCOMPARE(empty.json["dir"].toString(), m_cache);
        QCOMPARE(empty.json["files"].toInt(), 0);

        fillCache();
        const Run r = cli({"trace", "cache", "info", "--format", "json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json["dir"].toString(), m_cache);
        QCOMPARE(r.json["max_bytes"].toInteger(), qint64(10) << 30);
        QCOMPARE(r.json["max_bytes_source"].toString(), QString("default"));
        QCOMPARE(r.json["files"].toInt(), 3);
        const QJsonArray entries = r.json["entries"].toArray();
        QCOMPARE(entries.size(), 3);
        qint64 total = 0, lastUse = INT64_MAX;
        QStringList reports;
        for (const QJsonValue &v : entries) {
            const QJsonObject e = v.toObject();
            QVERIFY(e["file"].toString().startsWith(m_cache + "/"));
            QVERIFY(e["file"].toString().endsWith(".pstc"));
            QCOMPARE(QFileInfo(e["file"].toString()).size(), e["bytes"].toInteger());
            QVERIFY(e["report_exists"].toBool());
            QVERIFY(e["problem"].isNull());
            QVERIFY(!e["temp"].toBool());
            QVERIFY(e["last_use"].toString().endsWith("Z"));
            QVERIFY(e["last_use_ns"].toInteger() <= lastUse); // most recently used first
            lastUse = e["last_use_ns"].toInteger();
            total += e["bytes"].toInteger();
            reports << e["report"].toString();
        }
        QCOMPARE(r.json["total_bytes"].toInteger(), total);
        reports.sort();
        QStringList expected;
        for (const QString &p : m_reports)
            expected << canonical(p);
        expected.sort();
        QCOMPARE(reports, expected);

        // The cap from the environment, and from the option, which wins.
        Run env = cli({"trace", "cache", "info", "--format", "json"}, "1M");
        QCOMPARE(env.json["max_bytes"].toInteger(), qint64(1) << 20);
        QCOMPARE(env.json["max_bytes_source"].toString(), QString("env"));
        Run opt = cli({"trace", "cache", "info", "--format", "json", "--max-size", "1.5G"}, "1M");
        QCOMPARE(opt.json["max_bytes"].toInteger(), qint64(3) << 29);
        QCOMPARE(opt.json["max_bytes_source"].toString(), QString("option"));
        // An invalid variable: a warning that names it, and the default.
        Run bad = cli({"trace", "cache", "info", "--format", "json"}, "10X");
        QCOMPARE(bad.code, 0);
        QCOMPARE(bad.json["max_bytes"].toInteger(), qint64(10) << 30);
        QVERIFY2(bad.err.contains("warning: PROFSTUDIO_CACHE_MAX_BYTES: '10X' is not a size"), qPrintable(bad.err));
        QCOMPARE(bad.json["warnings"].toArray().size(), 1);
        // Loading commands say so too, and still load (with the default cap).
        Run loadBad = cli({"trace", "info", "--format", "json", m_reports.front()}, "10X");
        QCOMPARE(loadBad.code, 0);
        QVERIFY2(loadBad.err.contains("warning: PROFSTUDIO_CACHE_MAX_BYTES: '10X' is not a size"),
                 qPrintable(loadBad.err));
        QCOMPARE(loadBad.json["reports"].toArray().size(), 1);

        // Text: the directory, and every report.
        Run text = cli({"trace", "cache", "info"});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains("cache dir " + m_cache));
        QVERIFY(text.out.contains("files     3, "));
        for (const QString &p : m_reports)
            QVERIFY2(text.out.contains(canonical(p)), qPrintable(text.out));
    }

    void pruneJson()
    {
        fillCache();
        // Not ours: never touched.
        const QString foreign = m_cache + "/README.txt";
        QFile f(foreign);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("mine");
        f.close();
        // A leftover of a crashed write, an hour old.
        const QString temp = m_cache + "/0123456789abcdef.pstc.Qw12Er";
        QFile t(temp);
        QVERIFY(t.open(QIODevice::WriteOnly));
        t.write(QByteArray(100, 'x'));
        QVERIFY(t.flush()); // else the write at close() would make it new again
        QVERIFY(t.setFileTime(QDateTime::currentDateTime().addSecs(-3600), QFileDevice::FileModificationTime));
        t.close();
        // A report that is gone.
        const QString gone = canonical(m_reports[0]);
        QVERIFY(QFile::remove(m_reports[0]));

        Run dry = cli({"trace", "cache", "prune", "--dry-run", "--format", "json"});
        QCOMPARE(dry.code, 0);
        QVERIFY(dry.json["dry_run"].toBool());
        QCOMPARE(dry.json["removed"].toArray().size(), 2);
        QVERIFY(QFile::exists(temp));

        Run r = cli({"trace", "cache", "prune", "--format", "json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json["action"].toString(), QString("prune"));
        const QJsonArray removed = r.json["removed"].toArray();
        QCOMPARE(removed.size(), 2);
        QMap<QString, QJsonObject> byReason;
        for (const QJsonValue &v : removed)
            byReason[v.toObject()["reason"].toString()] = v.toObject();
        QCOMPARE(byReason["orphan"]["report"].toString(), gone);
        QCOMPARE(byReason["temp"]["file"].toString(), temp);
        QVERIFY(byReason["temp"]["report"].isNull());
        QCOMPARE(r.json["freed_bytes"].toInteger(),
                 byReason["orphan"]["bytes"].toInteger() + byReason["temp"]["bytes"].toInteger());
        QCOMPARE(r.json["files"].toInt(), 2);
        QVERIFY(!QFile::exists(temp));

        // Down to the cap: every cache is bigger than 1K, so all go, least recently used first.
        Run lru = cli({"trace", "cache", "prune", "--max-size", "1K", "--format", "json"});
        QCOMPARE(lru.code, 0);
        const QJsonArray evicted = lru.json["removed"].toArray();
        QCOMPARE(evicted.size(), 2);
        QVERIFY(evicted[0].toObject()["last_use_ns"].toInteger() <= evicted[1].toObject()["last_use_ns"].toInteger());
        for (const QJsonValue &v : evicted)
            QCOMPARE(v.toObject()["reason"].toString(), QString("lru"));
        QCOMPARE(lru.json["files"].toInt(), 0);
        QCOMPARE(lru.json["total_bytes"].toInt(), 0);
        QVERIFY(QFile::exists(foreign));

        // Text output names what went and why.
        fillCache();
        Run text = cli({"trace", "cache", "prune", "--max-size", "1K"});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("removed ") && text.out.contains("least recently used"), qPrintable(text.out));
        QVERIFY(text.out.contains("freed "));
    }

    void clearJson()
    {
        fillCache();
        const QString foreign = m_cache + "/keep.me";
        QFile f(foreign);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        Run r = cli({"trace", "cache", "clear", "--format", "json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json["removed"].toArray().size(), 3);
        for (const QJsonValue &v : r.json["removed"].toArray())
            QCOMPARE(v.toObject()["reason"].toString(), QString("clear"));
        QCOMPARE(r.json["files"].toInt(), 0);
        QVERIFY(r.json["freed_bytes"].toInteger() > 0);
        QVERIFY(r.json["errors"].toArray().isEmpty());
        QVERIFY(QFile::exists(foreign));
        QCOMPARE(QDir(m_cache).entryList({"*.pstc*"}, QDir::Files).size(), 0);
        // Clearing an empty (or missing) cache is fine.
        QDir(m_cache).removeRecursively();
        Run again = cli({"trace", "cache", "clear"});
        QCOMPARE(again.code, 0);
        QVERIFY(again.out.contains("0 file(s)"));
    }

    void loadsRespectTheCap()
    {
        // trace info with a cap of 1 byte keeps only the cache written last.
        Run info = cli(QStringList{"trace", "info", "--threads", "1"} + m_reports, "1");
        QCOMPARE(info.code, 0);
        Run r = cli({"trace", "cache", "info", "--format", "json"});
        QCOMPARE(r.json["files"].toInt(), 1);
    }

    void usage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("no action") << QStringList{} << 2 << "expected one action";
        QTest::newRow("unknown action") << QStringList{"purge"} << 2 << "unknown cache action 'purge'";
        QTest::newRow("two actions") << QStringList{"info", "clear"} << 2 << "expected one action";
        QTest::newRow("bad size") << QStringList{"prune", "--max-size", "10X"} << 2
                                  << "--max-size: '10X' is not a size";
        QTest::newRow("bad format") << QStringList{"info", "--format", "xml"} << 2 << "--format";
        QTest::newRow("unknown option") << QStringList{"info", "--bogus"} << 2 << "bogus";
        QTest::newRow("help") << QStringList{"--help"} << 0 << "";
    }
    void usage()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        const Run r = cli(QStringList{"trace", "cache"} + args);
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        if (code == 0)
            QVERIFY(r.out.contains("info|prune|clear") && r.out.contains("--max-size"));
    }
};

QTEST_GUILESS_MAIN(TestCacheCli)
#include "tst_cachecli.moc"
