// RLinf's tracer output (cluster.tracer, trace_events.jsonl) opened as one report per worker,
// beside the nsys reports of the same run.
//
// Fixtures are written by the test in the schema of RLinf a3816b59
// rlinf/scheduler/manager/tracer.py (Tracer.record writes json.dumps(event) + "\n"):
//   B: {"name", "cat", "ph": "B", "ts": time.time_ns() // 1000, "pid": <worker name or "driver">,
//       "tid": "main"[, "args"]}       (trace_begin; args from ScopedTimer's trace_args)
//   E: {"name", "cat", "ph": "E", "ts", "pid", "tid": "main"}          (trace_end)
//   M: {"name": "process_name", "ph": "M", "ts", "pid", "tid": "main", "args": {"name": <pid>}}
// cat is the worker's root group name (Worker._trace_category) or "runner" (ScopedTimer);
// worker names come from WorkerAddress.get_name(): "<root group>:<rank>[:<rank>...]".

#include "core/trace/formats/rlinftracereader.h"
#include "core/trace/read/traceloader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps::core::trace;

namespace {

const QString kTraces = QStringLiteral(PS_TESTDATA_DIR "/traces");
constexpr long long kT0 = 1785578400000000; // 2026-08-01 10:00:00 UTC in µs

QString traceLine(const char *ph, const QString &name, const QString &cat, long long ts, const QString &pid)
{
    return QStringLiteral(R"({"name": "%1", "cat": "%2", "ph": "%3", "ts": %4, "pid": "%5", "tid": "main"})")
        .arg(name, cat, QLatin1String(ph))
        .arg(ts)
        .arg(pid);
}

QString label(const QString &pid, long long ts)
{
    return QStringLiteral(
               R"({"name": "process_name", "ph": "M", "ts": %1, "pid": "%2", "tid": "main", "args": {"name": "%2"}})")
        .arg(ts)
        .arg(pid);
}

// One embodied step as RLinf's runner and workers interleave it in the shared file.
QStringList stepLines()
{
    return {label("driver", kT0),
            traceLine("B", "step", "runner", kT0, "driver"),
            label("EnvGroup:0", kT0 + 5),
            traceLine("B", "interact", "EnvGroup", kT0 + 10, "EnvGroup:0"),
            label("RolloutGroup:0", kT0 + 12),
            traceLine("B", "predict", "RolloutGroup", kT0 + 15, "RolloutGroup:0"),
            traceLine("E", "predict", "RolloutGroup", kT0 + 400, "RolloutGroup:0"),
            traceLine("E", "interact", "EnvGroup", kT0 + 500, "EnvGroup:0"),
            label("ActorGroup:1", kT0 + 510),
            traceLine("B", "run_training", "ActorGroup", kT0 + 520, "ActorGroup:1"),
            traceLine("B", "forward_backward", "ActorGroup", kT0 + 530, "ActorGroup:1"),
            traceLine("E", "forward_backward", "ActorGroup", kT0 + 900, "ActorGroup:1"),
            traceLine("E", "run_training", "ActorGroup", kT0 + 950, "ActorGroup:1"),
            traceLine("E", "step", "runner", kT0 + 1000, "driver")};
}

QString writeFile(const QTemporaryDir &dir, const QString &rel, const QStringList &lines, bool finalNewline = true)
{
    const QString path = dir.filePath(rel);
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(lines.join('\n').toUtf8());
    if (finalNewline)
        f.write("\n");
    return path;
}

const Report *byGroup(const std::vector<ReportPtr> &reports, const std::string &group)
{
    for (const auto &r : reports)
        if (r->identity.group == group)
            return r.get();
    return nullptr;
}

} // namespace

