// .nsys-rep through `nsys export`: a stand-in nsys script (fakensys.h) on PATH records the exact
// argv it is given and copies the paired export from testdata; the loaded report is checked
// against SQL over that export. Also: no nsys (the message gives the command), cancel kills
// the converter, a failing nsys is reported with its output, and finished exports are reused.

#include "core/trace/formats/formatreaders.h"
#include "core/trace/formats/nsysrepreader.h"
#include "core/trace/persist/tracecache.h"
#include "core/trace/read/traceloader.h"
#include "fakensys.h"
#include "tests/support/envguard.h"
#include "tests/support/sqlref.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <thread>

using namespace ps::core::trace;
using ps::core::CancelToken;

namespace {

QString nsysDir()
{
    return QStringLiteral(PS_TESTDATA_DIR "/traces/nsys");
}

QStringList readLines(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.pop_back();
    return lines;
}

} // namespace

class TestNsysRepReader : public QObject
{
    Q_OBJECT

    QTemporaryDir m_bin, m_cache;
    // The variables this test changes, restored when it ends.
    const ps::test::EnvGuard m_path{"PATH"}, m_argv{"FAKE_NSYS_ARGV"}, m_testdata{"FAKE_NSYS_TESTDATA"},
        m_nsys{"PROFSTUDIO_NSYS"};

private slots:
    void initTestCase()
    {
        QVERIFY(m_bin.isValid() && m_cache.isValid());
        m_argv.set(m_bin.filePath("argv.txt").toUtf8());
        m_testdata.set(PS_TESTDATA_DIR);
        m_nsys.unset();
    }
    void init()
    {
        // Only the stand-in's folder (and the basics the script needs) on PATH.
        m_path.set(m_bin.filePath("").toUtf8() + ":/usr/bin:/bin");
        QFile::remove(m_bin.filePath("argv.txt"));
        QFile::remove(m_bin.filePath("nsys"));
    }

