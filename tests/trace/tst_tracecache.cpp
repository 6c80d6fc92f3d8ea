// The per-report binary cache: exact round trip, memory-mapped reopen, stale and corrupt caches
// detected and rebuilt, cache directory selection; the size cap: LRU eviction after each save,
// hits recording their use, the file just written kept, foreign files untouched, orphans,
// unreadable caches and stale temporaries pruned, PROFSTUDIO_CACHE_MAX_BYTES.

#include "core/trace/persist/cachecodec.h"
#include "core/trace/persist/tracecache.h"
#include "core/trace/read/traceloader.h"
#include "tests/support/envguard.h"
#include "tests/support/sqlref.h"
#include "tests/support/storecompare.h"
#include "tests/support/testdata.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <ctime>
#include <filesystem>

using namespace ps::core::trace;
namespace fs = std::filesystem;

using ps::test::compareStores;
using ps::test::EnvGuard;

namespace {

// The cache files' mtimes are their last use: tests set them to be independent of the clock's
// resolution and of how fast the machine is.
void setLastUse(const std::string &path, int64_t secondsAgo)
{
    const timespec times[2] = {{0, UTIME_OMIT}, {::time(nullptr) - secondsAgo, 0}};
    QVERIFY2(::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0, path.c_str());
}

int64_t lastUseNs(const std::string &path)
{
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) != 0)
        return -1;
    return int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

bool exists(const std::string &path)
{
    struct stat st
    {
    };
    return ::lstat(path.c_str(), &st) == 0;
}

uint64_t sizeOf(const std::string &path)
{
    std::error_code ec;
    return uint64_t(fs::file_size(path, ec));
}

void writeFile(const std::string &path, const QByteArray &bytes)
{
    QFile f(QString::fromStdString(path));
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes), qint64(bytes.size()));
}

std::string sample(const char *name)
{
    return (ps::test::nsysDir() + "/" + name).toStdString();
}

// Loads one report through the loader with a cache in `dir` and the given cap.
ReportPtr loadCached(const std::string &report, const std::string &dir, std::optional<uint64_t> cap = {})
{
    LoadOptions opt;
    opt.cacheDir = dir;
    opt.cacheMaxBytes = cap;
    opt.threads = 1;
    LoadResult r = loadReports({report}, opt);
    return r.reports.size() == 1 ? r.reports[0] : nullptr;
}

CachePruneOptions withOrphans(bool dryRun = false)
{
    CachePruneOptions o;
    o.orphans = true;
    o.dryRun = dryRun;
    return o;
}

} // namespace

