// Peaks, the blocks live at the peak and the OOMs of CUDA memory snapshots, against what
// tests/formats/memoryfixtures.py computes independently (memory_viz's counting, written anew in
// Python), and `trace memory` over a folder with a broken file in it.

#include "core/analysis/memory/memorypeak.h"
#include "core/analysis/memory/memorysummary.h"
#include "core/trace/formats/torchmemoryfiles.h"
#include "core/trace/persist/digest.h"
#include "core/trace/read/traceloader.h"

#include "tests/support/clirun.h"
#include "tests/support/memoryfixtures.h"

#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps::core;

namespace {

// A live group as the fixture script writes it: [bytes, blocks, [[name, file, line]...]].
QJsonArray groupJson(const trace::MemorySnapshot &s, const analysis::LiveGroup &g)
{
    QJsonArray frames;
    for (uint32_t f : g.frames)
        frames.append(QJsonArray{QString::fromStdString(s.frames[f].name), QString::fromStdString(s.frames[f].file),
                                 qint64(s.frames[f].line)});
    return QJsonArray{qint64(g.bytes), qint64(g.blocks), frames};
}

} // namespace

class TestMemoryPeak : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir, m_beside;
    QJsonObject m_expected, m_besideExpected;

private slots:
    void initTestCase()
    {
        if (!ps::test::haveFixturePython())
            QSKIP("no /usr/bin/python3 to write the fixtures");
        const QString error =
            ps::test::writeBothMemoryFixtures(m_dir.path(), m_expected, m_beside.path(), m_besideExpected);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void peaks_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *n :
             {"step3/torch_memory_rank0_pid4242.pickle", "step3/torch_memory_rank1_pid4243.pickle", "small.pickle"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }

    // Per device: peak, its time, every live group at the peak (bytes, count, user frames) in
    // order, and the OOMs with requested size and device free.
    void peaks()
    {
        QFETCH(QString, name);
        trace::MemorySnapshot s;
        QCOMPARE(trace::readMemorySnapshot(m_dir.filePath(name).toStdString(), s), std::string());
        const analysis::SnapshotMemory m = analysis::analyzeSnapshot(s);
        const QJsonArray devices = m_expected[name].toArray();
        QCOMPARE(m.devices.size(), size_t(devices.size()));
        for (size_t i = 0; i < m.devices.size(); ++i) {
            const analysis::DeviceMemory &d = m.devices[i];
            const QJsonObject e = devices[qsizetype(i)].toObject();
            QCOMPARE(d.device, e[QStringLiteral("device")].toInteger());
            QCOMPARE(d.peakBytes, e[QStringLiteral("peak_bytes")].toInteger());
            QVERIFY(d.peakTimeNs.has_value());
            QCOMPARE(*d.peakTimeNs, e[QStringLiteral("peak_time_ns")].toInteger());
            QVERIFY(d.baselineBytes > 0); // the planted pre-existing blocks
            QJsonArray live;
            for (const auto &g : d.liveAtPeak)
                live.append(groupJson(s, g));
            QCOMPARE(live, e[QStringLiteral("live_at_peak")].toArray());
            QJsonArray ooms;
            for (const auto &o : d.ooms) {
                QVERIFY(o.timeNs.has_value());
                ooms.append(QJsonArray{qint64(*o.timeNs), qint64(o.bytes), qint64(o.deviceFree)});
            }
            QCOMPARE(ooms, e[QStringLiteral("ooms")].toArray());
            // Reserved: the dump-time segments, reached by the segment events; never below the
            // allocated, as a caching allocator hands out only what it reserved.
            QCOMPARE(d.reserved.back(), e[QStringLiteral("reserved_end")].toInteger());
            QCOMPARE(d.peakReservedBytes, e[QStringLiteral("peak_reserved")].toInteger());
            QVERIFY(d.peakReservedBytes >= d.peakBytes);
        }
    }

    // `trace memory --at T` answers what the desktop's Memory tab lists for a click at T
    // (liveBlocksAt: the state after every entry at or before T), grouped by allocation site.
    void cliAtTime()
    {
        const QString file = m_dir.filePath(QStringLiteral("step3/torch_memory_rank0_pid4242.pickle"));
        trace::MemorySnapshot s;
        QCOMPARE(trace::readMemorySnapshot(file.toStdString(), s), std::string());
        const analysis::SnapshotMemory m = analysis::analyzeSnapshot(s);
        QVERIFY(!m.devices.empty() && m.devices.front().peakTimeNs);
        const int64_t peak = *m.devices.front().peakTimeNs;
        for (const int64_t at : {peak, peak - 1000, int64_t(0)}) {
            const ps::test::CliRun r = ps::test::runCli(
                {QStringLiteral("trace"), QStringLiteral("memory"), QStringLiteral("--format"), QStringLiteral("json"),
                 QStringLiteral("--top"), QStringLiteral("100000"), QStringLiteral("--at"), QString::number(at), file});
            QCOMPARE(r.exitCode, 0);
            const QJsonArray devices = QJsonDocument::fromJson(r.out.toUtf8())
                                           .object()[QStringLiteral("reports")]
                                           .toArray()[0]
                                           .toObject()[QStringLiteral("devices")]
                                           .toArray();
            QCOMPARE(devices.size(), qsizetype(m.devices.size()));
            for (const auto &v : devices) {
                const QJsonObject d = v.toObject();
                const QJsonObject live = d[QStringLiteral("live_at")].toObject();
                int64_t total = 0;
                const auto blocks = trace::liveBlocksAt(s, d[QStringLiteral("device")].toInteger(), at, &total);
                QCOMPARE(live[QStringLiteral("time_ns")].toInteger(), at);
                QCOMPARE(live[QStringLiteral("bytes")].toInteger(), total);
                QCOMPARE(live[QStringLiteral("blocks")].toInteger(), qint64(blocks.size()));
                int64_t sites = 0;
                for (const auto &g : live[QStringLiteral("sites")].toArray())
                    sites += g.toObject()[QStringLiteral("bytes")].toInteger();
                QCOMPARE(sites, total);
            }
        }
        const ps::test::CliRun text = ps::test::runCli(
            {QStringLiteral("trace"), QStringLiteral("memory"), QStringLiteral("--at"), QString::number(peak), file});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(QStringLiteral("    at %1 ns").arg(peak)), qPrintable(text.out));
        const ps::test::CliRun bad = ps::test::runCli(
            {QStringLiteral("trace"), QStringLiteral("memory"), QStringLiteral("--at"), QStringLiteral("soon"), file});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("--at expects a time in ns")), qPrintable(bad.err));
    }

    void internalFrames()
    {
        QVERIFY(analysis::isTorchInternalFrame({"malloc", "c10/cuda/CUDACachingAllocator.cpp", 1}));
        QVERIFY(analysis::isTorchInternalFrame({"_call_impl", "/x/site-packages/torch/nn/modules/module.py", 1}));
        QVERIFY(analysis::isTorchInternalFrame({"??", "??", 0}));
        QVERIFY(!analysis::isTorchInternalFrame({"forward", "/app/verl/utils/torch_functional.py", 3}));
        // Snapshots taken on Windows (a real one, tests/formats/data) name frames with backslashes.
        QVERIFY(analysis::isTorchInternalFrame(
            {"_call_impl", "D:\\Dev\\a2\\.venv\\Lib\\site-packages\\torch\\nn\\modules\\module.py", 1790}));
        QVERIFY(!analysis::isTorchInternalFrame({"forward", "D:\\Dev\\a2\\cs336_basics\\model.py", 54}));
    }

    // The digest's memory summary comes from the loaded report, not from the file read again: from
    // a fresh read and from the report cache alike, with the snapshot moved away in between.
    void summaryFromTheLoadedReport()
    {
        const QString name = QStringLiteral("step3/torch_memory_rank0_pid4242.pickle");
        QTemporaryDir work;
        const QString path = work.filePath(QStringLiteral("torch_memory_rank0_pid4242.pickle"));
        QVERIFY(QFile::copy(m_dir.filePath(name), path));
        trace::LoadOptions options;
        options.cacheDir = work.filePath(QStringLiteral("cache")).toStdString();
        const trace::LoadResult fresh = trace::loadReports({path.toStdString()}, options);
        const trace::LoadResult cached = trace::loadReports({path.toStdString()}, options);
        QCOMPARE(fresh.reports.size(), size_t(1));
        QCOMPARE(cached.reports.size(), size_t(1));
        QVERIFY(!fresh.reports[0]->fromCache);
        QVERIFY(cached.reports[0]->fromCache);
        QVERIFY(QFile::rename(path, path + QStringLiteral(".moved")));
        const QJsonArray devices = m_expected[name].toArray();
        for (const trace::ReportPtr &report : {fresh.reports[0], cached.reports[0]}) {
            std::string error;
            const auto made = analysis::computeMemorySummary(*report, *report->store, nullptr, error);
            QVERIFY2(made, error.c_str());
            QCOMPARE(made->snapshot.size(), size_t(devices.size()));
            for (size_t i = 0; i < made->snapshot.size(); ++i) {
                const QJsonObject e = devices[qsizetype(i)].toObject();
                const trace::MemoryDevicePeak &d = made->snapshot[i];
                QCOMPARE(d.peakBytes, e[QStringLiteral("peak_bytes")].toInteger());
                QCOMPARE(d.peakTimeNs.value_or(-1), e[QStringLiteral("peak_time_ns")].toInteger());
                const QJsonArray live = e[QStringLiteral("live_at_peak")].toArray();
                QCOMPARE(d.liveAtPeak.size(), std::min(size_t(live.size()), analysis::kMemorySummarySites));
                for (size_t g = 0; g < d.liveAtPeak.size(); ++g) {
                    QCOMPARE(d.liveAtPeak[g].bytes, live[qsizetype(g)][0].toInteger());
                    QCOMPARE(d.liveAtPeak[g].blocks, live[qsizetype(g)][1].toInteger());
                    const QJsonArray frames = live[qsizetype(g)][2].toArray();
                    QCOMPARE(d.liveAtPeak[g].frames.size(),
                             std::min(size_t(frames.size()), analysis::kMemorySummaryFrames));
                    for (size_t f = 0; f < d.liveAtPeak[g].frames.size(); ++f)
                        QCOMPARE(QString::fromStdString(d.liveAtPeak[g].frames[f].name),
                                 frames[qsizetype(f)][0].toString());
                }
                QCOMPARE(qsizetype(d.ooms.size()), e[QStringLiteral("ooms")].toArray().size());
                for (size_t o = 0; o < d.ooms.size(); ++o)
                    QCOMPARE(d.ooms[o].deviceFree, e[QStringLiteral("ooms")][qsizetype(o)][2].toInteger());
            }
        }
    }

    void crossRank()
    {
        const auto c = analysis::crossRankPeak({{0, "a", 100}, {1, "b", 300}, {2, "c", 120}, {3, "d", 110}});
        QVERIFY(c);
        QCOMPARE(c->highest, size_t(1));
        QCOMPARE(c->medianBytes, int64_t(115));
        QCOMPARE(c->overMedianBytes, int64_t(185));
        QVERIFY(!analysis::crossRankPeak({{0, "a", 1}}));
    }

    // The CLI over the folder: every readable file reported, the evil ones named with exit 1.
    void cliJson()
    {
        const ps::test::CliRun r =
            ps::test::runCli({QStringLiteral("trace"), QStringLiteral("memory"), QStringLiteral("--format"),
                              QStringLiteral("json"), QStringLiteral("--top"), QStringLiteral("100"), m_dir.path()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("evil_p2.pickle: byte ")), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("evil_p4.pickle: byte ")));
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonArray reports = doc[QStringLiteral("reports")].toArray();
        QCOMPARE(reports.size(), qsizetype(5));
        QCOMPARE(doc[QStringLiteral("errors")].toArray().size(), qsizetype(2));
        bool sawSnapshot = false, sawTimeline = false;
        for (const auto &v : reports) {
            const QJsonObject rep = v.toObject();
            const QString path = rep[QStringLiteral("path")].toString();
            const QJsonArray devices = rep[QStringLiteral("devices")].toArray();
            if (path.endsWith(QStringLiteral("torch_memory_rank0_pid4242.pickle"))) {
                sawSnapshot = true;
                QCOMPARE(rep[QStringLiteral("rank")].toInt(), 0);
                QCOMPARE(rep[QStringLiteral("step")].toInt(), 3);
                const QJsonArray exp = m_expected[QStringLiteral("step3/torch_memory_rank0_pid4242.pickle")].toArray();
                for (qsizetype i = 0; i < exp.size(); ++i) {
                    const QJsonObject d = devices[i].toObject(), e = exp[i].toObject();
                    QCOMPARE(d[QStringLiteral("peak_bytes")].toInteger(), e[QStringLiteral("peak_bytes")].toInteger());
                    QCOMPARE(d[QStringLiteral("peak_time_ns")].toInteger(),
                             e[QStringLiteral("peak_time_ns")].toInteger());
                    const QJsonObject top = d[QStringLiteral("live_at_peak")].toArray()[0].toObject();
                    const QJsonArray etop = e[QStringLiteral("live_at_peak")].toArray()[0].toArray();
                    QCOMPARE(top[QStringLiteral("bytes")].toInteger(), etop[0].toInteger());
                    QCOMPARE(top[QStringLiteral("frames")].toArray()[0].toObject()[QStringLiteral("name")].toString(),
                             etop[2].toArray()[0].toArray()[0].toString());
                    const QJsonObject oom = d[QStringLiteral("ooms")].toArray()[0].toObject();
                    QCOMPARE(oom[QStringLiteral("device_free")].toInteger(),
                             e[QStringLiteral("ooms")].toArray()[0].toArray()[2].toInteger());
                }
            }
            if (path.endsWith(QStringLiteral("rank1_memory_profile.raw.json.gz"))) {
                sawTimeline = true;
                const QJsonObject d = devices[0].toObject();
                QVERIFY(d[QStringLiteral("live_at_peak")].toArray().isEmpty());
                const QJsonObject e = m_expected[QStringLiteral("timelines")]
                                          .toObject()[QStringLiteral("rank1_memory_profile.raw.json.gz")]
                                          .toObject();
                QCOMPARE(d[QStringLiteral("peak_bytes")].toInteger(), e[QStringLiteral("peak_bytes")].toInteger());
                QCOMPARE(d[QStringLiteral("categories_at_peak")].toObject()[QStringLiteral("TEMPORARY")].toInteger(),
                         e[QStringLiteral("categories")].toArray()[3].toInteger());
            }
        }
        QVERIFY(sawSnapshot && sawTimeline);
        // Snapshots: rank 1 (2843307619 B in the fixture) over ranks 0, 1 and the unnamed file.
        const QJsonObject cross = doc[QStringLiteral("cross_rank")].toArray()[0].toObject();
        QCOMPARE(cross[QStringLiteral("kind")].toString(), QStringLiteral("snapshot"));
        QCOMPARE(cross[QStringLiteral("rank")].toInt(), 1);
        QCOMPARE(cross[QStringLiteral("ranks")].toInt(), 3);
    }

    // Snapshots beside the same ranks' Kineto traces: each peak's phase is the verl range the
    // script placed over it, and the cross-rank line names the highest rank's phase.
    void cliPhases()
    {
        const ps::test::CliRun r = ps::test::runCli(
            {QStringLiteral("trace"), QStringLiteral("memory"), QStringLiteral("--format"), QStringLiteral("json"),
             QStringLiteral("--no-cache"), m_beside.filePath(QStringLiteral("run"))});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonObject ranks = m_besideExpected[QStringLiteral("ranks")].toObject();
        const QJsonArray reports = doc[QStringLiteral("reports")].toArray();
        QCOMPARE(reports.size(), qsizetype(3));
        for (const auto &v : reports) {
            const QJsonObject rep = v.toObject();
            const QJsonObject e = ranks[QString::number(rep[QStringLiteral("rank")].toInt())].toObject();
            const QJsonObject d = rep[QStringLiteral("devices")].toArray()[0].toObject();
            QCOMPARE(d[QStringLiteral("peak_bytes")].toInteger(), e[QStringLiteral("peak_bytes")].toInteger());
            const QJsonObject phase = d[QStringLiteral("phase_at_peak")].toObject();
            QCOMPARE(phase[QStringLiteral("phase")].toString(), e[QStringLiteral("phase")].toString());
            QCOMPARE(phase[QStringLiteral("range")].toString(), e[QStringLiteral("range")].toString());
            QVERIFY(phase[QStringLiteral("mapped")].toBool());
            QCOMPARE(phase[QStringLiteral("step")].toInt(), 5);
            QVERIFY(phase[QStringLiteral("trace")].toString().endsWith(
                QStringLiteral("kineto_rank%1.pt.trace.json").arg(rep[QStringLiteral("rank")].toInt())));
        }
        const QJsonObject highest = m_besideExpected[QStringLiteral("highest")].toObject();
        const QJsonObject cross = doc[QStringLiteral("cross_rank")].toArray()[0].toObject();
        QCOMPARE(cross[QStringLiteral("rank")].toInt(), highest[QStringLiteral("rank")].toInt());
        QCOMPARE(cross[QStringLiteral("median_bytes")].toInteger(), highest[QStringLiteral("median")].toInteger());
        QCOMPARE(cross[QStringLiteral("over_median_bytes")].toInteger(), highest[QStringLiteral("over")].toInteger());
        QCOMPARE(cross[QStringLiteral("phase")].toString(),
                 ranks[QString::number(highest[QStringLiteral("rank")].toInt())][QStringLiteral("phase")].toString());
        // Text: the phase under each device and on the cross-rank line.
        const ps::test::CliRun t =
            ps::test::runCli({QStringLiteral("trace"), QStringLiteral("memory"), QStringLiteral("--no-cache"),
                              m_beside.filePath(QStringLiteral("run"))});
        QCOMPARE(t.exitCode, 0);
        QVERIFY2(t.out.contains(QStringLiteral("at the peak: phase rollout (step 5), range 'generate_sequences'")),
                 qPrintable(t.out));
        QVERIFY(t.out.contains(QStringLiteral(", at its peak in phase ")));
        // Without the traces, no phase.
        const ps::test::CliRun alone = ps::test::runCli(
            {QStringLiteral("trace"), QStringLiteral("memory"), QStringLiteral("--format"), QStringLiteral("json"),
             m_beside.filePath(QStringLiteral("run/step5/torch_memory_rank0_pid700.pickle"))});
        QCOMPARE(alone.exitCode, 0);
        const QJsonObject one = QJsonDocument::fromJson(alone.out.toUtf8()).object();
        QVERIFY(
            one[QStringLiteral("reports")][0][QStringLiteral("devices")][0][QStringLiteral("phase_at_peak")].isNull());
    }

    // trace compare: per matched rank, the snapshot's allocated peak on each side.
    void comparePeaks()
    {
        const ps::test::CliRun r =
            ps::test::runCli({QStringLiteral("trace"), QStringLiteral("compare"), QStringLiteral("--format"),
                              QStringLiteral("json"), QStringLiteral("--no-cache"),
                              m_beside.filePath(QStringLiteral("run")), m_beside.filePath(QStringLiteral("run2"))});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray peaks =
            QJsonDocument::fromJson(r.out.toUtf8()).object()[QStringLiteral("memory_peaks")].toArray();
        int seen = 0;
        for (const auto &v : peaks) {
            const QJsonObject p = v.toObject();
            if (p[QStringLiteral("source")].toString() != QStringLiteral("torch allocated"))
                continue;
            ++seen;
            const QString rank =
                p[QStringLiteral("key")].toString().section(QLatin1Char(':'), 1).section(QLatin1Char('#'), 0, 0);
            QCOMPARE(p[QStringLiteral("baseline_bytes")].toInteger(),
                     m_besideExpected[QStringLiteral("ranks")][rank][QStringLiteral("peak_bytes")].toInteger());
            QCOMPARE(p[QStringLiteral("candidate_bytes")].toInteger(),
                     m_besideExpected[QStringLiteral("candidate")][rank][QStringLiteral("peak_bytes")].toInteger());
        }
        QCOMPARE(seen, 3);
        const ps::test::CliRun t =
            ps::test::runCli({QStringLiteral("trace"), QStringLiteral("compare"), QStringLiteral("--no-cache"),
                              m_beside.filePath(QStringLiteral("run")), m_beside.filePath(QStringLiteral("run2"))});
        QVERIFY2(t.out.contains(QStringLiteral("Peak memory per matched rank:")), qPrintable(t.out));
    }

    // The digest's memory summary: a snapshot's devices (peak, top sites, OOMs, as the script
    // counts them) and its lanes, written into a digest and read back from its outline alone.
    void digestSummary()
    {
        const std::string path =
            m_dir.filePath(QStringLiteral("step3/torch_memory_rank0_pid4242.pickle")).toStdString();
        std::string error;
        const trace::ReportPtr report = trace::loadReport(path, trace::ReadContext{}, error);
        QVERIFY2(report, error.c_str());
        const auto made = analysis::computeMemorySummary(*report, *report->store, nullptr, error);
        QVERIFY2(made, error.c_str());
        const QJsonArray devices = m_expected[QStringLiteral("step3/torch_memory_rank0_pid4242.pickle")].toArray();
        QCOMPARE(made->snapshot.size(), size_t(devices.size()));
        QCOMPARE(made->lanes.size(), size_t(2 * devices.size())); // allocated and reserved per device
        for (size_t i = 0; i < made->snapshot.size(); ++i) {
            const QJsonObject e = devices[qsizetype(i)].toObject();
            QCOMPARE(made->snapshot[i].peakBytes, e[QStringLiteral("peak_bytes")].toInteger());
            QCOMPARE(made->snapshot[i].liveAtPeak[0].bytes, e[QStringLiteral("live_at_peak")][0][0].toInteger());
            QCOMPARE(QString::fromStdString(made->snapshot[i].liveAtPeak[0].frames[0].name),
                     e[QStringLiteral("live_at_peak")][0][2][0][0].toString());
            QCOMPARE(qsizetype(made->snapshot[i].ooms.size()), e[QStringLiteral("ooms")].toArray().size());
        }
        // Through a digest written with the section, opened without its events.
        QTemporaryDir out;
        const QString digest = out.filePath(QStringLiteral("rank0.psdigest"));
        trace::DigestOptions options;
        options.summaryOnly = true;
        options.deferredSections.push_back([&] {
            return std::vector<trace::DigestSection>{
                {std::string(analysis::kMemorySummary.tag), analysis::encodeMemorySummary(*made)}};
        });
        QCOMPARE(trace::writeDigest(*report, digest.toStdString(), options), std::string());
        const trace::ReportPtr outline = trace::readDigestOutline(digest.toStdString(), error);
        QVERIFY2(outline, error.c_str());
        const auto read = trace::summaryOf(*outline, analysis::kMemorySummary, error);
        QVERIFY2(read, error.c_str());
        QCOMPARE(analysis::encodeMemorySummary(*read), analysis::encodeMemorySummary(*made));
        analysis::MemorySummary bad;
        QVERIFY(!analysis::decodeMemorySummary("{\"version\": 1, \"lanes\": [{}]}", bad, error));
        QVERIFY(!error.empty());
    }

    void cliText()
    {
        const ps::test::CliRun r =
            ps::test::runCli({QStringLiteral("trace"), QStringLiteral("memory"), QStringLiteral("--top"),
                              QStringLiteral("2"), m_dir.filePath(QStringLiteral("small.pickle"))});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("device 0: peak ")), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("OOM at ")));
        QVERIFY(r.out.contains(QStringLiteral("more allocation sites")));
        const ps::test::CliRun bad = ps::test::runCli({QStringLiteral("trace"), QStringLiteral("memory")});
        QCOMPARE(bad.exitCode, 2);
    }

    // A trace alone is not a memory file: exit 1 with the reason, not silence and 0.
    void cliRefusesATrace()
    {
        const QString sqlite = QStringLiteral(PS_TESTDATA_DIR "/traces/nsys/extrap__concurrent.s1.sqlite");
        const ps::test::CliRun r = ps::test::runCli({QStringLiteral("trace"), QStringLiteral("memory"), sqlite});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(sqlite + QStringLiteral(": not a memory snapshot or memory timeline")),
                 qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    // The memo bomb of #37 beside a healthy snapshot: the bomb fails at once, the healthy file is
    // still reported.
    void cliBombBesideHealthy()
    {
        const QString bomb = m_dir.filePath(QStringLiteral("bomb_memory.pickle"));
        QProcess p;
        p.start(QStringLiteral("/usr/bin/python3"),
                {QStringLiteral("-c"),
                 QStringLiteral("import pickle,sys\ne = {'action': 'alloc', 'addr': 1, 'size': 512, 'stream': 0}\n"
                                "pickle.dump({'segments': [], 'device_traces': [[e]*200000]*1000}, "
                                "open(sys.argv[1], 'wb'), protocol=4)"),
                 bomb});
        QVERIFY(p.waitForFinished(60000) && p.exitCode() == 0);
        const ps::test::CliRun r = ps::test::runCli(
            {QStringLiteral("trace"), QStringLiteral("memory"), bomb, m_dir.filePath(QStringLiteral("small.pickle"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(bomb + QStringLiteral(": device_traces[0][1]: the same object")), qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("device 0: peak ")), qPrintable(r.out));
    }
};

QTEST_GUILESS_MAIN(TestMemoryPeak)
#include "tst_memorypeak.moc"