    void convertsWithExactArgv_data()
    {
        QTest::addColumn<QString>("rep");
        QTest::newRow("cupqc 2025.3") << nsysDir() + "/cupqc__report1.nsys-rep";
        QTest::newRow("ppcu 2025.6") << nsysDir() + "/ppcu-lab7__report1.nsys-rep";
    }
    void convertsWithExactArgv()
    {
        QFETCH(QString, rep);
        QVERIFY(fakensys::install(m_bin.path(), fakensys::kCopy));
        QTemporaryDir cache;
        NsysRepReader reader({"", cache.path().toStdString()});
        QCOMPARE(QString::fromStdString(reader.resolveNsys()), m_bin.filePath("nsys"));
        const QString out = QString::fromStdString(reader.exportPathFor(rep.toStdString()));
        QVERIFY(out.startsWith(cache.path() + "/nsys-export/"));
        QVERIFY(out.endsWith(".sqlite"));

        StoreBuilder b;
        ReportMeta meta;
        ReadContext ctx;
        std::vector<double> progress;
        ctx.progress = [&](double f) { progress.push_back(f); };
        const std::string err = reader.read(rep.toStdString(), b, meta, ctx);
        QVERIFY2(err.empty(), err.c_str());
        QCOMPARE(readLines(m_bin.filePath("argv.txt")),
                 (QStringList{"export", "--type", "sqlite", "--force-overwrite", "true", "--output", out, rep}));
        QVERIFY(std::find(progress.begin(), progress.end(), 0.25) != progress.end()); // nsys said 50%
        QCOMPARE(progress.back(), 1.0);

        // What was read is the paired export: counts against SQL over it.
        const EventStore s = std::move(b).build();
        const QString pair = nsysDir() + "/" + QFileInfo(rep).completeBaseName().replace(".nsys-rep", "") + ".sqlite";
        ps::test::SqlRef db(pair);
        QVERIFY(db.ok());
        QCOMPARE(qint64(s.count(TrackKind::OsRuntime)), db.count("SELECT count(*) FROM OSRT_API"));
        QCOMPARE(meta.format, TraceFormat::NsysSqlite);
        QCOMPARE(meta.utcStartNs.value_or(-1),
                 db.value("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME").toLongLong());
        QCOMPARE(QString::fromStdString(meta.exporterVersion),
                 db.value("SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_PRODUCT_VERSION'").toString());

        // A second read reuses the finished export: nsys is not run again, and the export's
        // last use (its mtime, what the cache's LRU pruning goes by) moves forward.
        QFile::remove(m_bin.filePath("argv.txt"));
        const QDateTime longAgo = QDateTime::currentDateTime().addDays(-3);
        {
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.setFileTime(longAgo, QFileDevice::FileModificationTime));
        }
        StoreBuilder b2;
        ReportMeta meta2;
        QVERIFY(reader.read(rep.toStdString(), b2, meta2, ReadContext{}).empty());
        QVERIFY(!QFile::exists(m_bin.filePath("argv.txt")));
        QCOMPARE(std::move(b2).build().eventCount(), s.eventCount());
        QVERIFY(QFileInfo(out).lastModified() > longAgo.addDays(1));
        // The export counts as a file of the cache, for the report it was made from.
        bool listed = false;
        for (const CacheFile &f : TraceCache(cache.path().toStdString()).files(true))
            if (f.path == out.toStdString()) {
                listed = f.nsysExport && !f.temp && f.reportPath == rep.toStdString() && f.reportExists;
            }
        QVERIFY(listed);
    }

    void withoutNsys()
    {
        QTemporaryDir cache;
        NsysRepReader reader({"", cache.path().toStdString()});
        const std::string rep = (nsysDir() + "/jax-toolbox__pdl_2p2c.nsys-rep").toStdString();
        QVERIFY(reader.resolveNsys().empty());
        StoreBuilder b;
        ReportMeta meta;
        const QString err = QString::fromStdString(reader.read(rep, b, meta, ReadContext{}));
        QVERIFY2(err.contains("nsys was not found"), qPrintable(err));
        QVERIFY2(err.contains("nsys export --type sqlite --output jax-toolbox__pdl_2p2c.sqlite " +
                              QString::fromStdString(rep)),
                 qPrintable(err));
        QVERIFY(QDir(cache.path()).isEmpty());
    }

    void cancelKillsNsys()
    {
        QVERIFY(fakensys::install(m_bin.path(), fakensys::kHang));
        QTemporaryDir cache;
        NsysRepReader reader({"", cache.path().toStdString()});
        const std::string rep = (nsysDir() + "/cupqc__report1.nsys-rep").toStdString();
        CancelToken cancel;
        ReadContext ctx;
        ctx.cancel = &cancel;
        std::thread canceller([&] {
            for (int i = 0; i < 100 && !QFile::exists(m_bin.filePath("argv.txt")); ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            cancel.cancel();
        });
        QElapsedTimer t;
        t.start();
        StoreBuilder b;
        ReportMeta meta;
        const std::string err = reader.read(rep, b, meta, ctx);
        canceller.join();
        QVERIFY2(QString::fromStdString(err).contains("cancelled"), err.c_str());
        QVERIFY(t.elapsed() < 10000); // the 60 s sleep was killed
        QVERIFY(!QFile::exists(QString::fromStdString(reader.exportPathFor(rep))));
    }

    void failingNsys()
    {
        QVERIFY(fakensys::install(m_bin.path(), fakensys::kFail));
        QTemporaryDir cache;
        NsysRepReader reader({"", cache.path().toStdString()});
        StoreBuilder b;
        ReportMeta meta;
        const QString err = QString::fromStdString(
            reader.read((nsysDir() + "/cupqc__report1.nsys-rep").toStdString(), b, meta, ReadContext{}));
        QVERIFY2(err.contains("exit 3") && err.contains("boom"), qPrintable(err));
    }

    // Through the registry and the loader, with nsys from $PROFSTUDIO_NSYS.
    void throughLoader()
    {
        QTemporaryDir other;
        QVERIFY(fakensys::install(other.path(), fakensys::kCopy));
        const ps::test::EnvGuard nsys("PROFSTUDIO_NSYS", other.filePath("nsys").toUtf8()); // over m_nsys
        QTemporaryDir cache;
        const ps::test::EnvGuard cacheDir("PROFSTUDIO_CACHE_DIR", cache.path().toUtf8());
        std::string error;
        ReportPtr r = loadReport((nsysDir() + "/cupqc__report1.nsys-rep").toStdString(), ReadContext{}, error);
        QVERIFY2(r, error.c_str());
        QCOMPARE(r->meta.format, TraceFormat::NsysSqlite);
        QVERIFY(r->store->count(TrackKind::OsRuntime) > 0);
    }
};

QTEST_GUILESS_MAIN(TestNsysRepReader)
#include "tst_nsysrepreader.moc"
