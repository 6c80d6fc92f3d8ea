// The Ascend DB reader on every sample in testdata/traces/ascend: per-kind counts, named
// events, globalTid split, connectionId correlation and rank against SQL over the same files;
// read-only opening of the WAL-mode msprof DB (no -wal/-shm appear).

#include "core/trace/alignment.h"
#include "core/trace/formats/ascendreader.h"
#include "core/trace/formats/formatreaders.h"
#include "core/trace/read/traceloader.h"
#include "core/trace/store/tablespread.h"
#include "core/trace/tracestats.h"
#include "storefind.h"
#include "tests/support/sqlref.h"

#include <algorithm>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps::core::trace;

namespace {

QString ascendDir()
{
    return QStringLiteral(PS_TESTDATA_DIR "/traces/ascend");
}

struct Read
{
    ReportMeta meta;
    std::shared_ptr<EventStore> store;
    std::string error;
};

Read readAscend(const QString &path)
{
    Read r;
    StoreBuilder b;
    r.error = AscendReader().read(path.toStdString(), b, r.meta, ReadContext{});
    if (r.error.empty())
        r.store = std::make_shared<EventStore>(std::move(b).build());
    return r;
}

qint64 countIf(const ps::test::SqlRef &db, const QString &table, const QString &where = "1")
{
    return db.hasTable(table) ? db.count("SELECT count(*) FROM " + table + " WHERE " + where) : 0;
}

} // namespace

class TestAscendReader : public QObject
{
    Q_OBJECT

private slots:

