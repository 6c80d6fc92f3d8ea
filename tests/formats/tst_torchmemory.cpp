// The readers of PyTorch's memory records: CUDA memory snapshots (written by Python's pickle at
// protocols 2 and 4 in the shape torch writes them, tests/formats/memoryfixtures.py) and the
// memory-timeline exports; identity from verl's and the Ray tutorial's file names.

#include "core/trace/formats/torchmemoryfiles.h"

#include "tests/support/memoryfixtures.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <map>
#include <set>

using namespace ps::core::trace;

namespace {
template <size_t N> std::string bytesOf(const char (&s)[N])
{
    return std::string(s, N - 1);
}
} // namespace

class TestTorchMemory : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QJsonObject m_expected;
    QString m_bombEntry;

    std::string path(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)).toStdString(); }

private slots:
    void initTestCase()
    {
        if (!ps::test::haveFixturePython())
            QSKIP("no /usr/bin/python3 to write the fixtures");
        QString error;
        QVERIFY2(
            ps::test::writeMemoryFixtures(m_dir.path(), m_dir.filePath(QStringLiteral("SENTINEL")), m_expected, error),
            qPrintable(QStringLiteral("fixtures not written: ") + error));
    }

    // Everything the snapshot holds is read: segments with blocks, per-device traces with every
    // action, frames (shared lists deduplicated), streams, times, allocator settings.
    void snapshotContents()
    {
        MemorySnapshot s;
        QCOMPARE(readMemorySnapshot(path("step3/torch_memory_rank0_pid4242.pickle"), s), std::string());
        QCOMPARE(s.traces.size(), size_t(2));
        // Per device, the segments and blocks the script dumped, device 0's first, and the total
        // size reserved at the dump.
        const QJsonArray devices = m_expected[QStringLiteral("step3/torch_memory_rank0_pid4242.pickle")].toArray();
        std::map<int64_t, std::array<int64_t, 3>> perDevice; // segments, blocks, bytes
        for (const MemSegment &seg : s.segments) {
            auto &[segments, blocks, bytes] = perDevice[seg.device];
            ++segments;
            blocks += seg.blockCount;
            bytes += seg.totalSize;
            QCOMPARE(seg.type, std::string("large"));
        }
        QCOMPARE(perDevice.size(), size_t(2));
        for (qsizetype d = 0; d < devices.size(); ++d) {
            const QJsonObject e = devices[d].toObject();
            QCOMPARE(perDevice[d][0], e[QStringLiteral("segments")].toInteger());
            QCOMPARE(perDevice[d][1], e[QStringLiteral("blocks")].toInteger());
            QCOMPARE(perDevice[d][2], e[QStringLiteral("reserved_end")].toInteger());
        }
        QCOMPARE(s.segments.front().device, int64_t(0));
        QCOMPARE(s.segments.back().device, int64_t(1));
        std::set<MemAction> actions;
        for (const auto &e : s.traces[0])
            actions.insert(e.action);
        for (MemAction a :
             {MemAction::Alloc, MemAction::FreeRequested, MemAction::FreeCompleted, MemAction::SegmentAlloc,
              MemAction::SegmentFree, MemAction::SegmentMap, MemAction::Snapshot, MemAction::Oom})
            QVERIFY2(actions.count(a), memActionName(a).data());
        const MemTraceEntry &first = s.traces[0].front();
        QCOMPARE(first.action, MemAction::SegmentAlloc);
        QCOMPARE(first.addr, uint64_t(0x7F0000000000));
        QVERIFY(first.timeUs > 1700000000000000);
        QVERIFY(s.streams.size() == 2 && (s.streams[1] == 94558428323344 || s.streams[0] == 94558428323344));
        // Six distinct tracebacks in the file (plus the empty one), frames by name/file/line.
        QCOMPARE(s.stackCount(), size_t(7));
        const auto [frames, n] = s.stack(first.stack);
        QCOMPARE(n, size_t(1));
        QCOMPARE(s.frames[frames[0]].name, std::string("forward"));
        QCOMPARE(s.frames[frames[0]].file, std::string("/app/model.py"));
        QCOMPARE(s.frames[frames[0]].line, int64_t(10));
        const MemTraceEntry *oom = nullptr;
        for (const auto &e : s.traces[1])
            if (e.action == MemAction::Oom)
                oom = &e;
        QVERIFY(oom);
        QCOMPARE(oom->size, int64_t(8) * (1 << 30) + 1);
        QCOMPARE(oom->addr, uint64_t(3) * (1 << 30) + 5);
        std::map<std::string, std::string> settings(s.allocatorSettings.begin(), s.allocatorSettings.end());
        QCOMPARE(settings["PYTORCH_CUDA_ALLOC_CONF"], std::string("expandable_segments:False"));
        QCOMPARE(settings["max_split_size"], std::string("-1"));
        QCOMPARE(settings["expandable_segments"], std::string("False"));
        QCOMPARE(settings["roundup_power2_divisions"], std::string("{1: 0, 2: 0}"));
    }

    // Protocol 2 (as the TorchScript pickler writes) reads the same way.
    void protocol2()
    {
        MemorySnapshot s;
        QCOMPARE(readMemorySnapshot(path("step3/torch_memory_rank1_pid4243.pickle"), s), std::string());
        QCOMPARE(s.traces.size(), size_t(1));
        QVERIFY(s.traces[0].size() > 400);
        QCOMPARE(s.identity.rank, std::optional<int>(1));
        QCOMPARE(s.identity.pid, std::optional<uint32_t>(4243));
        QCOMPARE(s.identity.step, std::optional<int>(3));
    }

    // More entries than the reader converts between two releases of the document's arena
    // (65536): every entry still reads back exactly, at protocols 2 and 4.
    void largeTraceReleasesArena()
    {
        for (const char *protocol : {"2", "4"}) {
            const QString file = m_dir.filePath(QStringLiteral("large_p%1.pickle").arg(QLatin1String(protocol)));
            QProcess p;
            p.start(QString::fromLatin1(ps::test::kFixturePython),
                    {QStringLiteral(PS_SOURCE_DIR "/tests/bench/formats/makememorysnapshot.py"), file,
                     QStringLiteral("150000"), QLatin1String(protocol)});
            QVERIFY(p.waitForFinished(300000) && p.exitCode() == 0);
            const QJsonObject sums = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
            MemorySnapshot s;
            QCOMPARE(readMemorySnapshot(file.toStdString(), s), std::string());
            QCOMPARE(s.traces.size(), size_t(1));
            int64_t size = 0, frames = 0;
            uint64_t addr = 0, time = 0;
            for (const MemTraceEntry &e : s.traces[0]) {
                size += e.size;
                addr += e.addr;
                time += uint64_t(e.timeUs);
                frames += int64_t(s.stack(e.stack).second);
            }
            QCOMPARE(qint64(s.traces[0].size()), sums[QStringLiteral("entries")].toInteger());
            QCOMPARE(size, sums[QStringLiteral("size_sum")].toInteger());
            QCOMPARE(int64_t(addr % (uint64_t(1) << 63)), sums[QStringLiteral("addr_sum")].toInteger());
            QCOMPARE(int64_t(time % (uint64_t(1) << 63)), sums[QStringLiteral("time_sum")].toInteger());
            QCOMPARE(frames, sums[QStringLiteral("frames_sum")].toInteger());
        }
    }

    // The memo bomb: a 400 KB file that shares one list of 200 000 references to one entry 1000
    // times is 2 * 10^8 entries expanded. Each record is converted once: the second reference is
    // refused where it stands, at once and at memory in proportion to the file. The same for a list
    // of distinct entries shared between devices, and for a block shared between segments.
    void memoSharedRecordsRefused_data()
    {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QString>("where");
        const QString e = QStringLiteral("{'action': 'alloc', 'addr': 1, 'size': 512, 'stream': 0, 'time_us': 1}");
        QTest::newRow("one entry, shared") << QStringLiteral("{'segments': [], 'device_traces': [[e]*200000]*1000}")
                                           << QStringLiteral("device_traces[0][1]");
        QTest::newRow("one trace, shared")
            << QStringLiteral("{'segments': [], 'device_traces': [[dict(e, addr=i) for i in range(1000)]]*500}")
            << QStringLiteral("device_traces[1]:");
        QTest::newRow("one block, shared")
            << QStringLiteral("{'segments': [{'address': 0, 'total_size': 4096, 'blocks': [{'size': 4096}]*100}]}")
            << QStringLiteral("segments[0].blocks[1]");
        QTest::newRow("one segment, shared")
            << QStringLiteral("{'segments': [{'address': 0, 'total_size': 4096, 'blocks': []}]*100}")
            << QStringLiteral("segments[1]");
        m_bombEntry = e;
    }
    void memoSharedRecordsRefused()
    {
        QFETCH(QString, expr);
        QFETCH(QString, where);
        const QString file = m_dir.filePath(QStringLiteral("bomb.pickle"));
        QProcess p;
        p.start(QString::fromLatin1(ps::test::kFixturePython),
                {QStringLiteral("-c"),
                 QStringLiteral("import pickle,sys\ne = %1\n"
                                "pickle.dump(%2, open(sys.argv[1], 'wb'), protocol=4)")
                     .arg(m_bombEntry, expr),
                 file});
        QVERIFY(p.waitForFinished(60000) && p.exitCode() == 0);
        QVERIFY(QFileInfo(file).size() < 1 << 20);
        QElapsedTimer clock;
        clock.start();
        MemorySnapshot s;
        const std::string error = readMemorySnapshot(file.toStdString(), s);
        QVERIFY2(error.find(file.toStdString() + ": " + where.toStdString()) == 0, error.c_str());
        QVERIFY2(error.find("shared through the pickle's memo") != std::string::npos, error.c_str());
        size_t entries = 0;
        for (const auto &t : s.traces)
            entries += t.size();
        QVERIFY2(entries <= 1000 && s.blocks.size() <= 1 && s.segments.size() <= 1, qPrintable(expr));
        QVERIFY2(clock.elapsed() < 20000, "refused at once, not after converting every reference");
    }

    // Sizes no device has are refused where they are, never summed into an 8 EiB peak: one
    // INT64_MAX block, a segment field past 16 TiB, and many legal sizes that add up to more
    // than 1 PiB live at once.
    void absurdSizesRefused_data()
    {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QString>("where");
        const QString alloc = QStringLiteral("{'action': 'alloc', 'addr': i, 'size': %1, 'stream': 0, 'time_us': i}");
        QTest::newRow("INT64_MAX alloc")
            << QStringLiteral("{'segments': [], 'device_traces': [[%1 for i in range(3)]]}").arg(alloc.arg("2**63-1"))
            << QStringLiteral("device_traces[0][0]: 'size' out of range");
        QTest::newRow("segment's allocated_size")
            << QStringLiteral(
                   "{'segments': [{'address': 0, 'total_size': 4096, 'allocated_size': 2**62, 'blocks': []}]}")
            << QStringLiteral("segments[0]: 'allocated_size' out of range");
        QTest::newRow("8 TiB blocks, 200 live")
            << QStringLiteral("{'segments': [], 'device_traces': [[%1 for i in range(200)]]}").arg(alloc.arg("2**43"))
            << QStringLiteral("device_traces[0][128]: the trace's sizes add up to more than 1 PiB");
        QTest::newRow("segments past 1 PiB")
            << QStringLiteral("{'segments': [{'address': i, 'total_size': 2**43, 'blocks': []} for i in range(200)]}")
            << QStringLiteral("segments[128]: the device's segments reserve more than 1 PiB");
    }
    void absurdSizesRefused()
    {
        QFETCH(QString, expr);
        QFETCH(QString, where);
        const QString file = m_dir.filePath(QStringLiteral("absurd.pickle"));
        QProcess p;
        p.start(QString::fromLatin1(ps::test::kFixturePython),
                {QStringLiteral("-c"),
                 QStringLiteral("import pickle,sys\npickle.dump(%1, open(sys.argv[1], 'wb'))").arg(expr), file});
        QVERIFY(p.waitForFinished(60000) && p.exitCode() == 0);
        MemorySnapshot s;
        const std::string error = readMemorySnapshot(file.toStdString(), s);
        QVERIFY2(error.find(file.toStdString() + ": " + where.toStdString()) == 0, error.c_str());
    }

    // A gzip bomb named as a memory timeline: refused once it inflates past its bound (128x its
    // size, at least 256 MiB), not after 4 GiB.
    void gzipBombRefused()
    {
        const QString file = m_dir.filePath(QStringLiteral("bomb_memory.raw.json.gz"));
        QProcess p;
        p.start(QString::fromLatin1(ps::test::kFixturePython),
                {QStringLiteral("-c"),
                 QStringLiteral("import gzip,sys\nf = gzip.open(sys.argv[1], 'wb', 9)\n"
                                "f.write(b'[')\n[f.write(b' ' * (1 << 24)) for _ in range(24)]\n"
                                "f.write(b']')\nf.close()"),
                 file});
        QVERIFY(p.waitForFinished(120000) && p.exitCode() == 0);
        QVERIFY(QFileInfo(file).size() < 4 << 20);
        MemoryTimeline t;
        const std::string error = readMemoryTimeline(file.toStdString(), t);
        QVERIFY2(error.find(file.toStdString() + ": more than 256 MiB of JSON once decompressed") == 0, error.c_str());
        QVERIFY2(error.find("gzip bomb") != std::string::npos, error.c_str());
    }

    void identity()
    {
        const auto v = memoryFileIdentity("/o/profile/step12/torch_memory_rank7_pid99.pickle");
        QCOMPARE(v.rank, std::optional<int>(7));
        QCOMPARE(v.step, std::optional<int>(12));
        QCOMPARE(v.pid, std::optional<uint32_t>(99));
        const auto t = memoryFileIdentity("/mnt/cluster_storage/run/rank3_advanced_memory_profile.raw.json.gz");
        QCOMPARE(t.rank, std::optional<int>(3));
        QVERIFY(!t.step);
        QVERIFY(!memoryFileIdentity("/x/20260101-1200/torch_memory_rank1_pid2.pickle").step);
        QCOMPARE(memoryFileKind("a/rank0_memory_profile.html"), MemoryFileKind::TimelineHtml);
        QCOMPARE(memoryFileKind("a/rank0_memory_profile.json.gz"), MemoryFileKind::Timeline);
        QCOMPARE(memoryFileKind("a/torch_memory_rank0_pid1.pickle"), MemoryFileKind::Snapshot);
        QCOMPARE(memoryFileKind("a/rank0.pt.trace.json"), MemoryFileKind::NotMemory);
    }

    // Both timeline exports: running totals per category in _CATEGORY_TO_INDEX order, PREEXISTING
    // rows (t = -1) counted from the earliest time.
    void timelines()
    {
        const QJsonObject exp = m_expected[QStringLiteral("timelines")].toObject();
        for (const char *name : {"rank1_memory_profile.raw.json.gz", "rank2_memory_profile.json.gz"}) {
            MemoryTimeline t;
            QCOMPARE(readMemoryTimeline(path(name), t), std::string());
            QCOMPARE(t.raw, QByteArray(name).contains(".raw."));
            const QJsonObject e = exp[QString::fromLatin1(name)].toObject();
            int64_t best = -1;
            size_t at = 0;
            for (size_t i = 0; i < t.bytes.size(); ++i) {
                int64_t sum = 0;
                for (int64_t v : t.bytes[i])
                    sum += v;
                if (sum > best)
                    best = sum, at = i;
            }
            QCOMPARE(best, e[QStringLiteral("peak_bytes")].toInteger());
            QCOMPARE(t.timeNs[at], e[QStringLiteral("peak_time_ns")].toInteger());
            const QJsonArray cats = e[QStringLiteral("categories")].toArray();
            for (size_t c = 0; c < 8; ++c)
                QCOMPARE(t.bytes[at][c], cats[qsizetype(c)].toInteger());
        }
        QCOMPARE(kMemoryCategories[0], std::string_view("PARAMETER"));
        QCOMPARE(kMemoryCategories[7], std::string_view("unknown"));
    }

    void htmlRefused()
    {
        const std::string p = path("rank0_memory_profile.html");
        QFile f(QString::fromStdString(p));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("<html><img src=\"data:image/png;base64,AAAA\"></html>");
        f.close();
        MemoryTimeline t;
        const std::string e = readMemoryTimeline(p, t);
        QVERIFY2(e.find(p) == 0 && e.find("picture") != std::string::npos &&
                     e.find(".raw.json.gz") != std::string::npos,
                 e.c_str());
    }

    // Pickles that would run a shell command on load: refused, with file and offset, and the
    // command never ran.
    void evilRefused()
    {
        for (const char *name : {"evil_p2.pickle", "evil_p4.pickle"}) {
            MemorySnapshot s;
            const std::string e = readMemorySnapshot(path(name), s);
            QVERIFY2(e.find(path(name) + ": byte ") == 0 && e.find("GLOBAL") != std::string::npos, e.c_str());
        }
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("SENTINEL"))));
    }

    void schemaErrors()
    {
        const std::string p = path("bad.pickle");
        auto write = [&](const std::string &bytes) {
            QFile f(QString::fromStdString(p));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(bytes.data(), qint64(bytes.size()));
        };
        MemorySnapshot s;
        write(bytesOf("\x80\x04K\x01.")); // the int 1
        QVERIFY(readMemorySnapshot(p, s).find("not a memory snapshot") != std::string::npos);
        // {'device_traces': [[{'action': 'alloc', 'size': 'x'}]]}
        write(bytesOf("\x80\x04}\x8c\x0d"
                      "device_traces]]}(\x8c\x06"
                      "action\x8c\x05"
                      "alloc\x8c\x04sizeX\x01\x00\x00\x00xuaas."));
        const std::string e = readMemorySnapshot(p, s);
        QVERIFY2(e == p + ": device_traces[0][0]: 'size' is not a 64-bit int", e.c_str());
        // A trace list that contains itself: an error, not a hang.
        write(bytesOf("\x80\x04}\x8c\x0d"
                      "device_traces]\x94h\x00\x61s."));
        QVERIFY(readMemorySnapshot(p, s).find("device_traces[0]") != std::string::npos);
        QVERIFY(readMemorySnapshot(path("nonexistent.pickle"), s).find("cannot read") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestTorchMemory)
#include "tst_torchmemory.moc"
