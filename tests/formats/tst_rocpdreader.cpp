// The rocpd reader on the real rocprofv3 sample (counts, named events and correlation against
// SQL over its own views) and on databases the test writes in both layouts (schema 3 inline
// times, schema 4 rocpd_timestamp/rocpd_track) with roctx markers and memory copies.

#include "core/trace/formats/formatreaders.h"
#include "core/trace/formats/rocpdreader.h"
#include "core/trace/read/traceloader.h"
#include "rocpdfixture.h"
#include "storefind.h"
#include "tests/support/reportload.h"
#include "tests/support/sqlref.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps::core::trace;
using ps::core::CancelToken;

namespace {

QString sample()
{
    return QStringLiteral(PS_TESTDATA_DIR "/traces/rocpd/batched_gemm__37ca13315e70__28_results.db");
}

} // namespace

class TestRocpdReader : public QObject
{
    Q_OBJECT

private slots:

    void realSample()
    {
        const QStringList before = QDir(QFileInfo(sample()).path()).entryList(QDir::Files);
        ReportPtr r = ps::test::loadTestReport(sample());
        QVERIFY(r);
        const EventStore &s = *r->store;
        ps::test::SqlRef db(sample());
        QVERIFY(db.ok());
        QCOMPARE(r->meta.format, TraceFormat::Rocpd);
        QCOMPARE(QString::fromStdString(r->meta.schemaVersion),
                 db.value("SELECT value FROM rocpd_metadata WHERE tag = 'schema_version'").toString());

        QCOMPARE(qint64(s.count(TrackKind::Kernel)), db.count("SELECT count(*) FROM rocpd_kernel_dispatch"));
        QCOMPARE(qint64(s.count(TrackKind::Memcpy)), db.count("SELECT count(*) FROM rocpd_memory_copy"));
        QCOMPARE(qint64(s.count(TrackKind::CudaApi)),
                 db.count("SELECT count(*) FROM regions WHERE category NOT LIKE '%MARKER%'"));
        QCOMPARE(qint64(s.count(TrackKind::NvtxPushPop) + s.count(TrackKind::NvtxStartEnd)),
                 db.count("SELECT count(*) FROM regions WHERE category LIKE '%MARKER%'"));
        QCOMPARE(qint64(s.count(TrackKind::NvtxMark)),
                 db.count("SELECT count(*) FROM samples WHERE category LIKE '%MARKER%'"));
        for (int k = 0; k < kTrackKindCount; ++k)
            QCOMPARE(r->meta.fileCounts[size_t(k)], s.count(TrackKind(k)));

        // Named events: the first and the longest kernel, the first HIP call, through the views.
        for (const QString &sql :
             {QString("SELECT name, start, end - start FROM kernels ORDER BY start LIMIT 1"),
              QString("SELECT name, start, end - start FROM kernels ORDER BY end - start DESC LIMIT 1")}) {
            const auto row = db.rows(sql).at(0);
            const auto e = storefind::find(s, TrackKind::Kernel, row[0].toString(), row[1].toLongLong());
            QVERIFY2(e, qPrintable(row[0].toString()));
            QCOMPARE(storefind::duration(s, *e), row[2].toLongLong());
        }
        const auto api = db.rows("SELECT name, start, end - start FROM regions ORDER BY start LIMIT 1").at(0);
        const auto a = storefind::find(s, TrackKind::CudaApi, api[0].toString(), api[1].toLongLong());
        QVERIFY(a);
        QCOMPARE(storefind::duration(s, *a), api[2].toLongLong());

        // Every kernel finds the HIP call that launched it (same stack_id in the views).
        const auto pairs = db.rows("SELECT k.start, r.name FROM kernels k JOIN regions r ON r.stack_id = k.stack_id "
                                   "AND r.guid = k.guid");
        QCOMPARE(qint64(pairs.size()), qint64(s.count(TrackKind::Kernel)));
        for (const auto &p : pairs) {
            std::optional<EventRef> k;
            for (uint32_t ti : s.tracksOfKind(TrackKind::Kernel))
                for (size_t i = 0; i < s.track(ti).size() && !k; ++i)
                    if (s.track(ti).start(i) == p[0].toLongLong())
                        k = EventRef{ti, uint32_t(i)};
            QVERIFY(k);
            const auto call = s.apiCallFor(*k);
            QVERIFY(call);
            QCOMPARE(storefind::nameOf(s, *call), p[1].toString());
        }

        QVERIFY(!r->meta.utcStartNs);
        QVERIFY(!r->meta.warnings.empty());
        QVERIFY(QString::fromStdString(r->meta.warnings.front()).contains("CLOCK_BOOTTIME"));
        QCOMPARE(QString::fromStdString(r->meta.host), db.value("SELECT hostname FROM rocpd_info_node").toString());
        QCOMPARE(qint64(r->meta.gpus.size()), db.count("SELECT count(*) FROM rocpd_info_agent WHERE type = 'GPU'"));
        QCOMPARE(r->meta.pids, std::vector<uint32_t>{uint32_t(db.count("SELECT pid FROM processes"))});
        QCOMPARE(QDir(QFileInfo(sample()).path()).entryList(QDir::Files), before); // no -wal/-shm beside it
    }

