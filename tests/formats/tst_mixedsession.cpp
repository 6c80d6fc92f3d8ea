// A mixed session: an nsys export, a rocpd DB, a Kineto pair and an Ascend pair loaded together
// through the loader (and the report cache), put on one axis, and listed by the CLI.

#include "core/trace/alignment.h"
#include "core/trace/formats/formatreaders.h"
#include "core/trace/read/traceloader.h"
#include "core/trace/tracestats.h"
#include "jsonref.h"
#include "tests/support/clirun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps::core::trace;

namespace {

const QString kTraces = QStringLiteral(PS_TESTDATA_DIR "/traces");

QStringList sessionFiles()
{
    return {kTraces + "/nsys/extrap__concurrent.s1.sqlite",
            kTraces + "/rocpd/batched_gemm__37ca13315e70__28_results.db",
            kTraces + "/kineto/hta__trace_filter__sampled_rank-0.json.gz",
            kTraces + "/kineto/hta__trace_filter__sampled_rank-1.json.gz",
            kTraces + "/ascend/msinsight__level1__rank0__ascend_pytorch_profiler_0.db",
            kTraces + "/ascend/msinsight__level1__rank1__ascend_pytorch_profiler_1.db"};
}

std::vector<std::string> toStd(const QStringList &l)
{
    std::vector<std::string> out;
    for (const QString &s : l)
        out.push_back(s.toStdString());
    return out;
}

} // namespace

class TestMixedSession : public QObject
{
    Q_OBJECT

private slots:

    void loadTogether()
    {
        QTemporaryDir cache;
        LoadOptions opt;
        opt.cacheDir = cache.path().toStdString();
        opt.threads = 2;
        const LoadResult first = loadReports(toStd(sessionFiles()), opt);
        for (const auto &f : first.failures)
            qWarning("%s", f.reason.c_str());
        QVERIFY(first.failures.empty());
        QCOMPARE(first.reports.size(), size_t(6));
        const std::vector<TraceFormat> formats = {TraceFormat::NsysSqlite, TraceFormat::Rocpd,
                                                  TraceFormat::KinetoJson, TraceFormat::KinetoJson,
                                                  TraceFormat::AscendDb,   TraceFormat::AscendDb};
        for (size_t i = 0; i < formats.size(); ++i) {
            QCOMPARE(first.reports[i]->meta.format, formats[i]);
            QVERIFY(first.reports[i]->store->eventCount() > 0);
        }

        // Second load: every report from the cache, with the same metadata and counts.
        const LoadResult second = loadReports(toStd(sessionFiles()), opt);
        QCOMPARE(second.reports.size(), size_t(6));
        for (size_t i = 0; i < 6; ++i) {
            const Report &a = *first.reports[i], &b = *second.reports[i];
            QVERIFY(b.fromCache);
            QCOMPARE(b.meta.format, a.meta.format);
            QCOMPARE(b.meta.utcStartNs, a.meta.utcStartNs);
            QCOMPARE(b.meta.fileCounts, a.meta.fileCounts);
            QCOMPARE(b.store->eventCount(), a.store->eventCount());
            QCOMPARE(b.store->firstStart(), a.store->firstStart());
        }

        // One axis. With the rocpd report (no UTC origin) UTC alignment falls back to start.
        const AlignResult all = alignReports(first.reports, AlignSpec{});
        QCOMPARE(all.used, AlignMode::Start);
        QVERIFY(!all.warnings.empty());
        for (size_t i = 0; i < 6; ++i)
            QCOMPARE(first.reports[i]->store->firstStart() + all.offsets[i], int64_t(0));

        // Without it every report has a UTC origin: offsets are the origins' differences.
        std::vector<ReportPtr> utc = first.reports;
        utc.erase(utc.begin() + 1);
        const AlignResult byUtc = alignReports(utc, AlignSpec{});
        QCOMPARE(byUtc.used, AlignMode::Utc);
        int64_t minOrigin = INT64_MAX;
        for (const auto &r : utc)
            minOrigin = std::min(minOrigin, *r->meta.utcStartNs);
        for (size_t i = 0; i < utc.size(); ++i)
            QCOMPARE(byUtc.offsets[i], *utc[i]->meta.utcStartNs - minOrigin);
        // The Kineto pair (epoch µs, origin 0) and the Ascend pair (epoch ns) share the epoch.
        QCOMPARE(*utc[1]->meta.utcStartNs, int64_t(0));
        QCOMPARE(*utc[3]->meta.utcStartNs, int64_t(0));

        // nvtx_sum: only NVTX domains prefix a Range ("domain:text"). roctx ranges, Kineto
        // annotations and torch_npu / mstx ranges carry a category, which prefixes nothing: their
        // rows read as HTA, rocprofv3 and MindStudio show them. The category is kept on the scope.
        const StatsResult s = summarize(first.reports, StatsKind::NvtxSum);
        for (const StatRow &row : s.perReport) {
            if (*row.report == 0)
                continue; // the nsys export: its Extra-P domain does prefix
            for (const char *label :
                 {"roctx:", "user_annotation:", "gpu_user_annotation:", "trace:", "mstx:", "hccl:", "(no category):"})
                QVERIFY2(row.name.rfind(label, 0) != 0, row.name.c_str());
        }
        for (size_t i = 1; i < first.reports.size(); ++i) {
            const EventStore &st = *first.reports[i]->store;
            bool categorised = false;
            for (const NvtxScope &sc : st.nvtxScopes()) {
                QCOMPARE(sc.domainName, kNoName);
                categorised = categorised || sc.categoryName != kNoName;
            }
            QVERIFY2(categorised || st.nvtxScopes().empty(), first.reports[i]->path.c_str());
        }
        QVERIFY(std::any_of(s.perReport.begin(), s.perReport.end(), [](const StatRow &r) {
            return *r.report == 0 && r.name.rfind("de.tu-darmstadt.parallel.extra_prof:", 0) == 0;
        }));
    }

