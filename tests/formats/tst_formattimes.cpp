// Impossible event times in the rocpd, Ascend, Kineto and RLinf tracer readers are caught where
// they are read, as the nsys reader does (core/trace/store/eventtimes.h): a start or end that is no
// integer (or no number of µs) or beyond 2^62 ns drops its event; an end before its start, or
// more than a day beyond the report's span, is clipped. One warning per report names the table
// (or the JSON key, or the tracer file) and the counts. Before, rocpd and Ascend read 'abc' as 0
// (a report stretched back to 1970), Kineto and the tracer took a ts of 9e15 µs or a dur of
// 4.6e15 µs as they came, and a negative dur or an end before its start passed without a word.
// Each case corrupts a copy of a real sample (or the tracer's own line format) at test time.

#include "core/trace/formats/rlinftracereader.h"
#include "tests/formats/jsonref.h"
#include "tests/support/reportload.h"

#include <sqlite3.h>

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps::core::trace;

namespace {

const QString kTraces = QStringLiteral(PS_TESTDATA_DIR "/traces");
const QString kRocpdKernels = QStringLiteral("rocpd_kernel_dispatch_00003fdc_92cb_72cb_9169_c7e541b1fcdf");
const QString kRocpdRegions = QStringLiteral("rocpd_region_00003fdc_92cb_72cb_9169_c7e541b1fcdf");

bool execSql(const QString &path, const QString &sql)
{
    sqlite3 *db = nullptr;
    bool ok = sqlite3_open(path.toUtf8().constData(), &db) == SQLITE_OK;
    char *msg = nullptr;
    ok = ok && sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, &msg) == SQLITE_OK;
    if (msg)
        qWarning("%s: %s", qPrintable(path), msg);
    sqlite3_free(msg);
    sqlite3_close(db);
    return ok;
}

QString warningsOf(const Report &r)
{
    QStringList out;
    for (const std::string &w : r.meta.warnings)
        out << QString::fromStdString(w);
    return out.join('\n');
}

size_t eventCount(const Report &r)
{
    size_t n = 0;
    for (int k = 0; k < kTrackKindCount; ++k)
        n += r.store->count(TrackKind(k));
    return n;
}

// Replaces the first match of `re` in `text` (from `from` on) with `with`; false when none.
bool replaceFirst(QByteArray &text, const QRegularExpression &re, const QByteArray &with, qsizetype from = 0)
{
    const QRegularExpressionMatch m = re.match(QString::fromLatin1(text), from);
    if (!m.hasMatch())
        return false;
    text.replace(m.capturedStart(), m.capturedLength(), with);
    return true;
}

QString writeText(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
{
    QFile f(dir.filePath(name));
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size() ? f.fileName() : QString();
}

QString tracerLine(const char *ph, const char *name, long long ts, const QString &extra = {})
{
    return QStringLiteral(R"({"name": "%1", "cat": "train", "ph": "%2", "ts": %3%4, "pid": "ActorGroup:1", )"
                          R"("tid": "main"})")
        .arg(QLatin1String(name), QLatin1String(ph))
        .arg(ts)
        .arg(extra);
}

} // namespace

class TestFormatTimes : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

    QString copyOf(const QString &sample, const QString &name)
    {
        const QString path = m_tmp.filePath(name);
        QFile::remove(path);
        return QFile::copy(sample, path) && QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner)
                   ? path
                   : QString();
    }