class TestTraceCache : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files = ps::test::nsysFiles();
        QVERIFY2(!files.isEmpty(), "no nsys exports in " PS_TESTDATA_DIR "/traces/nsys");
        for (const QString &f : files)
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
        QCOMPARE(cached->meta.memory.size(), fresh->meta.memory.size());
        for (size_t i = 0; i < fresh->meta.memory.size(); ++i) {
            QCOMPARE(cached->meta.memory[i].device, fresh->meta.memory[i].device);
            QCOMPARE(cached->meta.memory[i].source, fresh->meta.memory[i].source);
            QCOMPARE(cached->meta.memory[i].timeNs, fresh->meta.memory[i].timeNs);
            QCOMPARE(cached->meta.memory[i].bytes, fresh->meta.memory[i].bytes);
        }
        QCOMPARE(cached->identity.pid, fresh->identity.pid);
        QCOMPARE(cached->identity.run, fresh->identity.run);
    }

    void staleAndCorruptAreRebuilt_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("reason");
        QTest::newRow("report touched") << "touch"
                                        << "stale";
        QTest::newRow("byte flipped") << "flip"
                                      << "corrupt: checksum";
        QTest::newRow("truncated cache") << "truncate"
                                         << "corrupt";
        QTest::newRow("garbage cache") << "garbage"
                                       << "corrupt: bad magic";
        QTest::newRow("empty cache") << "empty"
                                     << "corrupt";
    }
    void staleAndCorruptAreRebuilt()
    {
        QFETCH(QString, damage);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString report = dir.filePath("report1.sqlite");
        QVERIFY(QFile::copy(ps::test::nsysDir() + "/extrap__concurrent.s1.sqlite", report));
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

    // A cache of the format before track classes (10) is refused as stale and rebuilt, never
    // read as the new layout: the rebuilt Ascend report has its device-task and HCCL-lane tracks.
    void olderFormatIsRebuilt()
    {
        QTemporaryDir dir;
        const QString report = dir.filePath("ascend_pytorch_profiler_0.db");
        QVERIFY(QFile::copy(
            ps::test::testdataDir("traces/ascend/msinsight__level1__rank0__ascend_pytorch_profiler_0.db"), report));
        LoadOptions opt;
        opt.cacheDir = dir.filePath("cache").toStdString();
        QVERIFY(loadCached(report.toStdString(), opt.cacheDir));
        const TraceCache cache(opt.cacheDir);
        const QString cacheFile = QString::fromStdString(cache.cacheFileFor(report.toStdString()));
        QFile f(cacheFile);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray image = f.readAll();
        // The header as format 10 wrote it: magic, version, body size, body hash, header hash.
        const uint64_t version = 10;
        std::memcpy(image.data() + 8, &version, 8);
        const uint64_t headerHash = cacheHash(image.constData(), 32);
        std::memcpy(image.data() + 32, &headerHash, 8);
        f.seek(0);
        QCOMPARE(f.write(image), qint64(image.size()));
        f.close();
        std::string why;
        QVERIFY(!cache.load(report.toStdString(), &why));
        QCOMPARE(QString::fromStdString(why), QString("stale: cache format 10"));
        const ReportPtr rebuilt = loadCached(report.toStdString(), opt.cacheDir);
        QVERIFY(rebuilt && !rebuilt->fromCache);
        const ReportPtr again = loadCached(report.toStdString(), opt.cacheDir);
        QVERIFY(again && again->fromCache);
        compareStores(*rebuilt->store, *again->store);
        size_t deviceTasks = 0, lanes = 0;
        for (const Track &t : again->store->tracks()) {
            deviceTasks += t.trackClass() == TrackClass::DeviceTasks;
            lanes += t.trackClass() == TrackClass::CollectiveLane;
        }
        QCOMPARE(deviceTasks, again->store->tracksOfKind(TrackKind::Kernel).size());
        QCOMPARE(lanes, size_t(1));
    }

    void cacheDirectory()
    {
        {
            const EnvGuard cacheDir("PROFSTUDIO_CACHE_DIR", "/tmp/ps-explicit"), xdg("XDG_CACHE_HOME");
            QCOMPARE(QString::fromStdString(defaultCacheDir()), QString("/tmp/ps-explicit"));
            cacheDir.unset();
            xdg.set("/tmp/xdg");
            QCOMPARE(QString::fromStdString(defaultCacheDir()), QString("/tmp/xdg/profstudio"));
            xdg.unset();
            QVERIFY(QString::fromStdString(defaultCacheDir()).endsWith("/.cache/profstudio"));
        }
        // Different paths get different cache files.
        TraceCache c("/tmp/c");
        QVERIFY(c.cacheFileFor("/a/report1.sqlite") != c.cacheFileFor("/b/report1.sqlite"));
    }

    // ---- size cap ----------------------------------------------------------------------------

    void evictsLeastRecentlyUsed()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.filePath("cache").toStdString();
        const std::string a = sample("extrap__concurrent.s1.sqlite"), b = sample("extrap__concurrent.s2.sqlite"),
                          c = sample("extrap__concurrent.s4.sqlite"), d = sample("extrap__concurrent.s8.sqlite");
        const TraceCache cache(dir);
        for (const std::string &r : {a, b, c})
            QVERIFY(loadCached(r, dir));
        const std::string fa = cache.cacheFileFor(a), fb = cache.cacheFileFor(b), fc = cache.cacheFileFor(c),
                          fd = cache.cacheFileFor(d);
        setLastUse(fa, 300);
        setLastUse(fb, 200);
        setLastUse(fc, 100);
        // Opening a from the cache makes it the most recently used: b is now the oldest.
        ReportPtr hit = loadCached(a, dir);
        QVERIFY(hit && hit->fromCache);
        QVERIFY(lastUseNs(fa) > lastUseNs(fc));

        // The size d's cache will have, from a scratch directory.
        const std::string scratch = tmp.filePath("scratch").toStdString();
        QVERIFY(loadCached(d, scratch));
        const uint64_t sizeD = sizeOf(TraceCache(scratch).cacheFileFor(d));
        QVERIFY(sizeD > 0);

        // Saving d over a cap that holds a, c and d evicts exactly b.
        const uint64_t cap = sizeOf(fa) + sizeOf(fc) + sizeD;
        QVERIFY(loadCached(d, dir, cap));
        QVERIFY(!exists(fb));
        QVERIFY(exists(fa) && exists(fc) && exists(fd));

        // Down to d alone: c goes first (least recently used), then a.
        setLastUse(fa, 50);
        setLastUse(fd, 10);
        const CachePruneResult r = TraceCache(dir, sizeD).prune();
        QCOMPARE(r.removed.size(), size_t(2));
        QCOMPARE(r.removed[0].file.path, fc);
        QCOMPARE(r.removed[1].file.path, fa);
        QCOMPARE(r.removed[0].reason, std::string("lru"));
        QCOMPARE(r.filesLeft, size_t(1));
        QCOMPARE(r.bytesLeft, sizeD);
        QVERIFY(r.errors.empty());
        QVERIFY(exists(fd));
        // files(): most recently used first, with the report each cache is of.
        const std::vector<CacheFile> left = cache.files(true);
        QCOMPARE(left.size(), size_t(1));
        QCOMPARE(left[0].reportPath, fs::weakly_canonical(d).string());
        QVERIFY(left[0].reportExists);
        QVERIFY2(left[0].problem.empty(), left[0].problem.c_str());
    }

    void hitRecordsUse()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString(), report = sample("extrap__concurrent.s1.sqlite");
        QVERIFY(loadCached(report, dir));
        const std::string file = TraceCache(dir).cacheFileFor(report);
        setLastUse(file, 86400 * 30);
        const int64_t before = lastUseNs(file);
        const int64_t start = int64_t(::time(nullptr) - 1) * 1000000000;
        ReportPtr hit = loadCached(report, dir);
        QVERIFY(hit && hit->fromCache);
        QVERIFY(lastUseNs(file) > before);
        QVERIFY(lastUseNs(file) >= start);
        // A miss does not count as a use of some other file, and TraceCache::load alone records too.
        setLastUse(file, 86400);
        const int64_t old = lastUseNs(file);
        std::string why;
        QVERIFY(TraceCache(dir).load(report, &why));
        QVERIFY(lastUseNs(file) > old);
    }

    void justWrittenSurvivesOverCap_data()
    {
        QTest::addColumn<qulonglong>("cap");
        QTest::newRow("cap 0") << qulonglong(0);
        QTest::newRow("cap 1 byte") << qulonglong(1);
    }
    void justWrittenSurvivesOverCap()
    {
        QFETCH(qulonglong, cap);
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        const std::string a = sample("extrap__concurrent.s1.sqlite"), b = sample("extrap__concurrent.s2.sqlite");
        const TraceCache cache(dir, cap);
        QVERIFY(loadCached(a, dir, cap));
        QVERIFY(exists(cache.cacheFileFor(a))); // alone and over the cap, but just written
        QVERIFY(loadCached(b, dir, cap));
        QVERIFY(!exists(cache.cacheFileFor(a)));
        QVERIFY(exists(cache.cacheFileFor(b)));
        // A report loaded while its cache is being evicted stays usable: the mapping outlives the name.
        ReportPtr mapped = loadCached(b, dir, cap);
        QVERIFY(mapped && mapped->fromCache);
        QCOMPARE(cache.prune().removed.size(), size_t(1));
        QVERIFY(!exists(cache.cacheFileFor(b)));
        QVERIFY(mapped->store->eventCount() > 0);
        int64_t sum = 0;
        for (const Track &t : mapped->store->tracks())
            for (size_t i = 0; i < t.size(); ++i)
                sum += t.duration(i);
        QVERIFY(sum > 0);
    }

    void foreignFilesUntouched()
    {
        QTemporaryDir tmp, outside;
        const std::string dir = tmp.path().toStdString();
        const std::string report = sample("extrap__concurrent.s1.sqlite");
        QVERIFY(loadCached(report, dir));
        const std::string target = outside.filePath("precious.pstc").toStdString();
        writeFile(target, "keep me");
        const std::vector<std::string> foreign = {
            dir + "/notes.txt",
            dir + "/ABCDEF0123456789.pstc", // upper-case hex: not a name we write
            dir + "/0123456789abcde.pstc",  // 15 hex digits
            dir + "/0123456789abcdeg.pstc", // not hex
            dir + "/0123456789abcdef.pstcx",
            dir + "/0123456789abcdef.pstc.tmp",    // not mkstemp's 6 characters
            dir + "/0123456789abcdef.pstc.abc-12", // not letters and digits
            dir + "/0123456789abcdef.pstc.Ab12Cd.old",
            dir + "/sub/0123456789abcdef.pstc",  // in a subfolder
            dir + "/nsys-export/report1.sqlite", // not an export name we write (no hash)
            dir + "/nsys-export/report1-0123456789ABCDEF.sqlite",
        };
        QVERIFY(QDir().mkpath(QString::fromStdString(dir + "/sub")));
        QVERIFY(QDir().mkpath(QString::fromStdString(dir + "/nsys-export")));
        for (const std::string &f : foreign) {
            writeFile(f, QByteArray(4096, 'x'));
            setLastUse(f, 86400 * 365);
        }
        // Named like ours but a symlink (to a file outside) or a folder: not ours either.
        const std::string link = dir + "/fedcba9876543210.pstc";
        QCOMPARE(::symlink(target.c_str(), link.c_str()), 0);
        QVERIFY(QDir().mkpath(QString::fromStdString(dir + "/00000000000000aa.pstc")));

        const TraceCache cache(dir, 0);
        const std::vector<CacheFile> listed = cache.files(true);
        QCOMPARE(listed.size(), size_t(1));
        QCOMPARE(listed[0].path, cache.cacheFileFor(report));
        const CachePruneResult pruned = cache.prune(withOrphans());
        QCOMPARE(pruned.removed.size(), size_t(1));
        QVERIFY(cache.clear().removed.empty());
        for (const std::string &f : foreign)
            QVERIFY2(exists(f), f.c_str());
        QVERIFY(exists(link));
        QVERIFY(exists(target));
        QVERIFY(exists(dir + "/00000000000000aa.pstc"));
    }

    void orphansAndUnreadablePruned()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.filePath("cache").toStdString();
        const std::string r1 = tmp.filePath("r1.sqlite").toStdString(), r2 = tmp.filePath("r2.sqlite").toStdString();
        QVERIFY(QFile::copy(ps::test::nsysDir() + "/extrap__concurrent.s1.sqlite", QString::fromStdString(r1)));
        QVERIFY(QFile::copy(ps::test::nsysDir() + "/extrap__concurrent.s2.sqlite", QString::fromStdString(r2)));
        QVERIFY(loadCached(r1, dir));
        QVERIFY(loadCached(r2, dir));
        const TraceCache cache(dir);
        const std::string c1 = cache.cacheFileFor(r1), c2 = cache.cacheFileFor(r2);
        // A cache file named like ours that this build cannot read (an older format, damage).
        const std::string bad = dir + "/0123456789abcdef.pstc";
        writeFile(bad, QByteArray(200, '\0'));
        QVERIFY(QFile::remove(QString::fromStdString(r1)));

        std::vector<CacheFile> files = cache.files(true);
        QCOMPARE(files.size(), size_t(3));
        for (const CacheFile &f : files) {
            if (f.path == c1) {
                QCOMPARE(f.reportPath, fs::weakly_canonical(r1).string());
                QVERIFY(!f.reportExists);
            } else if (f.path == c2) {
                QCOMPARE(f.reportPath, fs::weakly_canonical(r2).string());
                QVERIFY(f.reportExists);
                QVERIFY(!f.unusable);
            } else {
                QCOMPARE(f.path, bad);
                QVERIFY(f.reportPath.empty());
                QVERIFY(f.unusable);
                QVERIFY2(QString::fromStdString(f.problem).startsWith("corrupt"), f.problem.c_str());
            }
        }
        // Eviction alone (what every save does) keeps them while under the cap.
        QVERIFY(cache.prune().removed.empty());
        // A dry run says what would go and removes nothing.
        const CachePruneResult dry = cache.prune(withOrphans(true));
        QCOMPARE(dry.removed.size(), size_t(2));
        QVERIFY(exists(c1) && exists(bad));
        const CachePruneResult r = cache.prune(withOrphans());
        QCOMPARE(r.removed.size(), size_t(2));
        for (const CacheRemoval &x : r.removed) {
            if (x.file.path == c1)
                QCOMPARE(x.reason, std::string("orphan"));
            else
                QCOMPARE(x.reason, std::string("unreadable"));
        }
        QVERIFY(!exists(c1) && !exists(bad));
        QVERIFY(exists(c2));
        QCOMPARE(r.filesLeft, size_t(1));
        ReportPtr again = loadCached(r2, dir);
        QVERIFY(again && again->fromCache);
    }

    // `nsys export` SQLite files of .nsys-rep reports live under the cache directory and count
    // against the same cap: listed with the report they were made from (their .done marker),
    // evicted least recently used first, pruned when the report is gone, removed with their
    // marker; an unfinished one is a temporary.
    void nsysExportsPruned()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.filePath("cache").toStdString();
        const std::string exports = dir + "/" + kNsysExportFolder;
        QVERIFY(fs::create_directories(exports));
        const std::string rep = tmp.filePath("rank0.nsys-rep").toStdString();
        writeFile(rep, QByteArray("NVIDIA Tegra Profiler Report"));
        const std::string live = exports + "/rank0-0123456789abcdef.sqlite";
        const std::string gone = exports + "/rank1-fedcba9876543210.sqlite";
        const std::string unfinished = exports + "/rank2-00000000000000aa.sqlite";
        const std::string foreign = exports + "/notes.sqlite";
        writeFile(live, QByteArray(4000, 's'));
        writeFile(live + ".done", QByteArray::fromStdString(rep + "\n"));
        writeFile(gone, QByteArray(3000, 's'));
        writeFile(gone + ".done", QByteArray::fromStdString(tmp.filePath("rank1.nsys-rep").toStdString() + "\n"));
        writeFile(unfinished, QByteArray(2000, 's'));
        writeFile(foreign, QByteArray(100, 's'));
        setLastUse(live, 100);
        setLastUse(gone, 200);
        setLastUse(unfinished, kStaleTempAgeNs / 1000000000 + 60);

        const TraceCache cache(dir);
        std::vector<CacheFile> files = cache.files(true);
        QCOMPARE(files.size(), size_t(3)); // not notes.sqlite
        for (const CacheFile &f : files) {
            QVERIFY(f.nsysExport);
            if (f.path == live) {
                QCOMPARE(f.bytes, uint64_t(4000 + rep.size() + 1));
                QCOMPARE(f.reportPath, rep);
                QVERIFY(f.reportExists && !f.temp);
            } else if (f.path == gone) {
                QVERIFY(!f.reportExists && !f.temp);
            } else {
                QCOMPARE(f.path, unfinished);
                QVERIFY(f.temp);
            }
        }
        // Pruning: the unfinished one (old) as a temporary, the orphan with its marker.
        const CachePruneResult r = cache.prune(withOrphans());
        QCOMPARE(r.removed.size(), size_t(2));
        QVERIFY(!exists(unfinished) && !exists(gone) && !exists(gone + ".done"));
        QVERIFY(exists(live) && exists(live + ".done") && exists(foreign));
        // A report cache saved over a cap that cannot hold both evicts the older export.
        QVERIFY(loadCached(sample("extrap__concurrent.s1.sqlite"), dir, uint64_t(1)));
        QVERIFY(!exists(live) && !exists(live + ".done"));
        QVERIFY(exists(foreign));
        QCOMPARE(cache.files().size(), size_t(1));
    }

    void staleTempsCleaned()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        QVERIFY(loadCached(sample("extrap__concurrent.s1.sqlite"), dir));
        const std::string oldTemp = dir + "/0123456789abcdef.pstc.Ab12Cd";
        const std::string liveTemp = dir + "/0123456789abcdef.pstc.Xy34Zw";
        writeFile(oldTemp, QByteArray(1000, 'x'));
        writeFile(liveTemp, QByteArray(1000, 'x'));
        setLastUse(oldTemp, kStaleTempAgeNs / 1000000000 + 60);
        setLastUse(liveTemp, 5); // a write in progress
        const TraceCache cache(dir);
        std::vector<CacheFile> files = cache.files();
        QCOMPARE(files.size(), size_t(3));
        QCOMPARE(std::count_if(files.begin(), files.end(), [](const CacheFile &f) { return f.temp; }), 2);
        // The next save cleans the leftover and leaves the live one.
        QVERIFY(loadCached(sample("extrap__concurrent.s2.sqlite"), dir));
        QVERIFY(!exists(oldTemp));
        QVERIFY(exists(liveTemp));
        // A live temporary is never evicted, even over the cap; clear removes it.
        const CachePruneResult r = TraceCache(dir, 0).prune();
        QCOMPARE(r.removed.size(), size_t(2));
        QVERIFY(exists(liveTemp));
        QCOMPARE(r.filesLeft, size_t(1));
        QCOMPARE(cache.clear().removed.size(), size_t(1));
        QVERIFY(!exists(liveTemp));
        QVERIFY(cache.files().empty());
    }

    void byteSizes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qlonglong>("bytes"); // -1: invalid
        QTest::newRow("plain") << "1073741824" << qlonglong(1073741824);
        QTest::newRow("zero") << "0" << qlonglong(0);
        QTest::newRow("K") << "1K" << qlonglong(1024);
        QTest::newRow("k lower") << "512k" << qlonglong(512 * 1024);
        QTest::newRow("M") << "10M" << qlonglong(10) * 1024 * 1024;
        QTest::newRow("G") << "10G" << (qlonglong(10) << 30);
        QTest::newRow("GiB") << "10GiB" << (qlonglong(10) << 30);
        QTest::newRow("GB") << "2gb" << (qlonglong(2) << 30);
        QTest::newRow("T") << "1T" << (qlonglong(1) << 40);
        QTest::newRow("fraction") << "1.5G" << (qlonglong(3) << 29);
        QTest::newRow("B") << "100B" << qlonglong(100);
        QTest::newRow("spaces around") << " 20M " << (qlonglong(20) << 20);
        QTest::newRow("empty") << "" << qlonglong(-1);
        QTest::newRow("word") << "lots" << qlonglong(-1);
        QTest::newRow("negative") << "-1G" << qlonglong(-1);
        QTest::newRow("unknown unit") << "10X" << qlonglong(-1);
        QTest::newRow("space inside") << "10 G" << qlonglong(-1);
        QTest::newRow("exponent") << "1e9" << qlonglong(-1);
        QTest::newRow("fraction of a byte") << "1.5" << qlonglong(-1);
        QTest::newRow("overflow") << "99999999999T" << qlonglong(-1);
        QTest::newRow("overflow digits") << "999999999999999999999999" << qlonglong(-1);
    }
    void byteSizes()
    {
        QFETCH(QString, text);
        QFETCH(qlonglong, bytes);
        std::string error;
        const std::optional<uint64_t> v = parseByteSize(text.toStdString(), error);
        if (bytes < 0) {
            QVERIFY(!v);
            QVERIFY2(error.find("'" + text.toStdString() + "'") != std::string::npos, error.c_str());
        } else {
            QVERIFY2(v, error.c_str());
            QCOMPARE(qlonglong(*v), bytes);
        }
    }

    void capFromEnvironment()
    {
        const EnvGuard cap("PROFSTUDIO_CACHE_MAX_BYTES");
        cap.unset();
        std::string error;
        QCOMPARE(defaultCacheMaxBytes(&error), kDefaultCacheMaxBytes);
        QVERIFY(error.empty());
        QCOMPARE(TraceCache("/tmp/x").maxBytes(), uint64_t(10) << 30);

        cap.set("2M");
        QCOMPARE(defaultCacheMaxBytes(&error), uint64_t(2) << 20);
        QVERIFY(error.empty());
        QCOMPARE(TraceCache("/tmp/x").maxBytes(), uint64_t(2) << 20);
        QCOMPARE(TraceCache("/tmp/x", 5).maxBytes(), uint64_t(5)); // an explicit cap wins
        QVERIFY(TraceCache("/tmp/x").maxBytesProblem().empty());

        cap.set("ten gigs");
        QCOMPARE(defaultCacheMaxBytes(&error), kDefaultCacheMaxBytes);
        QCOMPARE(QString::fromStdString(error),
                 QString("PROFSTUDIO_CACHE_MAX_BYTES: 'ten gigs' is not a size: expected bytes, or a number with K, "
                         "M, G or T (binary: 1K = 1024 bytes), e.g. 10G or 500M; using the default 10.0 GiB"));
        QCOMPARE(QString::fromStdString(TraceCache("/tmp/x").maxBytesProblem()), QString::fromStdString(error));
        QVERIFY(TraceCache("/tmp/x", 5).maxBytesProblem().empty());

        // Through the loader: the variable caps the cache of a load that names no cap.
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        const std::string a = sample("extrap__concurrent.s1.sqlite"), b = sample("extrap__concurrent.s2.sqlite");
        cap.set("1K");
        QVERIFY(loadCached(a, dir));
        QVERIFY(loadCached(b, dir));
        QCOMPARE(TraceCache(dir).files().size(), size_t(1));
        // An invalid value falls back to the default: nothing is evicted, the load works.
        cap.set("-5");
        QVERIFY(loadCached(a, dir));
        QCOMPARE(TraceCache(dir).files().size(), size_t(2));
    }

    void byteSizeText()
    {
        QCOMPARE(QString::fromStdString(formatByteSize(0)), QString("0 B"));
        QCOMPARE(QString::fromStdString(formatByteSize(1023)), QString("1023 B"));
        QCOMPARE(QString::fromStdString(formatByteSize(1536)), QString("1.5 KiB"));
        QCOMPARE(QString::fromStdString(formatByteSize(kDefaultCacheMaxBytes)), QString("10.0 GiB"));
    }
};

QTEST_GUILESS_MAIN(TestTraceCache)
#include "tst_tracecache.moc"
