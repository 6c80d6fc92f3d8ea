// The time base of nsys exports made with `nsys export --ts-normalize=true` (spec 1.6): every
// timestamp has utcEpochNs added, and EXPORT_PARAM_TIME_NORMALIZE says true. Such a copy of a real
// export (made here the way nsys would) must read as the same report: same events at the same
// times, same UTC start, same place on a UTC-aligned axis — whether the metadata key says so or
// only the magnitude of the times (min(start) > 1e17) does. Without a session start the times
// stay absolute, with UTC origin 0, and still land at the same UTC position.

#include "core/trace/alignment.h"
#include "core/trace/nsys/nvtxeventtype.h"
#include "core/trace/read/traceloader.h"
#include "tests/support/clirun.h"
#include "tests/support/sqlref.h"
#include "tests/support/testdata.h"

#include <sqlite3.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps::core::trace;

namespace nsys = ps::core::trace::nsys;

namespace {

enum class Marker { MetaKey, HeuristicOnly, NoSessionStart };

bool exec(sqlite3 *db, const std::string &sql)
{
    char *msg = nullptr;
    const bool ok = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg) == SQLITE_OK;
    if (!ok)
        qWarning("%s: %s", sql.c_str(), msg ? msg : "?");
    sqlite3_free(msg);
    return ok;
}

std::vector<std::string> column(sqlite3 *db, const std::string &sql)
{
    std::vector<std::string> out;
    sqlite3_stmt *s = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK)
        while (sqlite3_step(s) == SQLITE_ROW)
            out.emplace_back(reinterpret_cast<const char *>(sqlite3_column_text(s, 0)));
    sqlite3_finalize(s);
    return out;
}

// Rewrites the export at `path` as `nsys export --ts-normalize=true` would have written it: adds
// utcEpochNs to every timestamp column (start, end, timestamp, and ANALYSIS_DETAILS'
// startTime/stopTime) of every table, and records the option in the export metadata. Returns
// the number of timestamp columns shifted.
int normalize(const QString &path, int64_t utcEpochNs, Marker marker)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open(path.toUtf8().constData(), &db) != SQLITE_OK)
        return -1;
    int shifted = 0;
    bool ok = exec(db, "BEGIN");
    for (const std::string &table :
         column(db, "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")) {
        if (table == "TARGET_INFO_SESSION_START_TIME")
            continue;
        for (const std::string &col :
             column(db, "SELECT name FROM pragma_table_info('" + table +
                            "') WHERE name IN ('start','end','timestamp','startTime','stopTime')")) {
            ok = ok && exec(db, "UPDATE \"" + table + "\" SET \"" + col + "\" = \"" + col + "\" + " +
                                    std::to_string(utcEpochNs) + " WHERE \"" + col + "\" IS NOT NULL");
            ++shifted;
        }
    }
    for (const char *meta : {"META_DATA_EXPORT", "EXPORT_META_DATA"}) {
        if (column(db, std::string("SELECT name FROM sqlite_master WHERE name='") + meta + "'").empty())
            continue;
        ok = ok && exec(db, std::string("DELETE FROM ") + meta + " WHERE name='EXPORT_PARAM_TIME_NORMALIZE'");
        if (marker == Marker::MetaKey)
            ok = ok && exec(db, std::string("INSERT INTO ") + meta +
                                    "(name, value) VALUES "
                                    "('EXPORT_PARAM_TIME_NORMALIZE', 'true')");
    }
    if (marker == Marker::NoSessionStart)
        ok = ok && exec(db, "DROP TABLE TARGET_INFO_SESSION_START_TIME");
    ok = ok && exec(db, "COMMIT");
    sqlite3_close(db);
    return ok ? shifted : -1;
}

ReportPtr load(const QString &path, std::string &error)
{
    LoadOptions opt;
    opt.useCache = false;
    LoadResult r = loadReports({path.toStdString()}, opt);
    if (r.reports.size() != 1) {
        error = r.failures.empty() ? "not loaded" : r.failures[0].reason;
        return nullptr;
    }
    return r.reports[0];
}

// Events per track as (start + offset, end + offset): where they sit on a shared axis.
std::vector<std::vector<std::pair<int64_t, int64_t>>> placed(const EventStore &s, int64_t offset)
{
    std::vector<std::vector<std::pair<int64_t, int64_t>>> out;
    for (const Track &t : s.tracks()) {
        auto &v = out.emplace_back();
        for (size_t i = 0; i < t.size(); ++i)
            v.emplace_back(t.start(i) + offset, t.end(i) + offset);
    }
    return out;
}

} // namespace