    void generated_data()
    {
        QTest::addColumn<bool>("v4");
        QTest::newRow("schema 3") << false;
        QTest::newRow("schema 4") << true;
    }
    void generated()
    {
        QFETCH(bool, v4);
        QTemporaryDir dir;
        const QString path = dir.filePath("4242_results.db");
        const std::string err = rocpdfixture::write(path.toStdString(), v4);
        QVERIFY2(err.empty(), err.c_str());
        ReportPtr r = ps::test::loadTestReport(path);
        QVERIFY(r);
        const EventStore &s = *r->store;
        QCOMPARE(r->meta.format, TraceFormat::Rocpd);
        QCOMPARE(s.count(TrackKind::CudaApi), size_t(2));
        QCOMPARE(s.count(TrackKind::Kernel), size_t(1));
        QCOMPARE(s.count(TrackKind::Memcpy), size_t(2));
        QCOMPARE(s.count(TrackKind::NvtxPushPop), size_t(1));
        QCOMPARE(s.count(TrackKind::NvtxStartEnd), size_t(1));
        QCOMPARE(s.count(TrackKind::NvtxMark), size_t(1));

        const auto k = storefind::find(s, TrackKind::Kernel, "gemm_kernel(float*)", 1150);
        QVERIFY(k);
        QCOMPARE(storefind::duration(s, *k), int64_t(750));
        QCOMPARE(s.track(k->track).deviceId(), uint32_t(0)); // agent 2 = GPU index 0
        QCOMPARE(s.track(k->track).streamId(), uint32_t(5)); // queue 5
        QCOMPARE(s.track(k->track).pid(), uint32_t(4242));
        const auto lc = s.launchConfigOf(*k);
        QVERIFY(lc);
        QCOMPARE(lc->gridX, uint32_t(1024));
        QCOMPARE(lc->blockX, uint32_t(256));
        const auto launch = s.apiCallFor(*k);
        QVERIFY(launch);
        QCOMPARE(storefind::nameOf(s, *launch), QString("hipLaunchKernel"));
        QCOMPARE(s.track(launch->track).attr(launch->index), uint16_t(ApiClass::Runtime));

        const auto range = storefind::find(s, TrackKind::NvtxPushPop, "step 1", 900);
        QVERIFY(range);
        QCOMPARE(storefind::duration(s, *range), int64_t(1100));
        const auto async = storefind::find(s, TrackKind::NvtxStartEnd, "async range", 950);
        QVERIFY(async);
        QCOMPARE(s.track(async->track).tid(), uint32_t(4243));
        QVERIFY(storefind::find(s, TrackKind::NvtxMark, "checkpoint", 1500));

        const auto htod = storefind::find(s, TrackKind::Memcpy, "Memcpy HtoD", 1250);
        QVERIFY(htod);
        QCOMPARE(s.track(htod->track).attr(htod->index), uint16_t(1));
        QCOMPARE(s.track(htod->track).bytes(htod->index), uint64_t(4096));
        QCOMPARE(s.track(htod->track).deviceId(), uint32_t(0));
        const auto copyCall = s.apiCallFor(*htod);
        QVERIFY(copyCall);
        QCOMPARE(storefind::nameOf(s, *copyCall), QString("hipMemcpyAsync"));
        const auto p2p = storefind::find(s, TrackKind::Memcpy, "Memcpy PtoP", 2000);
        QVERIFY(p2p);
        QCOMPARE(s.track(p2p->track).attr(p2p->index), uint16_t(10));
        QCOMPARE(s.track(p2p->track).deviceId(), uint32_t(1)); // drawn on the destination GPU

        QCOMPARE(r->meta.pids, std::vector<uint32_t>{4242});
        QCOMPARE(QString::fromStdString(r->meta.host), QString("testhost"));
        QCOMPARE(s.name(s.threadName(4242, 4243)), std::string_view("worker"));
        QCOMPARE(QString::fromStdString(r->meta.schemaVersion), QString(v4 ? "4.0.0" : "3"));
        QCOMPARE(r->meta.gpus.size(), size_t(2));

        // Device memory: REAL allocations of GPU agents, a free subtracting its address's size.
        QCOMPARE(r->meta.memory.size(), size_t(2));
        const MemorySeries &gpu0 = r->meta.memory[0];
        QCOMPARE(gpu0.device, uint32_t(0));
        QCOMPARE(gpu0.timeNs, (std::vector<int64_t>{1000, 1100, 1200}));
        QCOMPARE(gpu0.bytes, (std::vector<int64_t>{4096, 12288, 8192}));
        QCOMPARE(gpu0.peakBytes(), int64_t(12288));
        QCOMPARE(r->meta.memory[1].device, uint32_t(1));
        QCOMPARE(r->meta.memory[1].bytes, std::vector<int64_t>{100});
    }

