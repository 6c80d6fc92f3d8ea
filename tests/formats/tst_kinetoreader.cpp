// The Kineto (PyTorch profiler) JSON reader on every real sample in testdata/traces/kineto:
// per-kind counts and named events checked against QJsonDocument reads of the same files, plus
// generated files for what the samples lack (ns-resolution epoch floats, B/E, bare arrays,
// flow-only correlation, damage, cancellation, chunk boundaries).

#include "core/trace/formats/formatreaders.h"
#include "core/trace/formats/kinetoreader.h"
#include "core/trace/formats/traceeventsplitter.h"
#include "core/trace/read/traceloader.h"
#include "jsonref.h"
#include "kinetofixtures.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace ps::core::trace;
using ps::core::CancelToken;

namespace {

QString kinetoDir()
{
    return QStringLiteral(PS_TESTDATA_DIR "/traces/kineto");
}

struct Loaded
{
    ReportMeta meta;
    std::shared_ptr<EventStore> store;
    std::string error;
};

Loaded readKineto(const QString &path, const CancelToken *cancel = nullptr)
{
    Loaded l;
    StoreBuilder b;
    ReadContext ctx;
    ctx.cancel = cancel;
    l.error = KinetoReader().read(path.toStdString(), b, l.meta, ctx);
    if (l.error.empty())
        l.store = std::make_shared<EventStore>(std::move(b).build());
    return l;
}

// The kind a trace event maps to (the documented mapping, applied to the JSON independently).
std::optional<TrackKind> kindOf(const QJsonObject &e)
{
    const QString ph = e["ph"].toString(), cat = e["cat"].toString();
    if (ph == "i" || ph == "I")
        return TrackKind::NvtxMark;
    if (ph != "X")
        return std::nullopt;
    if (cat == "kernel")
        return TrackKind::Kernel;
    if (cat == "gpu_memcpy")
        return TrackKind::Memcpy;
    if (cat == "gpu_memset")
        return TrackKind::Memset;
    if (cat == "cuda_sync")
        return TrackKind::Sync;
    if (cat == "cuda_runtime" || cat == "cuda_driver")
        return TrackKind::CudaApi;
    if (cat == "gpu_user_annotation")
        return TrackKind::NvtxStartEnd;
    return TrackKind::NvtxPushPop;
}

// An event of `kind` named `name` starting within 1 ns of `start`; its duration, or -1.
int64_t findDuration(const EventStore &s, TrackKind kind, const QString &name, int64_t start)
{
    for (uint32_t ti : s.tracksOfKind(kind)) {
        const Track &t = s.track(ti);
        for (size_t i = 0; i < t.size(); ++i)
            if (std::llabs(t.start(i) - start) <= 1 && QString::fromStdString(std::string(s.name(t.name(i)))) == name)
                return t.duration(i);
    }
    return -1;
}

void writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(data);
}

QByteArray gzip(const QByteArray &data)
{
    QByteArray out(int(compressBound(uLong(data.size())) + 64), '\0');
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
    z.avail_in = uInt(data.size());
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = uInt(out.size());
    deflate(&z, Z_FINISH);
    out.resize(int(z.total_out));
    deflateEnd(&z);
    return out;
}

} // namespace

class TestKinetoReader : public QObject
{
    Q_OBJECT

private slots:

    void everySample_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files = QDir(kinetoDir()).entryList({"*.json", "*.json.gz"}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 6);
        for (const QString &f : files)
            QTest::newRow(qPrintable(f)) << kinetoDir() + "/" + f;
    }
    void everySample()
    {
        QFETCH(QString, path);
        const Loaded l = readKineto(path);
        QVERIFY2(l.error.empty(), l.error.c_str());
        const EventStore &s = *l.store;
        const QJsonObject doc = jsonref::readTrace(path);
        const QJsonArray events = doc["traceEvents"].toArray();
        QVERIFY(!events.isEmpty());

        std::map<TrackKind, int64_t> expected;
        std::map<QString, QJsonObject> firstOfCat;
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            if (auto k = kindOf(e))
                ++expected[*k];
            if (e["ph"].toString() == "X" && !firstOfCat.count(e["cat"].toString()))
                firstOfCat[e["cat"].toString()] = e;
        }
        for (int k = 0; k < kTrackKindCount; ++k) {
            QCOMPARE(int64_t(s.count(TrackKind(k))), expected[TrackKind(k)]);
            QCOMPARE(int64_t(l.meta.fileCounts[size_t(k)]), expected[TrackKind(k)]);
        }

        // Named events: the first of each category, by name, start and duration.
        QVERIFY(!firstOfCat.empty());
        for (const auto &[cat, e] : firstOfCat) {
            const TrackKind kind = *kindOf(e);
            const int64_t dur = findDuration(s, kind, e["name"].toString(), jsonref::toNs(e["ts"]));
            QVERIFY2(dur >= 0, qPrintable(cat + ": " + e["name"].toString()));
            QVERIFY2(std::llabs(dur - jsonref::toNs(e["dur"])) <= 1, qPrintable(cat));
        }

        // Time origin: epoch µs give origin 0, relative ones take baseTimeNanoseconds.
        if (doc.contains("baseTimeNanoseconds")) {
            QVERIFY(l.meta.utcStartNs);
            QCOMPARE(*l.meta.utcStartNs, qint64(doc["baseTimeNanoseconds"].toDouble()));
        } else {
            QCOMPARE(l.meta.utcStartNs, std::optional<int64_t>(0));
        }
        // Rank from distributedInfo where present.
        const QJsonObject di = doc["distributedInfo"].toObject();
        if (di.contains("rank"))
            QCOMPARE(l.meta.rank, std::optional<int>(di["rank"].toInt()));
        QCOMPARE(l.meta.format, TraceFormat::KinetoJson);
        QCOMPARE(int(l.meta.gpus.size()), doc["deviceProperties"].toArray().size());
    }

    // Every GPU event with args.correlation finds its runtime call through the store.
    void correlation_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("simple_add")
            << kinetoDir() + "/hta__critical_path__simple_add__benchmark_result_493459_1694039959_trace.json.gz";
        QTest::newRow("amd") << kinetoDir() + "/hta__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz";
    }
    void correlation()
    {
        QFETCH(QString, path);
        const Loaded l = readKineto(path);
        QVERIFY2(l.error.empty(), l.error.c_str());
        const EventStore &s = *l.store;
        std::map<int, QString> runtimeByCorr;
        for (const QJsonValue &v : jsonref::readTrace(path)["traceEvents"].toArray()) {
            const QJsonObject e = v.toObject();
            if (e["cat"] == "cuda_runtime" || e["cat"] == "cuda_driver")
                if (e["args"].toObject().contains("correlation"))
                    runtimeByCorr[e["args"].toObject()["correlation"].toInt()] = e["name"].toString();
        }
        int checked = 0;
        for (uint32_t ti : s.tracksOfKind(TrackKind::Kernel)) {
            const Track &t = s.track(ti);
            for (size_t i = 0; i < t.size(); ++i) {
                auto it = runtimeByCorr.find(int(t.aux(i)));
                if (it == runtimeByCorr.end())
                    continue;
                const auto api = s.apiCallFor({ti, uint32_t(i)});
                QVERIFY(api);
                QCOMPARE(QString::fromStdString(std::string(s.name(s.track(api->track).name(api->index)))), it->second);
                ++checked;
            }
        }
        QVERIFY(checked > 0);
    }

    // Float µs since the epoch with a ns fraction (torch 2024-04): no ns is lost.
    void memorySamplesBecomeSeries()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("rank_0.memory.json");
        writeFile(path, kMemoryFixture);
        const Loaded l = readKineto(path);
        QVERIFY2(l.error.empty(), l.error.c_str());
        QCOMPARE(l.meta.memory.size(), size_t(2)); // devices 0 and 1; the CPU sample is not device memory
        const MemorySeries &d0 = l.meta.memory[0];
        QCOMPARE(d0.device, uint32_t(0));
        QCOMPARE(d0.timeNs, (std::vector<int64_t>{100'000, 110'000}));
        QCOMPARE(d0.bytes, (std::vector<int64_t>{1024, 4096}));
        QCOMPARE(d0.peakBytes(), int64_t(4096));
        QCOMPARE(l.meta.memory[1].device, uint32_t(1));
        QCOMPARE(l.meta.memory[1].bytes, std::vector<int64_t>{512});
        QCOMPARE(l.store->count(TrackKind::NvtxMark), size_t(5)); // the marks stay on the CPU thread
    }

    void nsResolution()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("ns.pt.trace.json");
        writeFile(path, kNsFixture);
        const Loaded l = readKineto(path);
        QVERIFY2(l.error.empty(), l.error.c_str());
        QCOMPARE(findDuration(*l.store, TrackKind::NvtxPushPop, "aten::mm", 1713466870123456789), int64_t(12345));
        QCOMPARE(findDuration(*l.store, TrackKind::Kernel, "gemm", 1713466870123460001), int64_t(999));
        QCOMPARE(l.store->firstStart(), int64_t(1713466870123456789));
        QCOMPARE(l.meta.utcStartNs, std::optional<int64_t>(0));
        QCOMPARE(l.meta.rank, std::optional<int>(3));
        QCOMPARE(l.meta.pids, std::vector<uint32_t>{7});
    }

    // B/E pairs, instants, string pids, a bare top-level array and flow-only correlation.
    void otherShapes()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("rank_5.bare.json");
        writeFile(path, kShapesFixture);
        const Loaded l = readKineto(path);
        QVERIFY2(l.error.empty(), l.error.c_str());
        const EventStore &s = *l.store;
        QCOMPARE(s.count(TrackKind::NvtxPushPop), size_t(2));
        QCOMPARE(findDuration(s, TrackKind::NvtxPushPop, "outer", 100000), int64_t(100000));
        QCOMPARE(findDuration(s, TrackKind::NvtxPushPop, "inner \"quoted\" \\ [x]", 110000), int64_t(10000));
        QCOMPARE(s.count(TrackKind::NvtxMark), size_t(1));
        QCOMPARE(s.count(TrackKind::Kernel), size_t(1));
        // The kernel's correlation came from the ac2g flow; it lives under the CPU process 9.
        const uint32_t kt = s.tracksOfKind(TrackKind::Kernel).front();
        QCOMPARE(s.track(kt).pid(), uint32_t(9));
        QCOMPARE(s.track(kt).deviceId(), uint32_t(1));
        QCOMPARE(s.track(kt).streamId(), uint32_t(3));
        const auto api = s.apiCallFor({kt, 0});
        QVERIFY(api);
        QCOMPARE(s.name(s.track(api->track).name(api->index)), std::string_view("cudaLaunchKernel"));
        QCOMPARE(l.meta.rank, std::optional<int>(5)); // from the file name
        QVERIFY(!l.meta.utcStartNs);                  // small µs without a base: no origin
        bool warnedCounter = false;
        for (const auto &w : l.meta.warnings)
            warnedCounter = warnedCounter || w.find("phase 'C'") != std::string::npos;
        QVERIFY(warnedCounter);
    }

    // Plain and gzipped copies of a sample read the same; the splitter's batches do not depend
    // on where blocks end.
    void plainEqualsGzipAndBlocks()
    {
        const QString gz =
            kinetoDir() + "/hta__critical_path__simple_add__benchmark_result_493459_1694039959_trace.json.gz";
        QTemporaryDir dir;
        const QString plain = dir.filePath("copy.json");
        writeFile(plain, jsonref::readMaybeGzip(gz));
        const Loaded a = readKineto(gz), b = readKineto(plain);
        QVERIFY(a.error.empty() && b.error.empty());
        QCOMPARE(a.store->eventCount(), b.store->eventCount());
        QCOMPARE(a.store->firstStart(), b.store->firstStart());
        QCOMPARE(a.store->lastEnd(), b.store->lastEnd());

        const int64_t events = jsonref::readTrace(gz)["traceEvents"].toArray().size();
        for (size_t block : {size_t(1), size_t(7), size_t(4096)}) {
            ps::core::trace::formats::ByteSource src;
            QVERIFY(src.open(gz.toStdString()).empty());
            ps::core::trace::formats::TraceEventSplitter split(block);
            int64_t n = 0;
            const std::string err = split.run(src, [&](std::string_view batch) {
                const QJsonDocument d =
                    QJsonDocument::fromJson("[" + QByteArray(batch.data(), int(batch.size())) + "]");
                n += d.array().size();
                return d.isArray();
            });
            QVERIFY2(err.empty(), err.c_str());
            QCOMPARE(n, events);
            const QJsonDocument header = QJsonDocument::fromJson(QByteArray::fromStdString(split.header()));
            QVERIFY(header.isObject());
            QVERIFY(header["traceEvents"].toArray().isEmpty());
            QCOMPARE(header["distributedInfo"]["rank"].toInt(), 0);
        }
    }

    void damaged_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<bool>("gzipped");
        QTest::addColumn<QString>("reason");
        const QByteArray good = kGoodFixture;
        QTest::newRow("truncated") << good.left(good.size() - 5) << false << "truncated";
        QTest::newRow("truncated gzip") << gzip(good).left(20) << true << "gzip";
        QTest::newRow("not json") << QByteArray("hello") << false << "not JSON";
        QTest::newRow("no events") << QByteArray(kNoEventsFixture) << false << "no traceEvents";
        QTest::newRow("bad event") << QByteArray(kBadEventFixture) << false << "malformed";
    }
    void damaged()
    {
        QFETCH(QByteArray, content);
        QFETCH(bool, gzipped);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString path = dir.filePath(gzipped ? "bad.json.gz" : "bad.json");
        writeFile(path, content);
        const Loaded l = readKineto(path);
        QVERIFY(!l.error.empty());
        QVERIFY2(QString::fromStdString(l.error).contains(reason), l.error.c_str());
        QVERIFY2(QString::fromStdString(l.error).contains(path), l.error.c_str());
    }

    void cancelled()
    {
        CancelToken cancel;
        cancel.cancel();
        const Loaded l = readKineto(kinetoDir() + "/hta__trace_filter__sampled_rank-0.json.gz", &cancel);
        QVERIFY(QString::fromStdString(l.error).contains("cancelled"));
    }

    // Through the loader: the registry picks this reader for .json.gz, identity and counts flow.
    void throughLoader()
    {
        const QString path = kinetoDir() + "/hta__trace_filter__sampled_rank-1.json.gz";
        std::string error;
        ReportPtr r = loadReport(path.toStdString(), ReadContext{}, error);
        QVERIFY2(r, error.c_str());
        QCOMPARE(r->meta.format, TraceFormat::KinetoJson);
        QVERIFY(r->store->count(TrackKind::Kernel) > 0);
        QCOMPARE(r->meta.pids.size(), size_t(1));
        QCOMPARE(r->identity.pid, std::optional<uint32_t>(r->meta.pids.front()));
    }
};

QTEST_GUILESS_MAIN(TestKinetoReader)
#include "tst_kinetoreader.moc"