class TestRlinfTracer : public QObject
{
    Q_OBJECT
private slots:
    void oneReportPerWorker()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, "logs/exp1/trace/trace_events.jsonl", stepLines());
        std::string error;
        const auto reports = loadRlinfTraceReports(path.toStdString(), ReadContext{}, error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(reports.size(), size_t(4));

        const Report *actor = byGroup(reports, "ActorGroup");
        QVERIFY(actor);
        QCOMPARE(actor->identity.rank, std::optional<int>(1));
        QCOMPARE(QString::fromStdString(actor->identity.run), QString("exp1"));
        QCOMPARE(QString::fromStdString(actor->path), path + "#ActorGroup:1");
        QCOMPARE(QString::fromStdString(std::string(traceFormatName(actor->meta.format))), QString("rlinf-tracer"));
        // Nested sections stay nested: run_training contains forward_backward.
        QCOMPARE(actor->store->count(TrackKind::NvtxPushPop), size_t(2));
        QCOMPARE(actor->meta.fileCounts[size_t(TrackKind::NvtxPushPop)], size_t(2));
        QCOMPARE(actor->store->firstStart(), (kT0 + 520) * 1000);
        QCOMPARE(actor->store->lastEnd(), (kT0 + 950) * 1000);
        QCOMPARE(actor->meta.utcStartNs, std::optional<int64_t>(0));

        const Report *driver = byGroup(reports, "driver");
        QVERIFY(driver);
        QVERIFY(!driver->identity.rank);
        QCOMPARE(driver->store->lastEnd() - driver->store->firstStart(), int64_t(1000) * 1000);
        QVERIFY(byGroup(reports, "EnvGroup") && byGroup(reports, "RolloutGroup"));
    }

    // Async worker methods interleave B/E on the one "main" tid: pairs match by name.
    void interleavedSectionsPairByName()
    {
        QTemporaryDir dir;
        const QString w = "RolloutGroup:0";
        const QString path = writeFile(dir, "t/trace_events.jsonl",
                                       {traceLine("B", "generate", "RolloutGroup", kT0, w),
                                        traceLine("B", "sync_weights", "RolloutGroup", kT0 + 5, w),
                                        traceLine("E", "generate", "RolloutGroup", kT0 + 10, w),
                                        traceLine("E", "sync_weights", "RolloutGroup", kT0 + 20, w)});
        std::string error;
        const auto reports = loadRlinfTraceReports(path.toStdString(), ReadContext{}, error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(reports.size(), size_t(1));
        const EventStore &s = *reports[0]->store;
        QCOMPARE(s.count(TrackKind::NvtxPushPop) + s.count(TrackKind::NvtxStartEnd), size_t(2));
        QCOMPARE(s.count(TrackKind::NvtxStartEnd), size_t(1)); // generate ends under sync_weights
        QCOMPARE(s.lastEnd(), (kT0 + 20) * 1000);
    }

    void unmatchedAndUnclosedAreWarned()
    {
        QTemporaryDir dir;
        const QString w = "ActorGroup:0";
        const QString path = writeFile(
            dir, "t/trace_events.jsonl",
            {traceLine("E", "orphan", "ActorGroup", kT0, w), traceLine("B", "run_training", "ActorGroup", kT0 + 1, w)});
        std::string error;
        const auto reports = loadRlinfTraceReports(path.toStdString(), ReadContext{}, error);
        QVERIFY2(error.empty(), error.c_str());
        const auto &warnings = reports.at(0)->meta.warnings;
        QCOMPARE(warnings.size(), size_t(2));
        QVERIFY(QString::fromStdString(warnings[0]).contains("1 E events without a B"));
        QVERIFY(QString::fromStdString(warnings[1]).contains("1 ranges never ended"));
    }

    void brokenLines_data()
    {
        QTest::addColumn<QString>("line3");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << "{\"name\": \"x\", \"ph\": \"B\","
                                  << ":3: not JSON";
        QTest::newRow("array") << "[1, 2]"
                               << ":3: expected one JSON object per line";
        QTest::newRow("no ph") << R"({"name": "x", "ts": 1, "pid": "driver"})"
                               << ":3: no \"ph\"";
        QTest::newRow("no ts") << R"({"name": "x", "ph": "B", "pid": "driver"})"
                               << ":3: no \"ts\"";
        QTest::newRow("no pid") << R"({"name": "x", "ph": "B", "ts": 1})"
                                << ":3: no \"pid\"";
        QTest::newRow("ts text") << R"({"name": "x", "ph": "B", "ts": "1", "pid": "driver"})"
                                 << ":3: \"ts\" must be a number of microseconds";
        QTest::newRow("two objects") << R"({"ph": "B", "ts": 1, "pid": "d"} {})"
                                     << ":3: text after the JSON object";
    }
    void brokenLines()
    {
        QFETCH(QString, line3);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QStringList lines = stepLines();
        const QString path = writeFile(dir, "t/trace_events.jsonl", {lines[0], lines[1], line3, lines[2]});
        std::string error;
        const auto reports = loadRlinfTraceReports(path.toStdString(), ReadContext{}, error);
        QVERIFY(reports.empty());
        QVERIFY2(QString::fromStdString(error).startsWith(path + expected), error.c_str());
    }

    // The Tracer flushes line by line: a run killed mid-write leaves a cut last line.
    void truncatedLastLineIsSkipped()
    {
        QTemporaryDir dir;
        QStringList lines = stepLines();
        lines << R"({"name": "step", "cat": "runner", "ph": "B", "ts": 17)";
        const QString path = writeFile(dir, "t/trace_events.jsonl", lines, false);
        std::string error;
        const auto reports = loadRlinfTraceReports(path.toStdString(), ReadContext{}, error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(reports.size(), size_t(4));
        const QString warning = QString::fromStdString(reports[0]->meta.warnings.at(0));
        QVERIFY2(warning.startsWith(path + ":15: incomplete last line skipped"), qPrintable(warning));
    }

    // The loader's multi-file API: the tracer file and an nsys export of the same run (RLinf's
    // rlinf_profile_<worker>_<pid> name, under <log>/<exp>/profiling) load together.
    void loadsBesideNsysReports()
    {
        QTemporaryDir dir;
        const QString trace = writeFile(dir, "logs/exp1/trace/trace_events.jsonl", stepLines());
        QDir().mkpath(dir.filePath("logs/exp1/profiling"));
        const QString nsys = dir.filePath("logs/exp1/profiling/rlinf_profile_ActorGroup_1_4242.sqlite");
        QVERIFY(QFile::copy(kTraces + "/nsys/extrap__concurrent.s1.sqlite", nsys));
        LoadOptions opt;
        opt.useCache = false;
        opt.threads = 2;
        const LoadResult r = loadReports({dir.filePath("logs").toStdString()}, opt);
        QVERIFY2(r.failures.empty(), r.failures.empty() ? "" : r.failures[0].reason.c_str());
        QCOMPARE(r.reports.size(), size_t(5));
        size_t tracer = 0, actorRank1 = 0;
        for (const auto &rep : r.reports) {
            tracer += rep->meta.format == TraceFormat::RlinfTracer;
            if (rep->identity.group == "ActorGroup" && rep->identity.rank == 1) {
                ++actorRank1;
                QCOMPARE(QString::fromStdString(rep->identity.run), QString("exp1"));
            }
        }
        QCOMPARE(tracer, size_t(4));
        QCOMPARE(actorRank1, size_t(2)); // the tracer's ActorGroup:1 and its nsys report
        Q_UNUSED(trace);
        Q_UNUSED(nsys);
    }

    // loadReport (single-report API) keeps every worker in one report, one process each.
    void singleReportKeepsAllWorkers()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, "t/trace_events.jsonl", stepLines());
        std::string error;
        const ReportPtr r = loadReport(path.toStdString(), ReadContext{}, error);
        QVERIFY2(r, error.c_str());
        QCOMPARE(r->store->count(TrackKind::NvtxPushPop), size_t(5));
        QCOMPARE(r->meta.format, TraceFormat::RlinfTracer);
    }

    void identityOfWorkerNames_data()
    {
        QTest::addColumn<QString>("worker");
        QTest::addColumn<QString>("group");
        QTest::addColumn<int>("rank");
        QTest::newRow("group rank") << "ActorGroup:3"
                                    << "ActorGroup" << 3;
        QTest::newRow("nested") << "RolloutGroup:0:2"
                                << "RolloutGroup:0" << 2;
        QTest::newRow("driver") << "driver"
                                << "driver" << -1;
        QTest::newRow("channel") << "Env:0"
                                 << "Env" << 0;
        QTest::newRow("no rank digits") << "Weird:x"
                                        << "Weird:x" << -1;
    }
    void identityOfWorkerNames()
    {
        QFETCH(QString, worker);
        QFETCH(QString, group);
        QFETCH(int, rank);
        const ReportIdentity id = rlinfTracerIdentity("/l/exp/trace/trace_events.jsonl", worker.toStdString());
        QCOMPARE(QString::fromStdString(id.group), group);
        QCOMPARE(id.rank.value_or(-1), rank);
        QCOMPARE(QString::fromStdString(id.run), QString("exp"));
    }
};

QTEST_GUILESS_MAIN(TestRlinfTracer)
#include "tst_rlinftracer.moc"