private slots:
    void rocpdTimesAreClippedOrDropped()
    {
        const QString sample = kTraces + "/rocpd/batched_gemm__37ca13315e70__28_results.db";
        const ReportPtr clean = ps::test::loadTestReport(sample);
        QVERIFY(clean);
        QVERIFY2(!warningsOf(*clean).contains("invalid data"), qPrintable(warningsOf(*clean)));
        const QString path = copyOf(sample, "bad_times.db");
        QVERIFY(execSql(path, QString("UPDATE %1 SET end = start + 4611686018427387904 WHERE rowid = 1;"
                                      "UPDATE %1 SET start = 'abc' WHERE rowid = 2;"
                                      "UPDATE %1 SET end = start - 1000 WHERE rowid = 3;"
                                      "UPDATE %2 SET start = 1.5 WHERE rowid = 1;")
                                  .arg(kRocpdKernels, kRocpdRegions)));
        const ReportPtr r = ps::test::loadTestReport(path);
        QVERIFY(r);
        const QString w = warningsOf(*r);
        QVERIFY2(w.contains("invalid data: ") && w.count("invalid data: ") == 1, qPrintable(w));
        QVERIFY2(w.contains("rocpd_kernel_dispatch: 1 row(s) dropped") &&
                     w.contains("1 end(s) before their start, set to the start") &&
                     w.contains("1 end(s) more than a day beyond the report's span") &&
                     w.contains("rocpd_region: 1 row(s) dropped"),
                 qPrintable(w));
        // 'abc' is not read as 0 and the absurd end does not stretch the report.
        QVERIFY(r->store->firstStart() >= clean->store->firstStart());
        QCOMPARE(r->store->lastEnd(), clean->store->lastEnd());
        QCOMPARE(r->store->count(TrackKind::Kernel), clean->store->count(TrackKind::Kernel) - 1);
    }

    void ascendTimesAreClippedOrDropped()
    {
        const QString sample = kTraces + "/ascend/msinsight__level1__rank0__ascend_pytorch_profiler_0.db";
        const ReportPtr clean = ps::test::loadTestReport(sample);
        QVERIFY(clean);
        QVERIFY2(!warningsOf(*clean).contains("invalid data"), qPrintable(warningsOf(*clean)));
        const QString path = copyOf(sample, "ascend_pytorch_profiler_0.db");
        // PYTORCH_API keeps its times as TEXT: 'abc' was cast to 0.
        QVERIFY(execSql(path, "UPDATE TASK SET endNs = startNs + 4611686018427387904 WHERE rowid = 1;"
                              "UPDATE TASK SET endNs = startNs - 1000 WHERE rowid = 2;"
                              "UPDATE PYTORCH_API SET startNs = 'abc' WHERE rowid = 1;"
                              "UPDATE PYTORCH_API SET endNs = '12x' WHERE rowid = 2;"
                              "UPDATE CANN_API SET startNs = 1.5 WHERE rowid = (SELECT min(rowid) FROM CANN_API);"));
        const ReportPtr r = ps::test::loadTestReport(path);
        QVERIFY(r);
        const QString w = warningsOf(*r);
        QVERIFY2(w.count("invalid data: ") == 1, qPrintable(w));
        QVERIFY2(w.contains("TASK: 1 end(s) before their start, set to the start, 1 end(s) more than a day beyond") &&
                     w.contains("PYTORCH_API: 2 row(s) dropped") && w.contains("CANN_API: 1 row(s) dropped"),
                 qPrintable(w));
        QVERIFY(r->store->firstStart() >= clean->store->firstStart());
        QCOMPARE(r->store->lastEnd(), clean->store->lastEnd());
        QCOMPARE(eventCount(*r), eventCount(*clean) - 3);
    }

    void kinetoTimesAreClippedOrDropped()
    {
        const QString sample = kTraces + "/kineto/hta__trace_filter__sampled_rank-0.json.gz";
        const ReportPtr clean = ps::test::loadTestReport(sample);
        QVERIFY(clean);
        QVERIFY2(!warningsOf(*clean).contains("invalid data"), qPrintable(warningsOf(*clean)));
        QByteArray text = jsonref::readMaybeGzip(sample);
        const QRegularExpression dur(R"("dur": [0-9.]+)"), ts(R"("ts": [0-9.]+)");
        // The 1st to 4th complete events: a dur that is no number, a negative dur, a dur of
        // 4.6e15 µs (just under 2^62 ns), a ts of 9e15 µs (fits int64 ns, beyond 2^62).
        QVERIFY(replaceFirst(text, dur, R"("dur": "abc")"));
        QVERIFY(replaceFirst(text, dur, R"("dur": -5.0)", text.indexOf(R"("dur": "abc")") + 1));
        QVERIFY(replaceFirst(text, dur, R"("dur": 4611686018427387.0)", text.indexOf(R"("dur": -5.0)") + 1));
        QVERIFY(replaceFirst(text, ts, R"("ts": 9000000000000000)", text.indexOf("4611686018427387.0") + 1));
        const QString path = writeText(m_tmp, "bad_times.json", text);
        const ReportPtr r = ps::test::loadTestReport(path);
        QVERIFY(r);
        const QString w = warningsOf(*r);
        QVERIFY2(w.count("invalid data: ") == 1 &&
                     w.contains("traceEvents: 2 row(s) dropped (start or end not an integer, or beyond 2^62 ns), "
                                "1 end(s) before their start, set to the start, 1 end(s) more than a day beyond"),
                 qPrintable(w));
        QVERIFY(r->store->firstStart() >= clean->store->firstStart());
        QCOMPARE(r->store->lastEnd(), clean->store->lastEnd());
        QCOMPARE(eventCount(*r), eventCount(*clean) - 2);
    }

    // A collective kernel's record once kept the absurd end its event had clipped, for the
    // collective analysis to measure waits with.
    void collectiveRecordsKeepTheirEventsTimes()
    {
        const QString sample = kTraces + "/kineto/hta__trace_filter__sampled_rank-0.json.gz";
        QByteArray text = jsonref::readMaybeGzip(sample);
        const qsizetype nccl = text.indexOf("\"cat\": \"kernel\", \"name\": \"nccl");
        QVERIFY(nccl > 0);
        QVERIFY(replaceFirst(text, QRegularExpression(R"("dur": [0-9.]+)"), R"("dur": 4611686018427387.0)", nccl));
        const ReportPtr r = ps::test::loadTestReport(writeText(m_tmp, "absurd_nccl.json", text));
        QVERIFY(r);
        QVERIFY2(warningsOf(*r).contains("traceEvents: 1 end(s) more than a day beyond"), qPrintable(warningsOf(*r)));
        QVERIFY(!r->store->collectives().empty());
        for (const CollectiveRecord &c : r->store->collectives()) {
            const Track &t = r->store->track(c.event.track);
            QCOMPARE(c.start, t.start(c.event.index));
            QCOMPARE(c.end, t.end(c.event.index));
        }
    }

    void tracerTimesAreClippedOrDropped()
    {
        constexpr long long t0 = 1785578400000000; // 2026-08-01 10:00:00 UTC in µs
        const QStringList lines = {
            tracerLine("X", "clean", t0, R"(, "dur": 1000)"),
            tracerLine("X", "negative", t0 + 10, R"(, "dur": -5)"),
            tracerLine("X", "absurd", t0 + 20, R"(, "dur": 4611686018427387)"),
            tracerLine("X", "beyond", 9000000000000000, R"(, "dur": 1)"),
            tracerLine("B", "backward", t0 + 600),
            tracerLine("E", "backward", t0 + 550),
        };
        const QString path = writeText(m_tmp, "trace_events.jsonl", (lines.join('\n') + '\n').toUtf8());
        std::string error;
        const std::vector<ReportPtr> reports = loadRlinfTraceReports(path.toStdString(), {}, error);
        QVERIFY2(reports.size() == 1, error.c_str());
        const Report &r = *reports[0];
        const QString w = warningsOf(r);
        QVERIFY2(w.count("invalid data: ") == 1 &&
                     w.contains("trace_events.jsonl: 1 row(s) dropped (start or end not an integer, or beyond 2^62 "
                                "ns), 2 end(s) before their start, set to the start, 1 end(s) more than a day beyond"),
                 qPrintable(w));
        QCOMPARE(eventCount(r), size_t(4));
        QCOMPARE(r.store->firstStart(), t0 * 1000);
        QCOMPARE(r.store->lastEnd(), (t0 + 1000) * 1000);
    }
};

QTEST_GUILESS_MAIN(TestFormatTimes)
#include "tst_formattimes.moc"
