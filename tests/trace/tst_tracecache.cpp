// The per-report binary cache: exact round trip, memory-mapped reopen, stale and corrupt caches
// detected and rebuilt, cache directory selection.

#include "core/trace/tracecache.h"
#include "core/trace/traceloader.h"
#include "sqlref.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace ps::core::trace;

namespace {

template <typename T> bool same(std::span<const T> a, std::span<const T> b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}

void compareStores(const EventStore &a, const EventStore &b)
{
    QCOMPARE(a.eventCount(), b.eventCount());
    QCOMPARE(a.names().size(), b.names().size());
    for (NameId i = 0; i < a.names().size(); ++i)
        QCOMPARE(a.name(i), b.name(i));
    QCOMPARE(a.tracks().size(), b.tracks().size());
    for (size_t t = 0; t < a.tracks().size(); ++t) {
        const Track &x = a.tracks()[t], &y = b.tracks()[t];
        QVERIFY(x.key() == y.key());
        QCOMPARE(x.label(), y.label());
        QCOMPARE(x.levelCount(), y.levelCount());
        QVERIFY(same(x.columns().start, y.columns().start));
        QVERIFY(same(x.columns().duration, y.columns().duration));
        QVERIFY(same(x.columns().name, y.columns().name));
        QVERIFY(same(x.columns().aux, y.columns().aux));
        QVERIFY(same(x.columns().level, y.columns().level));
        QVERIFY(same(x.columns().attr, y.columns().attr));
        QVERIFY(same(x.columns().bytes, y.columns().bytes));
        QVERIFY(same(x.columns().blockMaxEnd, y.columns().blockMaxEnd));
    }
    QCOMPARE(a.launchConfigs().size(), b.launchConfigs().size());
    QCOMPARE(a.nvtxScopes().size(), b.nvtxScopes().size());
    QCOMPARE(a.threads().size(), b.threads().size());
    QCOMPARE(a.processes().size(), b.processes().size());
}

} // namespace

