// Memory snapshots and memory-timeline exports opened through the loader as reports: their
// memory lanes, OOM and peak marks, identity beside the same rank's Kineto trace, the clock
// (wall clock: aligned by UTC with the trace; no times: aligned by start, said), the folder walk,
// the blocks live at a time, and the hostile pickle refused through the loader too. Expected
// values come from tests/formats/memoryfixtures.py (python3's own pickle), computed there.

#include "core/trace/alignment.h"
#include "core/trace/formats/torchmemoryfiles.h"
#include "core/trace/formats/torchmemoryreader.h"
#include "core/trace/memory/torchmemoryhistory.h"
#include "core/trace/read/traceloader.h"

#include "tests/support/memoryfixtures.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace ps::core::trace;

namespace {

const MemorySeries *seriesNamed(const Report &r, uint32_t device, const std::string &source)
{
    for (const MemorySeries &s : r.meta.memory)
        if (s.device == device && s.source == source)
            return &s;
    return nullptr;
}

// Names of the events of one kind, with their start times.
std::vector<std::pair<std::string, int64_t>> eventsOf(const Report &r, TrackKind kind)
{
    std::vector<std::pair<std::string, int64_t>> out;
    for (uint32_t t : r.store->tracksOfKind(kind)) {
        const Track &track = r.store->track(t);
        for (size_t i = 0; i < track.size(); ++i)
            out.emplace_back(std::string(r.store->name(track.name(i))), track.start(i));
    }
    return out;
}

LoadOptions noCache()
{
    LoadOptions o;
    o.useCache = false;
    return o;
}

bool hasWarning(const Report &r, const char *text)
{
    return std::any_of(r.meta.warnings.begin(), r.meta.warnings.end(),
                       [&](const std::string &w) { return w.find(text) != std::string::npos; });
}

} // namespace

class TestMemoryReport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir, m_beside;
    QJsonObject m_expected, m_besideExpected;

    std::string path(const QTemporaryDir &d, const char *name) const
    {
        return d.filePath(QString::fromLatin1(name)).toStdString();
    }
    ReportPtr load(const std::string &p, std::string &error) const { return loadReport(p, ReadContext{}, error); }