    void everyTimelineDb_data()
    {
        QTest::addColumn<QString>("path");
        int rows = 0;
        for (const QString &f : QDir(ascendDir()).entryList({"*.db"}, QDir::Files, QDir::Name))
            if (!f.endsWith("analysis.db")) {
                QTest::newRow(qPrintable(f)) << ascendDir() + "/" + f;
                ++rows;
            }
        QVERIFY2(rows > 0, qPrintable("no Ascend timeline database in " + ascendDir()));
    }
    void everyTimelineDb()
    {
        QFETCH(QString, path);
        const Read r = readAscend(path);
        QVERIFY2(r.error.empty(), r.error.c_str());
        const EventStore &s = *r.store;
        ps::test::SqlRef db(path);
        QVERIFY(db.ok());
        // MindStudio Insight's task classes: by op table first, then by task type.
        const QString inCompute =
            db.hasTable("COMPUTE_TASK_INFO") ? "globalTaskId IN (SELECT globalTaskId FROM COMPUTE_TASK_INFO)" : "0";
        const QString inComm = db.hasTable("COMMUNICATION_TASK_INFO")
                                   ? "globalTaskId IN (SELECT globalTaskId FROM COMMUNICATION_TASK_INFO)"
                                   : "0";
        const QString neither = "NOT (" + inCompute + ") AND NOT (" + inComm + ")";
        const auto typeIn = [](const char *names) {
            return QString("taskType IN (SELECT id FROM STRING_IDS WHERE value IN (%1))").arg(names);
        };
        const qint64 memory = countIf(db, "TASK", neither + " AND " + typeIn("'MEMCPY_ASYNC', 'SDMA', 'MEMCPY'"));
        const qint64 sync = countIf(db, "TASK",
                                    neither + " AND " +
                                        typeIn("'EVENT_RECORD', 'EVENT_WAIT', 'Notify Wait', 'Notify Record', "
                                               "'EVENT_RESET'"));
        QCOMPARE(qint64(s.count(TrackKind::Memcpy)), memory);
        QCOMPARE(qint64(s.count(TrackKind::Sync)), sync);
        QCOMPARE(qint64(s.count(TrackKind::Kernel)), countIf(db, "TASK") - memory - sync);
        const DeviceTaskCounts classes = countDeviceTasks(s);
        QCOMPARE(qint64(classes.communication), countIf(db, "TASK", inComm));
        if (db.hasTable("COMPUTE_TASK_INFO")) // kernel_sum counts the tasks of named ops only
            QCOMPARE(qint64(classes.compute), countIf(db, "TASK", inCompute));
        QCOMPARE(qint64(classes.compute + classes.communication + classes.other), qint64(s.count(TrackKind::Kernel)));
        QCOMPARE(qint64(s.count(TrackKind::CudaApi)), countIf(db, "CANN_API"));
        QCOMPARE(qint64(s.count(TrackKind::NvtxPushPop)),
                 countIf(db, "PYTORCH_API", "type != 50002") + countIf(db, "MSTX_EVENTS", "eventType = 1"));
        QCOMPARE(qint64(s.count(TrackKind::NvtxStartEnd)), countIf(db, "PYTORCH_API", "type = 50002") +
                                                               countIf(db, "MSTX_EVENTS", "eventType = 2") +
                                                               countIf(db, "COMMUNICATION_OP"));
        QCOMPARE(qint64(s.count(TrackKind::NvtxMark)), countIf(db, "MSTX_EVENTS", "eventType IN (0, 3)"));
        for (int k = 0; k < kTrackKindCount; ++k)
            QCOMPARE(r.meta.fileCounts[size_t(k)], s.count(TrackKind(k)));

        // Named events: first device task (compute name, else communication name, else type).
        const auto task = db.rows(
            "SELECT COALESCE((SELECT value FROM STRING_IDS WHERE id = (SELECT name FROM COMPUTE_TASK_INFO C WHERE "
            "C.globalTaskId = T.globalTaskId)), (SELECT value FROM STRING_IDS WHERE id = (SELECT name FROM "
            "COMMUNICATION_TASK_INFO M WHERE M.globalTaskId = T.globalTaskId LIMIT 1)), (SELECT value FROM "
            "STRING_IDS WHERE id = T.taskType)), startNs, endNs - startNs FROM TASK T ORDER BY startNs LIMIT 1");
        QCOMPARE(task.size(), size_t(1));
        const QString firstType = db.rows("SELECT (SELECT value FROM STRING_IDS WHERE id = taskType) FROM TASK "
                                          "ORDER BY startNs LIMIT 1")[0][0]
                                      .toString();
        const TrackKind taskKind = firstType == "MEMCPY_ASYNC"                               ? TrackKind::Memcpy
                                   : firstType == "EVENT_WAIT" || firstType == "Notify Wait" ? TrackKind::Sync
                                                                                             : TrackKind::Kernel;
        const auto t = storefind::find(s, taskKind, task[0][0].toString(), task[0][1].toLongLong());
        QVERIFY2(t, qPrintable(task[0][0].toString()));
        QCOMPARE(storefind::duration(s, *t), task[0][2].toLongLong());

        const auto cann = db.rows("SELECT (SELECT value FROM STRING_IDS WHERE id = name), startNs, endNs - startNs, "
                                  "globalTid >> 32, globalTid & 4294967295 FROM CANN_API ORDER BY startNs LIMIT 1");
        const auto c = storefind::find(s, TrackKind::CudaApi, cann[0][0].toString(), cann[0][1].toLongLong());
        QVERIFY(c);
        QCOMPARE(storefind::duration(s, *c), cann[0][2].toLongLong());
        // globalTid: pid in the high 32 bits, tid in the low 32.
        QCOMPARE(qint64(s.track(c->track).pid()), cann[0][3].toLongLong());
        QCOMPARE(qint64(s.track(c->track).tid()), cann[0][4].toLongLong());

        if (db.hasTable("PYTORCH_API")) {
            // Stored as TEXT: the reference casts too.
            const auto op = db.rows("SELECT (SELECT value FROM STRING_IDS WHERE id = name), CAST(startNs AS INTEGER), "
                                    "CAST(endNs AS INTEGER) - CAST(startNs AS INTEGER) FROM PYTORCH_API "
                                    "WHERE type = 50001 ORDER BY CAST(startNs AS INTEGER) LIMIT 1");
            const auto o = storefind::find(s, TrackKind::NvtxPushPop, op[0][0].toString(), op[0][1].toLongLong());
            QVERIFY(o);
            QCOMPARE(storefind::duration(s, *o), op[0][2].toLongLong());
        }
        if (countIf(db, "COMMUNICATION_OP") > 0) {
            const auto hccl = db.rows("SELECT (SELECT value FROM STRING_IDS WHERE id = opName), startNs, "
                                      "endNs - startNs FROM COMMUNICATION_OP ORDER BY startNs LIMIT 1");
            const auto h = storefind::find(s, TrackKind::NvtxStartEnd, hccl[0][0].toString(), hccl[0][1].toLongLong());
            QVERIFY(h);
            QCOMPARE(storefind::duration(s, *h), hccl[0][2].toLongLong());
        }

        // connectionId links a device task to the CANN call that launched it.
        const auto linked = db.rows("SELECT T.startNs, (SELECT value FROM STRING_IDS WHERE id = A.name) FROM TASK T "
                                    "JOIN CANN_API A ON A.connectionId = T.connectionId ORDER BY T.startNs LIMIT 20");
        QVERIFY(!linked.empty());
        for (const auto &row : linked) {
            std::optional<EventRef> k;
            for (TrackKind kind : {TrackKind::Kernel, TrackKind::Memcpy, TrackKind::Sync})
                for (uint32_t ti : s.tracksOfKind(kind))
                    for (size_t i = 0; i < s.track(ti).size() && !k; ++i)
                        if (s.track(ti).start(i) == row[0].toLongLong())
                            k = EventRef{ti, uint32_t(i)};
            QVERIFY(k);
            const auto call = s.apiCallFor(*k);
            QVERIFY(call);
            QCOMPARE(storefind::nameOf(s, *call), row[1].toString());
        }

        QCOMPARE(r.meta.utcStartNs, std::optional<int64_t>(0)); // epoch ns
        QCOMPARE(qint64(r.meta.gpus.size()), countIf(db, "NPU_INFO"));
        if (path.contains("ascend_pytorch_profiler_")) {
            QVERIFY(r.meta.rank);
            QCOMPARE(qint64(*r.meta.rank), db.value("SELECT rankId FROM RANK_DEVICE_MAP").toLongLong());
            QCOMPARE(QString::fromStdString(r.meta.schemaVersion),
                     db.value("SELECT value FROM META_DATA WHERE name = 'SCHEMA_VERSION'").toString());
            QCOMPARE(QString::fromStdString(r.meta.host), db.value("SELECT hostName FROM HOST_INFO").toString());
        }
    }