class TestTraceCache : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString &f : sqlref::nsysFiles())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }
    void roundTrip()
    {
        QFETCH(QString, path);
        QTemporaryDir dir;
        TraceCache cache(dir.path().toStdString());
        std::string error, why;
        ReportPtr fresh = loadReport(path.toStdString(), ReadContext{}, error);
        QVERIFY(fresh);
        QVERIFY(!cache.load(path.toStdString(), &why));
        QCOMPARE(QString::fromStdString(why), QString("no cache"));
        QCOMPARE(QString::fromStdString(cache.save(*fresh)), QString());
        ReportPtr cached = cache.load(path.toStdString(), &why);
        QVERIFY2(cached, why.c_str());
        QVERIFY(cached->fromCache);
        compareStores(*fresh->store, *cached->store);
        QCOMPARE(cached->meta.utcStartNs, fresh->meta.utcStartNs);
        QCOMPARE(cached->meta.exporterVersion, fresh->meta.exporterVersion);
        QCOMPARE(cached->meta.pids, fresh->meta.pids);
        QCOMPARE(cached->meta.fileCounts, fresh->meta.fileCounts);
        QCOMPARE(cached->meta.warnings, fresh->meta.warnings);
        QCOMPARE(cached->meta.gpus.size(), fresh->meta.gpus.size());
        QCOMPARE(cached->meta.processStreams.size(), fresh->meta.processStreams.size());
        for (size_t i = 0; i < fresh->meta.processStreams.size(); ++i)
            QCOMPARE(cached->meta.processStreams[i].content, fresh->meta.processStreams[i].content);
        QCOMPARE(cached->identity.pid, fresh->identity.pid);
        QCOMPARE(cached->identity.run, fresh->identity.run);
    }

    void staleAndCorruptAreRebuilt_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("reason");
        QTest::newRow("report touched") << "touch" << "stale";
        QTest::newRow("byte flipped") << "flip" << "corrupt: checksum";
        QTest::newRow("truncated cache") << "truncate" << "corrupt";
        QTest::newRow("garbage cache") << "garbage" << "corrupt: bad magic";
        QTest::newRow("empty cache") << "empty" << "corrupt";
    }
    void staleAndCorruptAreRebuilt()
    {
        QFETCH(QString, damage);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString report = dir.filePath("report1.sqlite");
        QVERIFY(QFile::copy(sqlref::nsysDir() + "/extrap__concurrent.s1.sqlite", report));
        LoadOptions opt;
        opt.cacheDir = dir.filePath("cache").toStdString();
        LoadResult first = loadReports({report.toStdString()}, opt);
        QCOMPARE(first.reports.size(), size_t(1));
        QVERIFY(!first.reports[0]->fromCache);
        LoadResult second = loadReports({report.toStdString()}, opt);
        QVERIFY(second.reports[0]->fromCache);

        TraceCache cache(opt.cacheDir);
        const QString cacheFile = QString::fromStdString(cache.cacheFileFor(report.toStdString()));
        QVERIFY(QFileInfo::exists(cacheFile));
        QFile f(cacheFile);
        if (damage == "touch") {
            QFile r(report);
            QVERIFY(r.open(QIODevice::ReadWrite));
            QVERIFY(r.setFileTime(QDateTime::currentDateTime().addSecs(5), QFileDevice::FileModificationTime));
        } else if (damage == "flip") {
            QVERIFY(f.open(QIODevice::ReadWrite));
            QByteArray all = f.readAll();
            all[all.size() / 2] = char(all[all.size() / 2] ^ 0x40);
            f.seek(0);
            f.write(all);
        } else if (damage == "truncate") {
            QVERIFY(f.resize(f.size() / 2));
        } else if (damage == "garbage") {
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QByteArray(4096, 'x'));
        } else if (damage == "empty") {
            QVERIFY(f.resize(0));
        }
        f.close();
        std::string why;
        QVERIFY(!cache.load(report.toStdString(), &why));
        QVERIFY2(QString::fromStdString(why).startsWith(reason), why.c_str());
        // The loader rebuilds it: same content, and the next open hits the cache again.
        LoadResult third = loadReports({report.toStdString()}, opt);
        QCOMPARE(third.reports.size(), size_t(1));
        QVERIFY(!third.reports[0]->fromCache);
        compareStores(*first.reports[0]->store, *third.reports[0]->store);
        LoadResult fourth = loadReports({report.toStdString()}, opt);
        QVERIFY(fourth.reports[0]->fromCache);
    }

    void cacheDirectory()
    {
        const QByteArray oldP = qgetenv("PROFSTUDIO_CACHE_DIR"), oldX = qgetenv("XDG_CACHE_HOME");
        qputenv("PROFSTUDIO_CACHE_DIR", "/tmp/ps-explicit");
        QCOMPARE(QString::fromStdString(defaultCacheDir()), QString("/tmp/ps-explicit"));
        qunsetenv("PROFSTUDIO_CACHE_DIR");
        qputenv("XDG_CACHE_HOME", "/tmp/xdg");
        QCOMPARE(QString::fromStdString(defaultCacheDir()), QString("/tmp/xdg/profstudio"));
        qunsetenv("XDG_CACHE_HOME");
        QVERIFY(QString::fromStdString(defaultCacheDir()).endsWith("/.cache/profstudio"));
        if (!oldP.isNull())
            qputenv("PROFSTUDIO_CACHE_DIR", oldP);
        if (!oldX.isNull())
            qputenv("XDG_CACHE_HOME", oldX);
        // Different paths get different cache files.
        TraceCache c("/tmp/c");
        QVERIFY(c.cacheFileFor("/a/report1.sqlite") != c.cacheFileFor("/b/report1.sqlite"));
    }
};

QTEST_GUILESS_MAIN(TestTraceCache)
#include "tst_tracecache.moc"