private slots:
    void initTestCase()
    {
        if (!ps::test::haveFixturePython())
            QSKIP("no /usr/bin/python3 to write the fixtures");
        const QString error =
            ps::test::writeBothMemoryFixtures(m_dir.path(), m_expected, m_beside.path(), m_besideExpected);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    // A snapshot opens as a torch-memory report with per device "torch allocated" (peak and its
    // time as the script counts them) and "torch reserved", a peak mark and an OOM mark per OOM.
    void snapshotLanes()
    {
        std::string error;
        const ReportPtr r = load(path(m_dir, "step3/torch_memory_rank0_pid4242.pickle"), error);
        QVERIFY2(r, error.c_str());
        QCOMPARE(r->meta.format, kTorchMemoryFormat);
        QCOMPARE(traceFormatName(r->meta.format), std::string_view("torch-memory"));
        QCOMPARE(r->meta.utcStartNs, std::optional<int64_t>(0));
        const QJsonArray devices = m_expected[QStringLiteral("step3/torch_memory_rank0_pid4242.pickle")].toArray();
        QCOMPARE(devices.size(), qsizetype(2));
        size_t oomMarks = 0;
        for (const auto &[name, t] : eventsOf(*r, TrackKind::NvtxMark))
            oomMarks += name.rfind("OOM: requested ", 0) == 0;
        size_t expectedOoms = 0;
        for (qsizetype d = 0; d < devices.size(); ++d) {
            const QJsonObject e = devices[d].toObject();
            const MemorySeries *alloc = seriesNamed(*r, uint32_t(d), "torch allocated");
            const MemorySeries *reserved = seriesNamed(*r, uint32_t(d), "torch reserved");
            QVERIFY(alloc && reserved);
            QCOMPARE(alloc->peakBytes(), e[QStringLiteral("peak_bytes")].toInteger());
            QCOMPARE(*alloc->peakTimeNs(), e[QStringLiteral("peak_time_ns")].toInteger());
            QCOMPARE(reserved->bytes.back(), e[QStringLiteral("reserved_end")].toInteger()); // the dump-time segments
            QCOMPARE(reserved->peakBytes(), e[QStringLiteral("peak_reserved")].toInteger());
            QVERIFY(reserved->peakBytes() >= alloc->peakBytes()); // the allocator reserves what it hands out
            const QJsonArray ooms = e[QStringLiteral("ooms")].toArray();
            expectedOoms += size_t(ooms.size());
            const auto marks = eventsOf(*r, TrackKind::NvtxMark);
            for (const auto &o : ooms)
                QVERIFY(std::any_of(marks.begin(), marks.end(), [&](const auto &m) {
                    return m.second == o.toArray()[0].toInteger() && m.first.rfind("OOM: ", 0) == 0;
                }));
            QVERIFY(std::any_of(marks.begin(), marks.end(), [&](const auto &m) {
                return m.second == e[QStringLiteral("peak_time_ns")].toInteger() &&
                       m.first.rfind("memory peak: ", 0) == 0;
            }));
        }
        QCOMPARE(oomMarks, expectedOoms);
        QVERIFY(r->store->lastEnd() > r->store->firstStart()); // the history range spans the trace
    }

    // One identity for a snapshot and the Kineto trace of the same rank in the same step folder,
    // and on one axis by UTC: the memory peak falls inside the range the script says it does.
    void besideTrace()
    {
        const LoadResult loaded = loadReports({m_beside.filePath(QStringLiteral("run")).toStdString()}, noCache());
        QVERIFY(loaded.failures.empty());
        QCOMPARE(loaded.reports.size(), size_t(6));
        const AlignResult aligned = alignReports(loaded.reports, AlignSpec{});
        QCOMPARE(aligned.used, AlignMode::Utc);
        for (int rank = 0; rank < 3; ++rank) {
            const QJsonObject e =
                m_besideExpected[QStringLiteral("ranks")].toObject()[QString::number(rank)].toObject();
            std::vector<size_t> of;
            for (size_t i = 0; i < loaded.reports.size(); ++i)
                if (loaded.reports[i]->identity.rank == rank)
                    of.push_back(i);
            QCOMPARE(of.size(), size_t(2));
            const auto mem = std::find_if(
                of.begin(), of.end(), [&](size_t i) { return loaded.reports[i]->meta.format == kTorchMemoryFormat; });
            QVERIFY(mem != of.end());
            const size_t m = *mem, k = of[0] == m ? of[1] : of[0];
            const ReportIdentity &a = loaded.reports[m]->identity, &b = loaded.reports[k]->identity;
            QCOMPARE(a.step, std::optional<int>(5));
            QCOMPARE(b.step, a.step);
            QCOMPARE(b.run, a.run);
            QCOMPARE(a.pid, std::optional<uint32_t>(uint32_t(700 + rank)));
            const MemorySeries *alloc = seriesNamed(*loaded.reports[m], 0, "torch allocated");
            QVERIFY(alloc);
            const int64_t peak = *alloc->peakTimeNs() + aligned.offsets[m];
            bool inside = false;
            const Report &trace = *loaded.reports[k];
            std::vector<uint32_t> ranges = trace.store->tracksOfKind(TrackKind::NvtxPushPop);
            for (uint32_t t : trace.store->tracksOfKind(TrackKind::NvtxStartEnd))
                ranges.push_back(t);
            for (uint32_t t : ranges) {
                const Track &track = trace.store->track(t);
                for (size_t i = 0; i < track.size(); ++i)
                    if (trace.store->name(track.name(i)) == e[QStringLiteral("range")].toString().toStdString())
                        inside =
                            track.start(i) + aligned.offsets[k] <= peak && peak < track.end(i) + aligned.offsets[k];
            }
            QVERIFY2(inside, qPrintable(e[QStringLiteral("range")].toString()));
        }
    }

    // Without time_us the snapshot cannot be tied to the traces' clock: no UTC origin, events 1 µs
    // apart in file order, and a warning says it opens aligned by start.
    void noTimes()
    {
        std::string error;
        const ReportPtr r = load(path(m_beside, "notimes/torch_memory_rank0_pid9.pickle"), error);
        QVERIFY2(r, error.c_str());
        QVERIFY(!r->meta.utcStartNs);
        QVERIFY(hasWarning(*r, "aligned by start"));
        const QJsonObject e = m_besideExpected[QStringLiteral("notimes")].toObject();
        const MemorySeries *alloc = seriesNamed(*r, 0, "torch allocated");
        QVERIFY(alloc);
        QCOMPARE(alloc->peakBytes(), e[QStringLiteral("peak_bytes")].toInteger());
        QCOMPARE(*alloc->peakTimeNs(), e[QStringLiteral("peak_event")].toInteger() * 1000);
        // A trace on the wall clock beside it: the session falls back to start, and says so.
        const LoadResult both = loadReports({path(m_beside, "notimes/torch_memory_rank0_pid9.pickle"),
                                             path(m_beside, "run/step5/kineto_rank0.pt.trace.json")},
                                            noCache());
        QCOMPARE(both.reports.size(), size_t(2));
        QCOMPARE(alignReports(both.reports, AlignSpec{}).used, AlignMode::Start);
    }

    // A timeline export: a total lane and one per category it uses; its times (1 ms from 0) are
    // not on the wall clock.
    void timelineLanes()
    {
        std::string error;
        const ReportPtr r = load(path(m_dir, "rank1_memory_profile.raw.json.gz"), error);
        QVERIFY2(r, error.c_str());
        QCOMPARE(r->meta.format, kTorchMemoryFormat);
        QCOMPARE(r->identity.rank, std::optional<int>(1));
        QVERIFY(hasWarning(*r, "aligned by start"));
        const QJsonObject e = m_expected[QStringLiteral("timelines")]
                                  .toObject()[QStringLiteral("rank1_memory_profile.raw.json.gz")]
                                  .toObject();
        const MemorySeries *total = seriesNamed(*r, 0, "timeline total");
        QVERIFY(total);
        QCOMPARE(total->peakBytes(), e[QStringLiteral("peak_bytes")].toInteger());
        QCOMPARE(*total->peakTimeNs(), e[QStringLiteral("peak_time_ns")].toInteger());
        const QJsonArray cats = e[QStringLiteral("categories")].toArray();
        for (size_t c = 0; c < kMemoryCategories.size(); ++c) {
            const MemorySeries *s = seriesNamed(*r, 0, "timeline " + std::string(kMemoryCategories[c]));
            if (cats[qsizetype(c)].toInteger() != 0)
                QVERIFY(s); // a category held at the peak has its lane
            if (s)
                QCOMPARE(s->bytes[size_t(s->indexAt(*total->peakTimeNs()))], cats[qsizetype(c)].toInteger());
        }
    }

    // A folder walk takes memory snapshots by name (not any pickle), and the hostile pickles fail
    // through the loader naming the file and byte, without running the command.
    void folderAndHostile()
    {
        std::vector<LoadFailure> missing;
        const std::vector<std::string> found = findReports({m_dir.path().toStdString()}, &missing);
        const auto has = [&](const char *name) {
            return std::any_of(found.begin(), found.end(), [&](const std::string &f) { return f.ends_with(name); });
        };
        QVERIFY(has("torch_memory_rank0_pid4242.pickle"));
        QVERIFY(has("rank2_memory_profile.json.gz"));
        QVERIFY(!has("small.pickle"));
        QVERIFY(!has("evil_p2.pickle"));
        std::string error;
        QVERIFY(!load(path(m_dir, "evil_p2.pickle"), error));
        QVERIFY2(error.find("evil_p2.pickle: byte ") != std::string::npos, error.c_str());
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("SENTINEL"))));
    }

    // The blocks live at a time, as a view lists them: at the peak they sum to the peak and group
    // as the script's live_at_peak; before the first event, only what predates the history.
    void liveBlocks()
    {
        MemorySnapshot s;
        QCOMPARE(readMemorySnapshot(path(m_dir, "step3/torch_memory_rank1_pid4243.pickle"), s), std::string());
        const QJsonObject e = m_expected[QStringLiteral("step3/torch_memory_rank1_pid4243.pickle")][0].toObject();
        int64_t total = 0;
        const auto live = liveBlocksAt(s, 0, e[QStringLiteral("peak_time_ns")].toInteger(), &total);
        QCOMPARE(total, e[QStringLiteral("peak_bytes")].toInteger());
        qint64 blocks = 0;
        for (const auto &g : e[QStringLiteral("live_at_peak")].toArray())
            blocks += g.toArray()[1].toInteger();
        QCOMPARE(qint64(live.size()), blocks);
        QVERIFY(std::is_sorted(live.begin(), live.end(), [](auto &a, auto &b) { return a.size > b.size; }));
        QCOMPARE(live.front().size, int64_t(600 + 37 * 3) * (1 << 20) + 3); // the largest planted activation
        // Just before the peak's event the peak's block is not yet live.
        int64_t before = 0;
        liveBlocksAt(s, 0, e[QStringLiteral("peak_time_ns")].toInteger() - 1, &before);
        QVERIFY(before < total);
        int64_t atStart = 0;
        const auto first = liveBlocksAt(s, 0, INT64_MIN, &atStart);
        QVERIFY(!first.empty());
        QVERIFY(std::none_of(first.begin(), first.end(), [](const LiveBlock &b) { return b.allocTimeNs.has_value(); }));
        const MemoryCurve c = memoryCurve(s, 0, memoryElements(s, 0));
        QCOMPARE(atStart, c.baselineBytes);
    }
};

QTEST_GUILESS_MAIN(TestMemoryReport)
#include "tst_memoryreport.moc"