    // Device memory, each series checked against plain SQL: the allocator's total per component
    // and the sampled HBM use per kind, their peaks, times and sample counts.
    void memorySeriesMatchSql()
    {
        int checked = 0;
        for (const QString &f : QDir(ascendDir()).entryList({"*.db"}, QDir::Files, QDir::Name)) {
            const QString path = ascendDir() + "/" + f;
            ps::test::SqlRef db(path);
            if (!db.hasTable("MEMORY_RECORD") || !db.hasTable("NPU_MEM"))
                continue;
            const Read r = readAscend(path);
            QVERIFY2(r.error.empty(), r.error.c_str());
            const struct
            {
                const char *table, *label, *time, *value, *prefix;
            } sources[] = {{"MEMORY_RECORD", "component", "timestamp", "totalAllocated", "allocated"},
                           {"NPU_MEM", "type", "timestampNs", "hbm", "HBM"}};
            for (const auto &src : sources) {
                const auto labels = db.rows(std::string("SELECT DISTINCT S.value, M.deviceId FROM ") + src.table +
                                            " M JOIN STRING_IDS S ON S.id = M." + src.label);
                QVERIFY(!labels.empty());
                for (const QVariantList &l : labels) {
                    const std::string name = std::string(src.prefix) + " (" + l[0].toString().toStdString() + ")";
                    const auto it =
                        std::find_if(r.meta.memory.begin(), r.meta.memory.end(), [&](const MemorySeries &m) {
                            return m.source == name && m.device == uint32_t(l[1].toLongLong());
                        });
                    QVERIFY2(it != r.meta.memory.end(), name.c_str());
                    const std::string where = std::string(" FROM ") + src.table + " M JOIN STRING_IDS S ON S.id = M." +
                                              src.label + " WHERE S.value = '" + l[0].toString().toStdString() +
                                              "' AND M.deviceId = " + l[1].toString().toStdString();
                    QCOMPARE(it->peakBytes(), db.integer(std::string("SELECT max(M.") + src.value + ")" + where));
                    QCOMPARE(int64_t(it->timeNs.size()),
                             db.integer(std::string("SELECT count(DISTINCT M.") + src.time + ")" + where));
                    QCOMPARE(it->timeNs.front(), db.integer(std::string("SELECT min(M.") + src.time + ")" + where));
                    ++checked;
                }
            }
        }
        QVERIFY2(checked >= 4, "the Ascend samples record MEMORY_RECORD and NPU_MEM");
    }

