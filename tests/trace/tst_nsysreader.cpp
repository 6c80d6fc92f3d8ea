// The nsys SQLite reader on every real export in testdata: per-kind counts, origins, pids,
// thread names and correlation checked against independent SQL over the same files.

#include "core/trace/nsys/nvtxeventtype.h"
#include "core/trace/read/traceloader.h"
#include "tests/support/reportload.h"
#include "tests/support/sqlref.h"
#include "tests/support/testdata.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <random>
#include <set>

using namespace ps::core::trace;
namespace nsys = ps::core::trace::nsys;

class TestNsysReader : public QObject
{
    Q_OBJECT

    static ReportPtr load(const QString &path, int threads = 1, size_t splitRows = 500000)
    {
        ReadContext ctx;
        ctx.threads = threads;
        ctx.splitRows = splitRows;
        return ps::test::loadTestReport(path, ctx);
    }

private slots:
    // Device memory from CUDA_GPU_MEMORY_USAGE_EVENTS against SQL's running sum (a window
    // function): final value, peak and sample count per device, in the events' clock.
    void gpuMemoryMatchesSql()
    {
        int checked = 0;
        for (const QString &path : ps::test::nsysFiles()) {
            ps::test::SqlRef db(path.toStdString());
            const std::string kinds = " FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE memKind IN (2, 3, 5)";
            if (!db.hasTable("CUDA_GPU_MEMORY_USAGE_EVENTS") || db.integer("SELECT count(*)" + kinds) <= 0)
                continue;
            const ReportPtr r = load(path);
            QVERIFY(r);
            for (const QVariantList &d : db.rows("SELECT DISTINCT deviceId" + kinds)) {
                const std::string dev = " AND deviceId = " + d[0].toString().toStdString();
                const auto it = std::find_if(r->meta.memory.begin(), r->meta.memory.end(),
                                             [&](const MemorySeries &m) { return m.device == d[0].toUInt(); });
                QVERIFY(it != r->meta.memory.end());
                const std::string signedBytes = "CASE memoryOperationType WHEN 0 THEN bytes ELSE -bytes END";
                QCOMPARE(it->bytes.back(), db.integer("SELECT sum(" + signedBytes + ")" + kinds + dev));
                QCOMPARE(it->peakBytes(), db.integer("SELECT max(s) FROM (SELECT sum(" + signedBytes +
                                                     ") OVER (ORDER BY start, rowid) s" + kinds + dev + ")"));
                QCOMPARE(int64_t(it->timeNs.size()), db.integer("SELECT count(DISTINCT start)" + kinds + dev));
                // The events' clock: the series lies within the capture.
                QVERIFY(it->timeNs.front() >= r->store->firstStart() - 1'000'000'000);
                QVERIFY(it->timeNs.back() <= r->store->lastEnd() + 1'000'000'000);
                ++checked;
            }
        }
        QVERIFY2(checked > 0, "an nsys sample records device memory");
    }

    void everyExport_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("threads");
        const QStringList files = ps::test::nsysFiles();
        QVERIFY2(!files.isEmpty(), "no nsys exports in " PS_TESTDATA_DIR "/traces/nsys");
        for (const QString &f : files) {
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f << 1;
            // Tiny split threshold: every table is read as several rowid ranges on 2 connections.
            QTest::newRow(qPrintable(QFileInfo(f).fileName() + " split")) << f << 2;
        }
    }
    void everyExport()
    {
        QFETCH(QString, path);
        QFETCH(int, threads);
        const QFileInfo before(path);
        ReportPtr r = load(path, threads, threads > 1 ? 7 : 500000);
        QVERIFY(r);
        const EventStore &s = *r->store;
        ps::test::SqlRef db(path.toStdString());
        QVERIFY(db.ok());

        QCOMPARE(int64_t(s.count(TrackKind::Kernel)), db.countWhere("CUPTI_ACTIVITY_KIND_KERNEL"));
        QCOMPARE(int64_t(s.count(TrackKind::Memcpy)), db.countWhere("CUPTI_ACTIVITY_KIND_MEMCPY"));
        QCOMPARE(int64_t(s.count(TrackKind::Memset)), db.countWhere("CUPTI_ACTIVITY_KIND_MEMSET"));
        QCOMPARE(int64_t(s.count(TrackKind::Sync)), db.countWhere("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
        QCOMPARE(int64_t(s.count(TrackKind::CudaApi)),
                 db.countWhere("CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass IN (0,1)"));
        QCOMPARE(int64_t(s.count(TrackKind::OsRuntime)), db.countWhere("OSRT_API"));
        QCOMPARE(int64_t(s.count(TrackKind::NvtxPushPop)),
                 db.countWhere(
                     "NVTX_EVENTS",
                     "eventType IN (" +
                         nsys::sqlList({nsys::NvtxEventType::PushPopRange, nsys::NvtxEventType::NvtxtPushPop}) + ")"));
        QCOMPARE(int64_t(s.count(TrackKind::NvtxStartEnd)),
                 db.countWhere("NVTX_EVENTS", "eventType IN (" +
                                                  nsys::sqlList({nsys::NvtxEventType::StartEndRange,
                                                                 nsys::NvtxEventType::NvtxtStartEnd}) +
                                                  ")"));
        QCOMPARE(int64_t(s.count(TrackKind::NvtxMark)),
                 db.countWhere("NVTX_EVENTS", "eventType = " + nsys::sqlList({nsys::NvtxEventType::Mark})));
        for (int k = 0; k < kTrackKindCount; ++k)
            QCOMPARE(r->meta.fileCounts[size_t(k)], s.count(TrackKind(k)));

        // UTC origin, or its absence with a warning.
        const auto utc = db.hasTable("TARGET_INFO_SESSION_START_TIME")
                             ? db.scalar("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME")
                             : std::nullopt;
        QCOMPARE(r->meta.utcStartNs, utc);
        if (!utc)
            QVERIFY(!r->meta.warnings.empty());

        // Captured stdout/stderr per process.
        QCOMPARE(int64_t(r->meta.processStreams.size()), db.countWhere("ProcessStreams"));
        for (const auto &ps : r->meta.processStreams) {
            QVERIFY(!ps.file.empty());
            QCOMPARE(db.scalar("SELECT count(*) FROM ProcessStreams ps JOIN StringIds f ON f.id = ps.filenameId "
                               "WHERE ((ps.globalPid >> 24) & 16777215) = " +
                               std::to_string(ps.pid) + " AND f.value = '" + ps.file + "'"),
                     std::optional<int64_t>(1));
        }

        // Processes with events, from masked global ids.
        std::set<int64_t> pids;
        for (auto [table, col] : {std::pair{"CUPTI_ACTIVITY_KIND_KERNEL", "globalPid"},
                                  {"CUPTI_ACTIVITY_KIND_MEMCPY", "globalPid"},
                                  {"CUPTI_ACTIVITY_KIND_MEMSET", "globalPid"},
                                  {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "globalPid"},
                                  {"CUPTI_ACTIVITY_KIND_RUNTIME", "globalTid"},
                                  {"OSRT_API", "globalTid"},
                                  {"NVTX_EVENTS", "globalTid"}}) {
            if (!db.hasTable(table))
                continue;
            std::string where = std::string(table) == "NVTX_EVENTS" ? " WHERE eventType IN (34,59,60,70,71)"
                                : std::string(table) == "CUPTI_ACTIVITY_KIND_RUNTIME" ? " WHERE eventClass IN (0,1)"
                                                                                      : "";
            for (auto &row : db.summaryRows(std::string("SELECT DISTINCT '', (") + col +
                                            " >> 24) & 16777215, 0, 0, 0 FROM " + table + where))
                pids.insert(row.count);
        }
        QCOMPARE(std::set<int64_t>(r->meta.pids.begin(), r->meta.pids.end()), pids);

        // Earliest event equals the SQL minimum over the tables read.
        if (s.eventCount() > 0) {
            int64_t minStart = INT64_MAX;
            for (auto [table, where] : {std::pair{"CUPTI_ACTIVITY_KIND_KERNEL", "1"},
                                        {"CUPTI_ACTIVITY_KIND_MEMCPY", "1"},
                                        {"CUPTI_ACTIVITY_KIND_MEMSET", "1"},
                                        {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "1"},
                                        {"CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass IN (0,1)"},
                                        {"OSRT_API", "1"},
                                        {"NVTX_EVENTS", "eventType IN (34,59,60,70,71)"}})
                if (db.hasTable(table))
                    if (auto v = db.scalar(std::string("SELECT min(start) FROM ") + table + " WHERE " + where))
                        minStart = std::min(minStart, *v);
            QCOMPARE(s.firstStart(), minStart);
        }

        // Thread names on CPU tracks come from ThreadNames.
        for (const Track &t : s.tracks()) {
            if (isGpuKind(t.kind()) || t.label() == kNoName)
                continue;
            const int64_t gtid = (int64_t(t.pid()) << 24) | t.tid();
            auto rows =
                db.summaryRows("SELECT s.value, 0, 0, 0, 0 FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId "
                               "WHERE (t.globalTid & 281474976710655) = " +
                               std::to_string(gtid));
            QVERIFY(!rows.empty());
            QCOMPARE(QString::fromStdString(std::string(s.name(t.label()))), QString::fromStdString(rows[0].name));
        }

        // Every track sorted by start, levels never overlapping.
        for (const Track &t : s.tracks()) {
            std::map<uint16_t, int64_t> levelEnd;
            for (size_t i = 0; i < t.size(); ++i) {
                if (i)
                    QVERIFY(t.start(i - 1) <= t.start(i));
                QVERIFY(t.level(i) < t.levelCount());
                auto it = levelEnd.find(t.level(i));
                if (it != levelEnd.end())
                    QVERIFY2(it->second <= t.start(i), "two events of one level overlap");
                levelEnd[t.level(i)] = std::max(levelEnd[t.level(i)], t.end(i));
            }
        }

        // The file is untouched and nothing appeared beside it.
        const QFileInfo after(path);
        QCOMPARE(after.size(), before.size());
        QCOMPARE(after.lastModified(), before.lastModified());
        QVERIFY(!QFileInfo::exists(path + "-wal"));
        QVERIFY(!QFileInfo::exists(path + "-shm"));
        QVERIFY(!QFileInfo::exists(path + "-journal"));
    }

    // Kernel -> CUDA API call by correlationId within the process, as NVIDIA's example query.
    void correlation_data()
    {
        QTest::addColumn<QString>("path");
        int rows = 0;
        for (const QString &f : ps::test::nsysFiles()) {
            ps::test::SqlRef db(f.toStdString());
            if (db.countWhere("CUPTI_ACTIVITY_KIND_KERNEL") > 0 && db.countWhere("CUPTI_ACTIVITY_KIND_RUNTIME") > 0) {
                QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
                ++rows;
            }
        }
        QVERIFY2(rows > 0, "no nsys export in testdata has both kernels and runtime calls");
    }
    void correlation()
    {
        QFETCH(QString, path);
        ReportPtr r = load(path);
        QVERIFY(r);
        ps::test::SqlRef db(path.toStdString());
        const int64_t expected =
            db.scalar("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS (SELECT 1 FROM "
                      "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = k.correlationId AND r.eventClass IN (0,1) "
                      "AND ((r.globalTid >> 24) & 16777215) = ((k.globalPid >> 24) & 16777215))")
                .value_or(-1);
        const EventStore &s = *r->store;
        int64_t linked = 0;
        for (uint32_t ti : s.tracksOfKind(TrackKind::Kernel)) {
            const Track &k = s.track(ti);
            for (uint32_t i = 0; i < k.size(); ++i) {
                auto api = s.apiCallFor({ti, i});
                if (!api)
                    continue;
                ++linked;
                const Track &a = s.track(api->track);
                QCOMPARE(a.kind(), TrackKind::CudaApi);
                QCOMPARE(a.pid(), k.pid());
                QCOMPARE(a.aux(api->index), k.aux(i));
                // And back: the call's GPU work includes this kernel.
                const auto work = s.gpuWorkFor(*api);
                QVERIFY(std::find(work.begin(), work.end(), EventRef{ti, i}) != work.end());
                QVERIFY(a.start(api->index) <= k.start(i)); // launched before it ran
            }
        }
        QCOMPARE(linked, expected);
        QVERIFY(linked > 0);
    }

    // Regression (fuzz_nsysreader): rowids are any int64, not a row count. A file with rowids 1
    // and 2^62 made the reader reserve an exabyte; min/max at the int64 limits overflowed.
    void sparseRowids_data()
    {
        QTest::addColumn<QString>("update");
        QTest::newRow("gap of 2^62") << "UPDATE t SET rowid = rowid + 4611686018427387904 WHERE rowid > 10";
        QTest::newRow("int64 limits") << "UPDATE t SET rowid = CASE WHEN rowid = 1 THEN -9223372036854775808 "
                                         "WHEN rowid = 2 THEN 9223372036854775807 ELSE rowid END";
        QTest::newRow("all negative") << "UPDATE t SET rowid = -rowid - 1000";
    }
    void sparseRowids()
    {
        QFETCH(QString, update);
        QTemporaryDir dir;
        const QString path = dir.filePath("sparse.sqlite");
        const QString src = ps::test::nsysDir() + "/pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite";
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open_v2(path.toUtf8().constData(), &db,
                                 SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI, nullptr),
                 SQLITE_OK);
        // Real schema and rows, copied from a real export; then the rowids are moved.
        const QString sql = QString::fromStdString(ps::test::attachReadOnlySql(src.toStdString(), "src")) +
                            "CREATE TABLE StringIds AS SELECT * FROM src.StringIds;"
                            "CREATE TABLE t AS SELECT * FROM src.CUPTI_ACTIVITY_KIND_RUNTIME;" +
                            update + ";ALTER TABLE t RENAME TO CUPTI_ACTIVITY_KIND_RUNTIME; DETACH src;";
        QCOMPARE(sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
        for (int threads : {1, 2}) {
            ReportPtr r = load(path, threads, 4);
            QVERIFY(r);
            ps::test::SqlRef ref(path.toStdString());
            QCOMPARE(int64_t(r->store->count(TrackKind::CudaApi)),
                     ref.countWhere("CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass IN (0,1)"));
        }
    }

    // Window queries equal a brute-force scan on real tracks.
    void windowQueries()
    {
        ReportPtr r = load(ps::test::nsysDir() + "/extrap__ex-gpu.s10.sqlite");
        QVERIFY(r);
        std::mt19937_64 rng(42);
        const EventStore &s = *r->store;
        for (const Track &t : s.tracks()) {
            for (int q = 0; q < 50; ++q) {
                std::uniform_int_distribution<int64_t> d(s.firstStart() - 1000, s.lastEnd() + 1000);
                int64_t a = d(rng), b = d(rng);
                if (a > b)
                    std::swap(a, b);
                const IndexRange w = t.window(a, b);
                for (size_t i = 0; i < t.size(); ++i) {
                    const bool overlaps = t.end(i) > a && t.start(i) < b;
                    if (overlaps)
                        QVERIFY(i >= w.first && i < w.last);
                }
            }
        }
    }

    // Kernel names: demangled as the name, short name through the store, launch geometry kept.
    void kernelDetails()
    {
        const QString path = ps::test::nsysDir() + "/pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite";
        ReportPtr r = load(path);
        QVERIFY(r);
        ps::test::SqlRef db(path.toStdString());
        auto rows =
            db.summaryRows("SELECT d.value, k.gridX, k.blockX, 0, 0 FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds "
                           "d ON d.id = k.demangledName ORDER BY k.start LIMIT 1");
        QCOMPARE(rows.size(), size_t(1));
        const EventStore &s = *r->store;
        const auto kernels = s.tracksOfKind(TrackKind::Kernel);
        QVERIFY(!kernels.empty());
        EventRef first{kernels[0], 0};
        for (uint32_t ti : kernels)
            if (s.track(ti).start(0) < s.track(first.track).start(0))
                first = {ti, 0};
        QCOMPARE(QString::fromStdString(std::string(s.name(s.track(first.track).name(0)))),
                 QString::fromStdString(rows[0].name));
        auto lc = s.launchConfigOf(first);
        QVERIFY(lc);
        QCOMPARE(int64_t(lc->gridX), rows[0].count);
        QCOMPARE(int64_t(lc->blockX), rows[0].total);
        auto shortRows =
            db.summaryRows("SELECT s.value, 0, 0, 0, 0 FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                           "s.id = k.shortName ORDER BY k.start LIMIT 1");
        QCOMPARE(QString::fromStdString(std::string(s.name(s.shortNameOf(s.track(first.track).name(0))))),
                 QString::fromStdString(shortRows[0].name));
    }

    // GPU tracks are labelled by their queue; CUPTI's event syncs carry streamId -1 and land on
    // a "no stream" track of their device rather than on "stream 4294967295".
    void gpuTrackLabels()
    {
        const QString path = ps::test::nsysDir() + "/extrap__concurrent.s1.sqlite";
        ReportPtr r = load(path);
        QVERIFY(r);
        ps::test::SqlRef db(path.toStdString());
        const int64_t noStreamSyncs =
            db.summaryRows("SELECT '', count(*), 0, 0, 0 FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION "
                           "WHERE streamId = 4294967295 OR streamId = -1")[0]
                .count;
        QVERIFY(noStreamSyncs > 0);
        const EventStore &s = *r->store;
        int64_t seen = 0;
        for (uint32_t ti : s.tracksOfKind(TrackKind::Sync)) {
            const Track &t = s.track(ti);
            const std::string label(s.name(t.label()));
            if (t.streamId() == kNoStream) {
                QCOMPARE(QString::fromStdString(label), QStringLiteral("no stream"));
                seen += int64_t(t.size());
            } else {
                QCOMPARE(QString::fromStdString(label), QStringLiteral("stream %1").arg(t.streamId()));
            }
        }
        QCOMPARE(seen, noStreamSyncs);
        for (uint32_t ti : s.tracksOfKind(TrackKind::Kernel))
            QCOMPARE(QString::fromStdString(std::string(s.name(s.track(ti).label()))),
                     QStringLiteral("stream %1").arg(s.track(ti).streamId()));
    }

    // NVTX: push/pop depth equals the number of enclosing ranges on the thread.
    void nvtxDepth()
    {
        ReportPtr r = load(ps::test::nsysDir() + "/extrap__concurrent.s1.sqlite");
        QVERIFY(r);
        const EventStore &s = *r->store;
        size_t checked = 0;
        for (uint32_t ti : s.tracksOfKind(TrackKind::NvtxPushPop)) {
            const Track &t = s.track(ti);
            for (size_t i = 0; i < t.size(); ++i) {
                int enclosing = 0;
                for (size_t j = 0; j < i; ++j)
                    if (t.end(j) > t.start(i)) {
                        QVERIFY2(t.end(j) >= t.end(i), "push/pop ranges must nest");
                        ++enclosing;
                    }
                QCOMPARE(int(t.level(i)), enclosing);
                ++checked;
            }
        }
        QVERIFY(checked > 0);
        // Names joined through text or textId (saxpy uses both).
        ReportPtr sx = load(ps::test::nsysDir() + "/pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite");
        QVERIFY(sx);
        std::set<std::string> names;
        for (uint32_t ti : sx->store->tracksOfKind(TrackKind::NvtxPushPop))
            for (size_t i = 0; i < sx->store->track(ti).size(); ++i)
                names.insert(std::string(sx->store->name(sx->store->track(ti).name(i))));
        QVERIFY(names.count("saxpy"));
        QVERIFY(names.count("MPI_Send"));
        QVERIFY(!names.count(""));
    }
};

QTEST_GUILESS_MAIN(TestNsysReader)
#include "tst_nsysreader.moc"