    // A folder of Ascend output: every .db is found and loads (analysis.db with no events).
    void folder()
    {
        LoadOptions opt;
        opt.useCache = false;
        const LoadResult r = loadReports({(kTraces + "/ascend").toStdString()}, opt);
        QVERIFY(r.failures.empty());
        QCOMPARE(r.reports.size(), size_t(QDir(kTraces + "/ascend").entryList({"*.db"}, QDir::Files).size()));
    }

    // The CLI lists the mixed session: its registry holds these readers.
    void cli()
    {
        const ps::test::CliRun r =
            ps::test::runCli(QStringList{"trace", "info", "--format", "json", "--no-cache"} + sessionFiles());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray reports = QJsonDocument::fromJson(r.out.toUtf8())["reports"].toArray();
        QCOMPARE(reports.size(), 6);
        const QStringList formats = {"nsys-sqlite", "rocpd", "kineto-json", "kineto-json", "ascend-db", "ascend-db"};
        for (int i = 0; i < 6; ++i)
            QCOMPARE(reports[i]["format"].toString(), formats[i]);
        // Kineto counts: kernels as trace events with cat kernel, read independently.
        const QJsonArray events = jsonref::readTrace(sessionFiles()[2])["traceEvents"].toArray();
        int kernels = 0;
        for (const QJsonValue &e : events)
            kernels += e["cat"].toString() == "kernel" && e["ph"].toString() == "X";
        QCOMPARE(reports[2]["counts"]["kernel"].toInt(), kernels);
        // distributedInfo.rank reaches `trace info` (ReportMeta::rank -> identity).
        QCOMPARE(reports[2]["rank"].toInt(-1), 0);
        QCOMPARE(reports[1]["utc_start_ns"].isNull(), true);
    }
};

QTEST_GUILESS_MAIN(TestMixedSession)
#include "tst_mixedsession.moc"