    void notRocpd()
    {
        // The legacy RPD format shares the rocpd_ prefix; it is named, not misread.
        QTemporaryDir dir;
        const QString path = dir.filePath("legacy.rpd.db");
        sqlite3 *db = nullptr;
        sqlite3_open(path.toUtf8().constData(), &db);
        sqlite3_exec(db,
                     "CREATE TABLE rocpd_op(id INTEGER); CREATE TABLE rocpd_api(id INTEGER); "
                     "CREATE TABLE rocpd_metadata(id INTEGER, tag TEXT, value TEXT);",
                     nullptr, nullptr, nullptr);
        sqlite3_close(db);
        std::string error;
        QVERIFY(!loadReport(path.toStdString(), ReadContext{}, error));
        QVERIFY2(QString::fromStdString(error).contains("legacy"), error.c_str());
    }

    // A file with more rows than one poll interval: a cancelled read stops with "cancelled", the
    // same read without cancellation loads every row (so the file is big enough to be polled).
    void cancelled()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("4242_results.db");
        QCOMPARE(QString::fromStdString(rocpdfixture::write(path.toStdString(), false)), QString());
        const int extra = int(2 * kPollRows);
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        const std::string more = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
                                 std::to_string(extra) +
                                 ") INSERT INTO rocpd_region_u1(nid, pid, tid, start, end, name_id, event_id) "
                                 "SELECT 1, 1, 1, 5000 + 10 * i, 5005 + 10 * i, 1, 1 FROM n;";
        QCOMPARE(sqlite3_exec(db, more.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);

        CancelToken cancel;
        cancel.cancel();
        ReadContext ctx;
        ctx.cancel = &cancel;
        StoreBuilder cancelledBuilder;
        ReportMeta meta;
        const std::string err = RocpdReader().read(path.toStdString(), cancelledBuilder, meta, ctx);
        QVERIFY2(QString::fromStdString(err).contains("cancelled"), err.c_str());

        ReportPtr r = ps::test::loadTestReport(path);
        QVERIFY(r);
        QCOMPARE(r->store->count(TrackKind::CudaApi), size_t(2 + extra));
    }
};

QTEST_GUILESS_MAIN(TestRocpdReader)
#include "tst_rocpdreader.moc"
