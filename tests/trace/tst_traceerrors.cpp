// Bad inputs give a clear error naming the file, never a crash; one bad report does not stop
// the others; progress and cancellation.

#include "core/trace/persist/tracecache.h"
#include "core/trace/read/traceloader.h"
#include "tests/support/sqlref.h"
#include "tests/support/testdata.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <cstdlib>
#include <future>
#include <map>
#include <mutex>

using namespace ps::core::trace;
using ps::core::CancelToken;

namespace {

const QString kGood = ps::test::nsysDir() + "/dlprof__nsys_profile.sqlite";

void writeBytes(const QString &path, const QByteArray &data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(data);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void makeSqlite(const QString &path, const char *sql)
{
    sqlite3 *db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
}

LoadOptions noCache(const QTemporaryDir &dir)
{
    LoadOptions o;
    o.useCache = false;
    o.cacheDir = dir.filePath("cache").toStdString();
    return o;
}

} // namespace

class TestTraceErrors : public QObject
{
    Q_OBJECT
private slots:
    void badInput_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expect"); // part of the message
        QTest::newRow("empty") << "empty"
                               << "empty file";
        QTest::newRow("random bytes") << "random"
                                      << "SQLite";
        QTest::newRow("text named .sqlite") << "text"
                                            << "SQLite";
        QTest::newRow("sqlite header then garbage") << "garbage"
                                                    << "";
        QTest::newRow("truncated export") << "truncated"
                                          << "";
        QTest::newRow("non-nsys sqlite") << "foreign"
                                         << "not an Nsight Systems SQLite export";
        QTest::newRow("empty sqlite db") << "emptydb"
                                         << "not an Nsight Systems SQLite export";
        QTest::newRow("missing") << "missing"
                                 << "no such file";
        QTest::newRow("directory") << "directory"
                                   << "";
    }
    void badInput()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expect);
        QTemporaryDir dir;
        const QString path = dir.filePath("bad_" + kind + ".sqlite");
        if (kind == "empty") {
            writeBytes(path, {});
        } else if (kind == "random") {
            QByteArray b(8192, '\0');
            for (int i = 0; i < b.size(); ++i)
                b[i] = char((i * 2654435761u) >> 13);
            writeBytes(path, b);
        } else if (kind == "text") {
            writeBytes(path, "this is not a database\n");
        } else if (kind == "garbage") {
            QByteArray b = readAll(kGood).left(100);
            b.append(QByteArray(40000, '\x5a'));
            writeBytes(path, b);
        } else if (kind == "truncated") {
            writeBytes(path, readAll(kGood).left(150000));
        } else if (kind == "foreign") {
            makeSqlite(path, "CREATE TABLE people(name TEXT); INSERT INTO people VALUES ('x');");
        } else if (kind == "emptydb") {
            makeSqlite(path, "PRAGMA user_version=1;");
        } else if (kind == "directory") {
            QVERIFY(QDir().mkpath(path));
        }
        const QByteArray before = QFileInfo::exists(path) && !QFileInfo(path).isDir() ? readAll(path) : QByteArray();
        const LoadResult r = loadReports({path.toStdString()}, noCache(dir));
        QCOMPARE(r.reports.size(), size_t(0));
        if (kind == "directory") {
            QCOMPARE(r.failures.size(), size_t(0)); // a folder without reports is no error by itself
            return;
        }
        QCOMPARE(r.failures.size(), size_t(1));
        const QString msg = QString::fromStdString(r.failures[0].reason);
        qInfo("%s: %s", qPrintable(kind), qPrintable(msg));
        QVERIFY2(msg.contains(path), "the message names the file");
        if (!expect.isEmpty())
            QVERIFY2(msg.contains(expect, Qt::CaseInsensitive), qPrintable(msg));
        if (!before.isEmpty())
            QCOMPARE(readAll(path), before); // never written
        QVERIFY(!QFileInfo::exists(path + "-wal"));
        QVERIFY(!QFileInfo::exists(path + "-journal"));
    }

    // A FIFO given as a report, whatever its name, or sitting in the cache dir under a report's
    // cache name, once blocked open() forever; now it is refused at once, the cache is read
    // around it, and `trace cache` lists and removes it. (On a build that blocks, the watchdog
    // ends the test as failed instead of hanging the suite.)
    void fifoNeverBlocks()
    {
        QTemporaryDir dir;
        auto checks = std::async(std::launch::async, [&] {
            QStringList problems;
            for (const char *name : {"r.sqlite", "r.sqlite.psdigest", "r.pt.trace.json", "r.db", "r.nsys-rep", "r"}) {
                const QString path = dir.filePath(name);
                if (::mkfifo(path.toUtf8().constData(), 0600) != 0)
                    problems << QString("mkfifo %1").arg(name);
                const LoadResult r = loadReports({path.toStdString()}, noCache(dir));
                const std::string why = r.failures.empty() ? "" : r.failures[0].reason;
                if (!r.reports.empty() || why.find("not a regular file (a FIFO)") == std::string::npos)
                    problems << QString("%1: %2").arg(name, QString::fromStdString(why));
            }
            LoadOptions cached;
            cached.cacheDir = dir.filePath("cache").toStdString();
            QDir().mkpath(dir.filePath("cache"));
            const TraceCache cache(cached.cacheDir);
            const std::string cacheFile = cache.cacheFileFor(kGood.toStdString());
            ::mkfifo(cacheFile.c_str(), 0600);
            if (loadReports({kGood.toStdString()}, cached).reports.size() != 1)
                problems << "a FIFO under the report's cache name stopped the load";
            const QString stray = dir.filePath("cache/0123456789abcdef.pstc");
            ::mkfifo(stray.toUtf8().constData(), 0600);
            const auto listed = cache.files(true);
            const auto fifo = std::find_if(listed.begin(), listed.end(),
                                           [&](const CacheFile &f) { return f.path == stray.toStdString(); });
            if (fifo == listed.end() || !fifo->special || fifo->problem != "not a regular file (a FIFO)")
                problems << "trace cache does not list the FIFO";
            const CachePruneResult pruned = cache.prune();
            if (pruned.removed.empty() || pruned.removed[0].reason != "not a file" || QFileInfo::exists(stray))
                problems << "prune left the FIFO";
            return problems;
        });
        if (checks.wait_for(std::chrono::seconds(120)) != std::future_status::ready) {
            qCritical("FAIL: blocked on a FIFO for 2 minutes");
            std::_Exit(1);
        }
        const QStringList problems = checks.get();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
    }

    // A cache that cannot be written (here its folder is a file) once cost every later open a full
    // read without a word; the load now says so, once, and still loads.
    void unwritableCacheIsAWarning()
    {
        QTemporaryDir dir;
        writeBytes(dir.filePath("cache"), "a file where the cache folder should be");
        LoadOptions o;
        o.cacheDir = dir.filePath("cache").toStdString();
        const LoadResult r = loadReports({kGood.toStdString()}, o);
        QCOMPARE(r.reports.size(), size_t(1));
        QCOMPARE(r.warnings.size(), size_t(1));
        QVERIFY2(r.warnings[0].find("the report cache could not be written for 1 report(s)") != std::string::npos &&
                     r.warnings[0].find(o.cacheDir) != std::string::npos,
                 r.warnings[0].c_str());
    }

    void permissionDenied()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::setPermissions(dir.path(), QFileDevice::Permissions(0x7755)));
        const QString path = dir.filePath("secret.sqlite");
        QVERIFY(QFile::copy(kGood, path));
        QVERIFY(QFile::setPermissions(path, QFileDevice::Permissions()));
        std::string reason;
        if (::geteuid() != 0) {
            const LoadResult r = loadReports({path.toStdString()}, noCache(dir));
            QCOMPARE(r.failures.size(), size_t(1));
            reason = r.failures[0].reason;
        } else {
            // Root reads anything: load from a child that dropped to an unprivileged user.
            int fds[2];
            QCOMPARE(::pipe(fds), 0);
            const pid_t child = ::fork();
            QVERIFY(child >= 0);
            if (child == 0) {
                ::close(fds[0]);
                std::string msg = "could not drop privileges";
                if (::setgid(65534) == 0 && ::setuid(65534) == 0) {
                    const LoadResult r = loadReports({path.toStdString()}, noCache(dir));
                    msg = r.failures.size() == 1 ? r.failures[0].reason : std::string("loaded");
                }
                [[maybe_unused]] auto n = ::write(fds[1], msg.data(), msg.size());
                ::_exit(0);
            }
            ::close(fds[1]);
            char buf[1024];
            ssize_t n;
            while ((n = ::read(fds[0], buf, sizeof buf)) > 0)
                reason.append(buf, size_t(n));
            ::close(fds[0]);
            int status = 0;
            ::waitpid(child, &status, 0);
        }
        qInfo("%s", reason.c_str());
        QVERIFY(QString::fromStdString(reason).contains("Permission denied"));
        QVERIFY(QString::fromStdString(reason).contains(path));
    }

    // Truncated at several points: an error, never a crash or a silently short report.
    void truncatedAnywhere_data()
    {
        QTest::addColumn<double>("fraction");
        for (double f : {0.05, 0.25, 0.5, 0.75, 0.9, 0.99})
            QTest::newRow(qPrintable(QString::number(f))) << f;
    }
    void truncatedAnywhere()
    {
        QFETCH(double, fraction);
        QTemporaryDir dir;
        const QString src = ps::test::nsysDir() + "/ppcu-lab7__report1.sqlite";
        const QByteArray all = readAll(src);
        const QString path = dir.filePath("cut.sqlite");
        writeBytes(path, all.left(int(all.size() * fraction)));
        const LoadResult r = loadReports({path.toStdString()}, noCache(dir));
        QCOMPARE(r.reports.size(), size_t(0));
        QCOMPARE(r.failures.size(), size_t(1));
        QVERIFY(QString::fromStdString(r.failures[0].reason).contains(path));
    }

    // A database another process holds an exclusive write lock on is still read (immutable:
    // we never take or wait for locks) and gives the committed content.
    void lockedByWriter()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("locked.sqlite");
        QVERIFY(QFile::copy(kGood, path));
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        sqlite3 *writer = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &writer), SQLITE_OK);
        QCOMPARE(sqlite3_exec(writer, "BEGIN EXCLUSIVE; CREATE TABLE scratch(x); INSERT INTO scratch VALUES (1);",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        const LoadResult r = loadReports({path.toStdString()}, noCache(dir));
        sqlite3_exec(writer, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(writer);
        QCOMPARE(r.failures.size(), size_t(0));
        QCOMPARE(r.reports.size(), size_t(1));
        ps::test::SqlRef db(kGood.toStdString());
        QCOMPARE(int64_t(r.reports[0]->store->count(TrackKind::Kernel)), db.countWhere("CUPTI_ACTIVITY_KIND_KERNEL"));
    }

    // One bad report among good ones: the good ones load, the bad one says why.
    void failureIsolatedInFolder()
    {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath("run/sub")));
        QVERIFY(QFile::copy(kGood, dir.filePath("run/report1.sqlite")));
        QVERIFY(
            QFile::copy(ps::test::nsysDir() + "/extrap__concurrent.s1.sqlite", dir.filePath("run/sub/report2.sqlite")));
        writeBytes(dir.filePath("run/sub/report3.sqlite"), "garbage");
        writeBytes(dir.filePath("run/notes.txt"), "not a report, ignored in folders");
        std::vector<LoadProgress> updates;
        const LoadResult r = loadReports({dir.filePath("run").toStdString()}, noCache(dir),
                                         [&](const LoadProgress &p) { updates.push_back(p); });
        QCOMPARE(r.reports.size(), size_t(2));
        QCOMPARE(r.failures.size(), size_t(1));
        QVERIFY(QString::fromStdString(r.failures[0].path).endsWith("report3.sqlite"));
        QVERIFY(!updates.empty());
        for (size_t i = 1; i < updates.size(); ++i)
            QVERIFY(updates[i].fraction >= updates[i - 1].fraction);
        QCOMPARE(updates.back().reportsDone, size_t(3));
        QCOMPARE(updates.back().reportsTotal, size_t(3));
        QCOMPARE(updates.back().fraction, 1.0);
        QCOMPARE(r.reports[0]->identity.step, std::optional<int>(1));
        QCOMPARE(QString::fromStdString(r.reports[0]->identity.run), QString("run"));
    }

    void cancelledBeforeStart()
    {
        QTemporaryDir dir;
        CancelToken cancel;
        cancel.cancel();
        const LoadResult r = loadReports({ps::test::nsysDir().toStdString()}, noCache(dir), {}, &cancel);
        QVERIFY(r.cancelled);
        QCOMPARE(r.reports.size(), size_t(0));
        QVERIFY(!r.failures.empty());
        for (const auto &f : r.failures)
            QVERIFY(QString::fromStdString(f.reason).contains("cancelled"));
    }

    // Views show reports as they finish: onReport fires once per loaded report, with its index
    // in findReports() order, and hands over the same report the result holds.
    void onReportFiresOncePerLoadedReport()
    {
        QTemporaryDir dir;
        LoadOptions o = noCache(dir);
        o.threads = 2;
        std::mutex m;
        std::map<size_t, ReportPtr> seen;
        int calls = 0;
        o.onReport = [&](size_t index, const ReportPtr &r) {
            std::lock_guard lock(m);
            ++calls;
            seen[index] = r;
        };
        std::vector<std::string> files;
        for (const QString &f : ps::test::nsysFiles())
            files.push_back(f.toStdString());
        QVERIFY(files.size() >= 2); // several reports, so that the callback order is tested
        files.push_back((dir.path() + "/missing.sqlite").toStdString()); // fails: no callback
        const LoadResult r = loadReports(files, o);
        QCOMPARE(size_t(calls), r.reports.size());
        QCOMPARE(seen.size(), r.reports.size());
        QCOMPARE(r.failures.size(), size_t(1));
        size_t k = 0;
        for (const auto &[index, report] : seen) {
            QCOMPARE(report->path, files[index]);
            QCOMPARE(report.get(), r.reports[k++].get());
        }
    }

    void cancelledWhileLoading()
    {
        QTemporaryDir dir;
        CancelToken cancel;
        LoadOptions o = noCache(dir);
        o.threads = 2;
        std::vector<std::string> files;
        for (const QString &f : ps::test::nsysFiles())
            files.push_back(f.toStdString());
        QVERIFY(files.size() >= 2); // one to cancel after, one left unread
        const LoadResult r = loadReports(
            files, o, [&](const LoadProgress &) { cancel.cancel(); }, &cancel);
        QVERIFY(r.cancelled);
        QVERIFY(r.reports.size() < size_t(ps::test::nsysFiles().size()));
        QCOMPARE(r.reports.size() + r.failures.size(), size_t(ps::test::nsysFiles().size()));
    }
};

QTEST_GUILESS_MAIN(TestTraceErrors)
#include "tst_traceerrors.moc"