    void analysisDb()
    {
        std::string error;
        ReportPtr r =
            loadReport((ascendDir() + "/msinsight__level1__rank0__analysis.db").toStdString(), ReadContext{}, error);
        QVERIFY2(r, error.c_str());
        QCOMPARE(r->meta.format, TraceFormat::AscendDb);
        QCOMPARE(r->store->eventCount(), size_t(0));
        QVERIFY(QString::fromStdString(r->meta.warnings.at(0)).contains("ascend_pytorch_profiler_"));
    }

    // msprof_0.db is in WAL mode: a plain read-only open would create -wal/-shm beside it.
    void walDbStaysUntouched()
    {
        QTemporaryDir dir;
        const QString copy = dir.filePath("msprof_0.db");
        QVERIFY(QFile::copy(ascendDir() + "/msinsight__full_db__msprof_0.db", copy));
        QFile header(copy);
        QVERIFY(header.open(QIODevice::ReadOnly));
        const QByteArray h = header.read(20);
        QCOMPARE(int(h[18]), 2); // file format write/read versions 2 = WAL
        QCOMPARE(int(h[19]), 2);
        header.close();
        const QStringList before = QDir(dir.path()).entryList(QDir::Files);
        std::string error;
        ReportPtr r = loadReport(copy.toStdString(), ReadContext{}, error);
        QVERIFY2(r, error.c_str());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), before);
        QVERIFY(r->store->count(TrackKind::Kernel) > 0);
    }

    void twoRanksOneAxis()
    {
        std::vector<ReportPtr> reports;
        for (const char *f : {"msinsight__level1__rank0__ascend_pytorch_profiler_0.db",
                              "msinsight__level1__rank1__ascend_pytorch_profiler_1.db"}) {
            std::string error;
            reports.push_back(loadReport((ascendDir() + "/" + f).toStdString(), ReadContext{}, error));
            QVERIFY2(reports.back(), error.c_str());
        }
        const AlignResult a = alignReports(reports, AlignSpec{});
        QCOMPARE(a.used, AlignMode::Utc);
        QCOMPARE(a.offsets, (std::vector<int64_t>{0, 0})); // both already on the epoch
    }

    // The reader says what its tracks are by their class, not by attr ids or a name prefix:
    // every Kernel track holds device tasks whose class is the one SQL gives, and each
    // communication group's HCCL lane is a CollectiveLane named by the group's root ip:port.
    void trackClasses()
    {
        const QString path = ascendDir() + "/msinsight__level1__rank0__ascend_pytorch_profiler_0.db";
        const Read r = readAscend(path);
        QVERIFY2(r.error.empty(), r.error.c_str());
        ps::test::SqlRef db(path);
        QVERIFY(db.ok());
        size_t lanes = 0;
        for (const Track &t : r.store->tracks()) {
            if (t.kind() == TrackKind::Kernel) {
                QCOMPARE(t.trackClass(), TrackClass::DeviceTasks);
            } else if (t.trackClass() == TrackClass::CollectiveLane) {
                QCOMPARE(t.kind(), TrackKind::NvtxStartEnd);
                QCOMPARE(QString::fromStdString(std::string(r.store->name(t.label()))), QString("90.91.105.46:60000"));
                lanes += t.size();
            } else {
                QCOMPARE(t.trackClass(), TrackClass::Plain);
            }
        }
        QCOMPARE(qint64(lanes), countIf(db, "COMMUNICATION_OP"));
        // Communication tasks (Notify Wait, SDMA, Write Value of the collectives) by their class.
        size_t communication = 0;
        for (uint32_t ti : r.store->tracksOfKind(TrackKind::Kernel))
            for (size_t i = 0; i < r.store->track(ti).size(); ++i)
                communication += r.store->track(ti).taskClass(i) == DeviceTaskClass::Communication;
        QCOMPARE(qint64(communication),
                 countIf(db, "TASK", "globalTaskId IN (SELECT globalTaskId FROM COMMUNICATION_TASK_INFO)"));
        QVERIFY(communication > 0);
    }

    // msprof's sample: TASK and CANN_API on 2023-10-25, MSTX_EVENTS 639 days later. The report
    // says so, naming the tables on each side; the rank databases, whose tables agree, say nothing.
    void tablesDaysApartAreFlagged()
    {
        const Read msprof = readAscend(ascendDir() + "/msinsight__full_db__msprof_0.db");
        QVERIFY2(msprof.error.empty(), msprof.error.c_str());
        QStringList spread;
        for (const std::string &w : msprof.meta.warnings)
            if (QString::fromStdString(w).contains("days apart"))
                spread << QString::fromStdString(w);
        QCOMPARE(spread.size(), 1);
        QVERIFY2(spread[0].startsWith("its tables' rows lie 639.0 days apart: CANN_API, TASK from 2023-10-25 "
                                      "08:00:11 UTC; MSTX_EVENTS from 2025-07-25 08:13:38 UTC"),
                 qPrintable(spread[0]));
        const Read rank = readAscend(ascendDir() + "/msinsight__level1__rank0__ascend_pytorch_profiler_0.db");
        for (const std::string &w : rank.meta.warnings)
            QVERIFY2(w.find("days apart") == std::string::npos, w.c_str());
    }

    // Tables within a day of each other agree, however long the chain; a gap of more starts a
    // new group; without a UTC origin the times are seconds of the report's clock.
    void tableSpreadGroups()
    {
        constexpr int64_t hour = 3'600'000'000'000, day = 24 * hour;
        QCOMPARE(tableSpreadWarning({{"A", 0, 20 * hour}, {"B", 30 * hour, 50 * hour}, {"C", 60 * hour, 70 * hour}},
                                    int64_t(0)),
                 std::string());
        QCOMPARE(tableSpreadWarning({{"A", 0, 0}, {"B", day, day}}, std::nullopt), std::string());
        const std::string w = tableSpreadWarning(
            {{"C", 10 * day, 10 * day}, {"A", 0, hour}, {"B", hour, 2 * hour}, {"D", 3 * day, 3 * day}}, std::nullopt);
        QVERIFY2(QString::fromStdString(w).startsWith("its tables' rows lie 7.0 days apart: A, B from 0.000 s; D from "
                                                      "259200.000 s; C from 864000.000 s"),
                 w.c_str());
    }
};

QTEST_GUILESS_MAIN(TestAscendReader)
#include "tst_ascendreader.moc"