class TestTsNormalize : public QObject
{
    Q_OBJECT

private slots:
    void sameReport_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<int>("marker");
        QTest::addColumn<QString>("anchor"); // an NVTX range for the residual, or ""
        // Extra-P sweep (nsys 2022.1.1, EXPORT_META_DATA without the key: it is added) and a 2025.3
        // export (META_DATA_EXPORT with EXPORT_PARAM_TIME_NORMALIZE=false: set to true).
        for (const char *sample :
             {"extrap__concurrent.s1.sqlite", "extrap__concurrent.s8.sqlite", "cupqc__report1.sqlite"}) {
            const QString anchor = QString(sample).startsWith("extrap") ? "main" : "";
            QTest::newRow((std::string(sample) + " meta key").c_str()) << sample << int(Marker::MetaKey) << anchor;
            QTest::newRow((std::string(sample) + " min(start) > 1e17 only").c_str())
                << sample << int(Marker::HeuristicOnly) << anchor;
            QTest::newRow((std::string(sample) + " no session start").c_str())
                << sample << int(Marker::NoSessionStart) << anchor;
        }
    }
    void sameReport()
    {
        QFETCH(QString, sample);
        QFETCH(int, marker);
        QFETCH(QString, anchor);
        const QString original = ps::test::nsysDir() + "/" + sample;
        const int64_t utc = *ps::test::SqlRef(original.toStdString())
                                 .scalar("SELECT utcEpochNs FROM "
                                         "TARGET_INFO_SESSION_START_TIME");
        QVERIFY(utc > int64_t(1e18));

        QTemporaryDir tmp;
        const QString copy = tmp.filePath("normalized.sqlite");
        QVERIFY(QFile::copy(original, copy));
        QVERIFY(QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner));
        QVERIFY(normalize(copy, utc, Marker(marker)) >= 3);
        // The rewrite did what --ts-normalize does: absolute times, past 1e17.
        const ps::test::SqlRef check(copy.toStdString());
        for (const char *t : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS", "OSRT_API"})
            if (check.hasTable(t) && check.countWhere(t) > 0)
                QVERIFY(*check.scalar(std::string("SELECT min(start) FROM ") + t) > int64_t(1e17));

        std::string error;
        ReportPtr a = load(original, error);
        QVERIFY2(a, error.c_str());
        ReportPtr b = load(copy, error);
        QVERIFY2(b, error.c_str());

        // Same counts and duration.
        QCOMPARE(b->meta.fileCounts, a->meta.fileCounts);
        QCOMPARE(b->store->eventCount(), a->store->eventCount());
        QCOMPARE(b->store->lastEnd() - b->store->firstStart(), a->store->lastEnd() - a->store->firstStart());
        QVERIFY(a->meta.utcStartNs);
        QCOMPARE(*a->meta.utcStartNs, utc);
        QVERIFY(b->meta.utcStartNs);
        if (Marker(marker) == Marker::NoSessionStart) {
            // No session start to go back to: the times stay epoch ns, the origin is the epoch.
            QCOMPARE(*b->meta.utcStartNs, int64_t(0));
            QCOMPARE(b->store->firstStart(), a->store->firstStart() + utc);
        } else {
            // The same report: the UTC start of the session, times on the session clock.
            QCOMPARE(*b->meta.utcStartNs, utc);
            QCOMPARE(b->store->firstStart(), a->store->firstStart());
            QCOMPARE(b->meta.warnings, a->meta.warnings);
        }

        // Aligned by UTC, every event of the copy sits exactly where the original's does.
        AlignSpec spec;
        spec.mode = AlignMode::Utc;
        if (!anchor.isEmpty())
            spec.anchor = RangeAnchor{anchor.toStdString(), 1};
        const std::vector<ReportPtr> both = {a, b};
        const AlignResult r = alignReports(both, spec);
        QCOMPARE(r.used, AlignMode::Utc);
        QVERIFY(r.warnings.empty());
        if (Marker(marker) != Marker::NoSessionStart)
            QCOMPARE(r.offsets[1], r.offsets[0]);
        QVERIFY(placed(*b->store, r.offsets[1]) == placed(*a->store, r.offsets[0]));
        if (!anchor.isEmpty()) {
            QVERIFY(r.residualNs);
            QCOMPARE(*r.residualNs, int64_t(0));
        }
        // The same by the range anchor itself.
        if (!anchor.isEmpty()) {
            spec.mode = AlignMode::Range;
            const AlignResult byRange = alignReports(both, spec);
            QCOMPARE(byRange.used, AlignMode::Range);
            QCOMPARE(*byRange.residualNs, int64_t(0));
        }

        // trace info: the UTC start stays the session's, duration and counts unchanged.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PROFSTUDIO_CACHE_DIR", tmp.filePath("cache"));
        for (int pass = 0; pass < 2; ++pass) { // the second from the cache
            const ps::test::CliRun run = ps::test::runCli({"trace", "info", "--format", "json", original, copy}, env);
            QCOMPARE(run.exitCode, 0);
            const QJsonArray reports = QJsonDocument::fromJson(run.out.toUtf8()).object()["reports"].toArray();
            QCOMPARE(reports.size(), 2);
            const QJsonObject o = reports[0].toObject(), n = reports[1].toObject();
            QCOMPARE(o["utc_start_ns"].toInteger(), utc);
            QCOMPARE(n["utc_start_ns"].toInteger(), Marker(marker) == Marker::NoSessionStart ? 0 : utc);
            QCOMPARE(n["duration_ns"].toInteger(), o["duration_ns"].toInteger());
            QCOMPARE(n["counts"].toObject(), o["counts"].toObject());
        }
    }

    // The rule must not fire on an ordinary export: relative times, utcEpochNs added by alignment.
    void ordinaryExportUntouched()
    {
        const QString original = ps::test::nsysDir() + "/extrap__concurrent.s1.sqlite";
        const ps::test::SqlRef db(original.toStdString());
        std::string error;
        ReportPtr a = load(original, error);
        QVERIFY2(a, error.c_str());
        QCOMPARE(*a->meta.utcStartNs, *db.scalar("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME"));
        QCOMPARE(a->store->firstStart(), *db.scalar("SELECT min(start) FROM (SELECT start FROM "
                                                    "CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start FROM "
                                                    "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start FROM "
                                                    "CUPTI_ACTIVITY_KIND_MEMSET UNION ALL SELECT start FROM "
                                                    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION UNION ALL SELECT start FROM "
                                                    "CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0,1) UNION ALL "
                                                    "SELECT start FROM NVTX_EVENTS WHERE eventType IN (" +
                                                    nsys::drawnTypesSql() + "))"));
        QVERIFY(a->store->firstStart() < int64_t(1e17));
    }
};

QTEST_GUILESS_MAIN(TestTsNormalize)
#include "tst_tsnormalize.moc"
