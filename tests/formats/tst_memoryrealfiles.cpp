// Real PyTorch memory files from public repositories (tests/formats/data/memory/PROVENANCE):
// HTA's export_memory_timeline raw rows and a CUDA memory snapshot taken on Windows. ProfStudio
// reads them through the loader, and the peak, its time, the categories at the peak, the
// allocation sites live at the peak and the OOMs equal what data/memory/regen.sh computes with
// python3 alone (expected.json beside them).

#include "core/analysis/memory/memorypeak.h"
#include "core/trace/formats/bytesource.h"
#include "core/trace/formats/torchmemoryfiles.h"
#include "core/trace/read/traceloader.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

#include <zlib.h>

using namespace ps::core;

namespace {

const QString kData = QStringLiteral(PS_SOURCE_DIR "/tests/formats/data/memory/");

QJsonObject expected()
{
    QFile f(kData + QStringLiteral("expected.json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("no expected.json beside the real memory files");
    return QJsonDocument::fromJson(f.readAll()).object();
}

const trace::MemorySeries *seriesNamed(const trace::Report &r, std::string_view source)
{
    for (const trace::MemorySeries &s : r.meta.memory)
        if (s.source == source)
            return &s;
    return nullptr;
}

// The snapshot as torch wrote it, inflated from the repository's gzip copy into `dir`.
QString inflateSnapshot(const QTemporaryDir &dir)
{
    trace::formats::ByteSource in;
    if (!in.open((kData + QStringLiteral("memory_snapshot.pickle.gz")).toStdString()).empty())
        return {};
    QByteArray bytes;
    char block[65536];
    while (const size_t n = in.read(block, sizeof block))
        bytes.append(block, qsizetype(n));
    const QString path = dir.filePath(QStringLiteral("memory_snapshot.pickle"));
    QFile out(path);
    if (!in.error().empty() || !out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size())
        return {};
    return path;
}

// [bytes, blocks, [[name, file, line]...]] as regen.sh writes a live site.
QJsonArray siteJson(const std::vector<trace::MemFrame> &frames, int64_t bytes, int64_t blocks)
{
    QJsonArray f;
    for (const trace::MemFrame &m : frames)
        f.append(QJsonArray{QString::fromStdString(m.name), QString::fromStdString(m.file), qint64(m.line)});
    return QJsonArray{qint64(bytes), qint64(blocks), f};
}

} // namespace

class TestMemoryRealFiles : public QObject
{
    Q_OBJECT

private slots:
    // HTA's sample: the total lane's peak and time, and each category lane's bytes at the peak.
    void htaMemoryTimeline()
    {
        const QJsonObject e = expected()[QStringLiteral("memory_timeline.raw.gz")].toObject();
        std::string error;
        const trace::ReportPtr r =
            trace::loadReport((kData + QStringLiteral("memory_timeline.raw.gz")).toStdString(), {}, error);
        QVERIFY2(r, error.c_str());
        QVERIFY(r->meta.format == trace::TraceFormat::TorchMemory);
        QVERIFY(r->meta.utcStartNs); // 2023 wall-clock times: aligns with traces by UTC
        const trace::MemorySeries *total = seriesNamed(*r, trace::kTimelineTotalSource);
        QVERIFY(total);
        QCOMPARE(qsizetype(total->timeNs.size()), e[QStringLiteral("instants")].toInteger());
        QCOMPARE(total->peakBytes(), e[QStringLiteral("peak_bytes")].toInteger());
        QCOMPARE(total->peakTimeNs().value_or(-1), e[QStringLiteral("peak_time_ns")].toInteger());
        const QJsonArray categories = e[QStringLiteral("categories_at_peak")].toArray();
        for (size_t c = 0; c < trace::kMemoryCategories.size(); ++c) {
            const trace::MemorySeries *lane = seriesNamed(*r, trace::timelineCategorySource(c));
            const int64_t want = categories[qsizetype(c)].toInteger();
            if (want != 0)
                QVERIFY(lane); // every category with bytes has its lane
            if (lane)
                QCOMPARE(lane->bytes[size_t(lane->indexAt(*total->peakTimeNs()))], want);
        }
        trace::MemoryTimeline t;
        QCOMPARE(trace::readMemoryTimeline((kData + QStringLiteral("memory_timeline.raw.gz")).toStdString(), t),
                 std::string());
        const analysis::TimelineMemory m = analysis::analyzeTimeline(t);
        for (size_t c = 0; c < trace::kMemoryCategories.size(); ++c)
            QCOMPARE(m.categoriesAtPeak[c], categories[qsizetype(c)].toInteger());
    }

    // The Windows snapshot: the allocated lane's peak, the report's kept peak (top sites, user
    // frames with the torch internals folded, backslashed paths and all) and the full analysis.
    void windowsSnapshot()
    {
        const QJsonObject e = expected()[QStringLiteral("memory_snapshot.pickle.gz")].toArray()[0].toObject();
        QTemporaryDir dir;
        const QString path = inflateSnapshot(dir);
        QVERIFY(!path.isEmpty());
        std::string error;
        const trace::ReportPtr r = trace::loadReport(path.toStdString(), {}, error);
        QVERIFY2(r, error.c_str());
        const trace::MemorySeries *allocated = seriesNamed(*r, trace::kSnapshotAllocatedSource);
        QVERIFY(allocated);
        // Its entries share µs (an alloc and a free in one µs): each is still a sample of the lane,
        // 1 ns apart, so the lane peaks where the count does.
        QCOMPARE(allocated->peakBytes(), e[QStringLiteral("peak_bytes")].toInteger());
        QCOMPARE(allocated->peakTimeNs().value_or(-1) / 1000, e[QStringLiteral("peak_time_ns")].toInteger() / 1000);
        QCOMPARE(r->meta.memoryPeaks.size(), size_t(1));
        const trace::MemoryDevicePeak &kept = r->meta.memoryPeaks[0];
        QCOMPARE(kept.peakBytes, e[QStringLiteral("peak_bytes")].toInteger());
        QCOMPARE(kept.peakTimeNs.value_or(-1), e[QStringLiteral("peak_time_ns")].toInteger());
        QVERIFY(kept.ooms.empty());
        QCOMPARE(e[QStringLiteral("ooms")].toArray().size(), qsizetype(0));
        const QJsonArray live = e[QStringLiteral("live_at_peak")].toArray();
        QCOMPARE(kept.liveAtPeak.size(), std::min(size_t(live.size()), trace::kMemoryPeakSites));
        for (size_t i = 0; i < kept.liveAtPeak.size(); ++i) {
            const trace::MemoryPeakSite &s = kept.liveAtPeak[i];
            QJsonArray want = live[qsizetype(i)].toArray();
            QJsonArray frames = want[2].toArray();
            while (frames.size() > qsizetype(trace::kMemoryPeakFrames))
                frames.removeLast();
            want[2] = frames;
            QCOMPARE(siteJson(s.frames, s.bytes, s.blocks), want);
        }
        trace::MemorySnapshot s;
        QCOMPARE(trace::readMemorySnapshot(path.toStdString(), s), std::string());
        QCOMPARE(qsizetype(s.traces.at(0).size()), e[QStringLiteral("entries")].toInteger());
        // One lane sample per alloc and free_completed (the first entry, an alloc, starts the lane).
        const auto counted = std::count_if(s.traces[0].begin(), s.traces[0].end(), [](const trace::MemTraceEntry &t) {
            return t.action == trace::MemAction::Alloc || t.action == trace::MemAction::FreeCompleted;
        });
        QVERIFY(s.traces[0].front().action == trace::MemAction::Alloc);
        QCOMPARE(qsizetype(allocated->timeNs.size()), qsizetype(counted));
        const analysis::SnapshotMemory m = analysis::analyzeSnapshot(s);
        QCOMPARE(m.devices.size(), size_t(1));
        QJsonArray all;
        for (const analysis::LiveGroup &g : m.devices[0].liveAtPeak) {
            std::vector<trace::MemFrame> frames;
            for (uint32_t f : g.frames)
                frames.push_back(s.frames[f]);
            all.append(siteJson(frames, g.bytes, g.blocks));
        }
        QCOMPARE(all, live);
    }

    // The repository's copy is gzipped, as users keep snapshots: it opens as it is, with the same
    // answer as the inflated pickle, through the loader, the reader and its probe.
    void gzippedSnapshotOpensAsItIs()
    {
        const QJsonObject e = expected()[QStringLiteral("memory_snapshot.pickle.gz")].toArray()[0].toObject();
        const std::string gz = (kData + QStringLiteral("memory_snapshot.pickle.gz")).toStdString();
        QCOMPARE(trace::memoryFileKind(gz), trace::MemoryFileKind::Snapshot);
        std::string error;
        const trace::ReportPtr r = trace::loadReport(gz, {}, error);
        QVERIFY2(r, error.c_str());
        QCOMPARE(r->meta.format, trace::TraceFormat::TorchMemory);
        QCOMPARE(r->meta.memoryPeaks.size(), size_t(1));
        QCOMPARE(r->meta.memoryPeaks[0].peakBytes, e[QStringLiteral("peak_bytes")].toInteger());
        trace::MemorySnapshot s;
        QCOMPARE(trace::readMemorySnapshot(gz, s), std::string());
        QCOMPARE(qsizetype(s.traces.at(0).size()), e[QStringLiteral("entries")].toInteger());
    }

    // A gzipped "snapshot" that inflates 1000x (zeros) is refused by its bound before it is all
    // inflated, naming the file; a gzip of something that is not a pickle says so.
    void gzipBombAndNonPickleAreRefused()
    {
        QTemporaryDir dir;
        const std::string bomb = dir.filePath(QStringLiteral("bomb_memory.pickle.gz")).toStdString();
        gzFile f = gzopen(bomb.c_str(), "wb9");
        QVERIFY(f);
        const std::string zeros(1 << 20, '\0');
        for (int i = 0; i < 80; ++i)
            QCOMPARE(gzwrite(f, zeros.data(), unsigned(zeros.size())), int(zeros.size()));
        gzclose(f);
        trace::MemorySnapshot s;
        const std::string error = trace::readMemorySnapshot(bomb, s);
        QVERIFY2(error.find("gzip bomb") != std::string::npos, error.c_str());
        QVERIFY2(error.rfind(bomb, 0) == 0, error.c_str());

        const std::string text = dir.filePath(QStringLiteral("notes_memory.pickle.gz")).toStdString();
        f = gzopen(text.c_str(), "wb");
        QVERIFY(f);
        gzputs(f, "not a pickle at all");
        gzclose(f);
        const std::string notPickle = trace::readMemorySnapshot(text, s);
        QVERIFY2(notPickle.rfind(text, 0) == 0 && notPickle.find("JSON") == std::string::npos, notPickle.c_str());
    }
};

QTEST_GUILESS_MAIN(TestMemoryRealFiles)
#include "tst_memoryrealfiles.moc"
