// Digests opened as outlines (core/trace/persist/reportoutline.h), as the desktop opens a large run: on
// every sample format, the outline has the report's tracks with their event counts and extents,
// and what the analyses read from its summaries equals what they compute from the events:
// nvtx_sum rows, kernel and range totals, the GPU breakdown, the phase cells, each device's busy
// time; every lane's pyramid holds all of its events at every level. A summary-only digest opens
// as an outline and refuses to give events, with the reason; a damaged section is named.

#include "core/analysis/breakdown/devicebusy.h"
#include "core/analysis/digestsummary.h"
#include "core/analysis/phases/phases.h"
#include "core/trace/alignment.h"
#include "core/trace/persist/reportoutline.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/store/storebuilder.h"
#include "core/trace/tracestats.h"
#include "tests/support/digestdamage.h"
#include "tests/support/reportload.h"
#include "tests/support/testdata.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

using namespace ps::core::trace;
using namespace ps::core::analysis;

namespace {

void compareRows(const std::vector<StatRow> &a, const std::vector<StatRow> &b)
{
    QCOMPARE(b.size(), a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(b[i].name, a[i].name);
        QCOMPARE(b[i].style, a[i].style);
        QCOMPARE(b[i].count, a[i].count);
        QCOMPARE(b[i].totalNs, a[i].totalNs);
        QCOMPARE(b[i].medNs, a[i].medNs);
        QCOMPARE(b[i].minNs, a[i].minNs);
        QCOMPARE(b[i].maxNs, a[i].maxNs);
        QCOMPARE(b[i].stddevNs, a[i].stddevNs);
    }
}

void compareBreakdowns(const GpuBreakdown &a, const GpuBreakdown &b)
{
    QCOMPARE(b.events, a.events);
    QCOMPARE(b.spanNs, a.spanNs);
    QCOMPARE(b.busyNs, a.busyNs);
    QCOMPARE(b.idleNs, a.idleNs);
    QVERIFY(b.unionNs == a.unionNs);
    QVERIFY(b.exclusiveNs == a.exclusiveNs);
    QCOMPARE(b.commCompOverlapNs, a.commCompOverlapNs);
}

// Every level of a lane's pyramid folds all of the lane's events: counts and busy time add up,
// runs ascend without overlapping, and each level has at most half the runs of the one before.
void checkPyramid(const LodPyramid &p, size_t events, int64_t busy)
{
    QCOMPARE(p.events, events);
    size_t previousRuns = SIZE_MAX;
    for (const LodLevel &l : p.levels) {
        size_t count = 0;
        int64_t sum = 0, lastEnd = std::numeric_limits<int64_t>::min();
        for (const LodRun &r : l.runs) {
            QVERIFY(r.start >= lastEnd && r.end >= r.start);
            lastEnd = r.end;
            count += r.count;
            sum += r.busy;
        }
        QCOMPARE(count, events);
        QCOMPARE(sum, busy);
        QVERIFY(2 * l.runs.size() <= previousRuns || previousRuns == SIZE_MAX);
        previousRuns = l.runs.size();
    }
}

void checkTrackPyramids(const EventStore &store, const std::vector<std::vector<LodPyramid>> &pyramids)
{
    QCOMPARE(pyramids.size(), store.tracks().size());
    for (uint32_t ti = 0; ti < store.tracks().size(); ++ti) {
        const Track &t = store.track(ti);
        QCOMPARE(pyramids[ti].size(), std::min<size_t>(t.levelCount(), kMaxPyramidLanes));
        for (size_t l = 0; l < pyramids[ti].size(); ++l) {
            size_t events = 0;
            int64_t busy = 0;
            for (size_t i = 0; i < t.size(); ++i)
                if (t.level(i) == l) {
                    ++events;
                    busy += t.duration(i);
                }
            checkPyramid(pyramids[ti][l], events, busy);
        }
    }
}

} // namespace

class TestDigestOutline : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

    std::string digestOf(const ReportPtr &r, const QString &name, bool summaryOnly)
    {
        DigestOptions options;
        options.summaryOnly = summaryOnly;
        const std::string path = m_tmp.filePath(name).toStdString() + std::string(kDigestSuffix);
        const std::string error = writeDigestWithSummaries(*r, path, options);
        return error.empty() ? path : std::string();
    }

private slots:
    void everySampleFormat_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString &f : ps::test::sampleReports())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }

    void everySampleFormat()
    {
        QFETCH(QString, path);
        const ReportPtr source = ps::test::loadTestReport(path);
        QVERIFY(source);
        const std::string digest = digestOf(source, QFileInfo(path).fileName(), true);
        QVERIFY(!digest.empty());
        std::string error;
        const ReportPtr outline = readDigestOutline(digest, error);
        QVERIFY2(outline && outline->outline, error.c_str());
        const ReportOutline &o = *outline->outline;
        QVERIFY(!o.hasEvents);
        QVERIFY(!outline->store); // no events here: the report says so
        QCOMPARE(outline->layout().eventCount(), size_t(0));
        QCOMPARE(o.eventCount, source->store->eventCount());
        QCOMPARE(o.firstStart, source->store->firstStart());
        QCOMPARE(o.lastEnd, source->store->lastEnd());
        QCOMPARE(outline->layout().tracks().size(), source->store->tracks().size());
        for (uint32_t ti = 0; ti < source->store->tracks().size(); ++ti) {
            const Track &a = source->store->track(ti), &b = outline->layout().track(ti);
            QVERIFY(a.key() == b.key());
            QCOMPARE(b.levelCount(), a.levelCount());
            QCOMPARE(o.tracks[ti].events, a.size());
            QCOMPARE(o.tracks[ti].firstStart, a.firstStart());
            QCOMPARE(o.tracks[ti].lastEnd, a.lastEnd());
        }
        QCOMPARE(outline->identity.group, source->identity.group);
        QCOMPARE(outline->identity.rank, source->identity.rank);

        const std::span<const ReportPtr> src(&source, 1), out(&outline, 1);
        compareRows(summarize(src, StatsKind::NvtxSum).overall, summarize(out, StatsKind::NvtxSum).overall);
        for (StatsKind k : {StatsKind::NvtxSum, StatsKind::KernelSum})
            QVERIFY(totalsByName(src, k) == totalsByName(out, k));
        const auto whole = wholeBreakdown(*outline, error);
        QVERIFY2(whole, error.c_str());
        compareBreakdowns(computeBreakdown(*source->store), *whole);

        const ReportPhaseCells a = phaseCellsOf(*source, PhaseMapping::defaults());
        const ReportPhaseCells b =
            reportPhaseCells(*outline, PhaseMapping::defaults(), error).value_or(ReportPhaseCells{});
        QCOMPARE(b.cells.size(), a.cells.size());
        for (const auto &[key, cell] : a.cells) {
            QCOMPARE(b.cells.at(key).wallNs, cell.wallNs);
            compareBreakdowns(cell.gpu, b.cells.at(key).gpu);
        }

        error.clear();
        checkTrackPyramids(*source->store, trackPyramidsOf(*outline, error).value_or(TrackPyramids{}));
        QVERIFY2(error.empty(), error.c_str());
        const std::vector<DeviceBusy> busy = deviceBusy(*source->store);
        const std::vector<DeviceBusyPyramid> pyramids = deviceBusyPyramids(*outline, error);
        QCOMPARE(pyramids.size(), busy.size());
        for (size_t d = 0; d < busy.size(); ++d) {
            QCOMPARE(pyramids[d].device, busy[d].device());
            // The same busy time; touching intervals may be one or two, as the union is made.
            checkPyramid(pyramids[d].pyramid, pyramids[d].pyramid.events, busy[d].totalBusy());
        }
    }

    // Aligning outlines puts them where their reports go: at their first events, and at the K-th
    // occurrence of a range (from the digests' range occurrences).
    void outlinesAlignAsTheirReports()
    {
        std::vector<ReportPtr> sources, outlines;
        for (const QString &f : ps::test::nsysFiles()) {
            const ReportPtr r = ps::test::loadTestReport(f);
            if (r->store->count(TrackKind::NvtxPushPop) == 0 || sources.size() == 3)
                continue; // samples with ranges to align by
            sources.push_back(r);
            std::string error;
            outlines.push_back(readDigestOutline(digestOf(sources.back(), QFileInfo(f).fileName(), true), error));
            QVERIFY2(outlines.back(), error.c_str());
        }
        AlignSpec start;
        start.mode = AlignMode::Start;
        QVERIFY(alignReports(outlines, start).offsets == alignReports(sources, start).offsets);
        QCOMPARE(sources.size(), size_t(3));
        // The second range of the first sample, by its text (as the align spec names it).
        const Track &ranges =
            sources.front()->store->track(sources.front()->store->tracksOfKind(TrackKind::NvtxPushPop).front());
        AlignSpec range;
        range.mode = AlignMode::Range;
        range.anchor = RangeAnchor{std::string(sources.front()->store->name(ranges.name(ranges.size() > 1))), 1};
        const AlignResult a = alignReports(sources, range), b = alignReports(outlines, range);
        QVERIFY(b.offsets == a.offsets);
        QCOMPARE(int(b.used), int(a.used));
    }

    void summaryOnlyHasNoEvents()
    {
        const ReportPtr source = ps::test::loadTestReport(ps::test::nsysDir() + "/ppcu-lab7__report1.sqlite");
        const std::string summary = digestOf(source, "summary.sqlite", true);
        const std::string full = digestOf(source, "full.sqlite", false);
        std::string error;
        QVERIFY(!readDigest(summary, error));
        QVERIFY2(error.find("summary-only") != std::string::npos, error.c_str());
        QVERIFY(QString::fromStdString(error).startsWith(QString::fromStdString(summary)));
        const ReportPtr withEvents = readDigestOutline(full, error);
        QVERIFY(withEvents && withEvents->outline->hasEvents);
        QVERIFY(readDigest(full, error));
        QVERIFY(QFileInfo(QString::fromStdString(summary)).size() < QFileInfo(QString::fromStdString(full)).size());
    }

    // A large section stays in the file until it is drawn; if the digest changes meanwhile, reading
    // it fails with the file and the section named, rather than drawing something else.
    void largeSectionsAreReadBackChecked()
    {
        StoreBuilder b;
        const TrackHandle k = b.track({TrackKind::Kernel, 7, 13, 0});
        const NameId names[] = {b.intern("gemm"), b.intern("softmax"), b.intern("nccl")};
        int64_t t = 0;
        for (uint32_t i = 0; i < 300000; ++i, t += 3000 + (i * 7919) % 5000)
            b.add(k, t, t + 1000 + (i * 104729) % 1500, names[i % 3], i + 1, kNoLaunchConfig);
        auto r = std::make_shared<Report>();
        r->path = m_tmp.filePath("big.sqlite").toStdString();
        r->store = std::make_shared<EventStore>(std::move(b).build());
        const std::string path = digestOf(r, "big.sqlite", true);
        std::string error;
        const ReportPtr outline = readDigestOutline(path, error);
        QVERIFY2(outline, error.c_str());
        const StoredSection *pyramids = outline->outline->stored("PYRD");
        QVERIFY(pyramids && pyramids->inFile && pyramids->bytes.empty());
        QCOMPARE(trackPyramidsOf(*outline, error).value_or(TrackPyramids{}).size(), size_t(1));
        QVERIFY2(error.empty(), error.c_str());
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadWrite));
        f.seek(qint64(pyramids->offset + 10));
        f.write("XXXX");
        f.close();
        QVERIFY(trackPyramidsOf(*outline, error).value_or(TrackPyramids{}).empty());
        QVERIFY2(error.find(path) == 0 && error.find("PYRD") != std::string::npos &&
                     error.find("changed") != std::string::npos,
                 error.c_str());
    }

    // The pyramid and track-table decoders take any bytes (what a digest holds after its checksum,
    // e.g. from a hostile writer): cut short, huge counts or disordered runs are refused, and
    // nothing is read or allocated past the bytes.
    void hostilePyramidBytesAreRefused()
    {
        LodPyramidBuilder b(0, 1'000'000, 1000);
        for (int64_t i = 0; i < 1000; ++i)
            b.add(i * 1000, i * 1000 + 400, NameId(i % 7));
        std::string good;
        appendPyramid(good, b.finish());
        std::string error;
        for (size_t cut = 0; cut < good.size(); cut += 1 + cut / 3) { // every prefix is refused
            size_t pos = 0;
            LodPyramid p;
            QVERIFY(!readPyramid(std::string_view(good).substr(0, cut), pos, p, error));
        }
        std::string huge = good;
        const uint64_t manyRuns = uint64_t(1) << 60;
        std::memcpy(huge.data() + 24, &manyRuns, sizeof manyRuns); // the first level's run count
        size_t pos = 0;
        LodPyramid p;
        QVERIFY(!readPyramid(huge, pos, p, error));
        std::mt19937_64 rng(5);
        for (int i = 0; i < 2000; ++i) { // random bytes: refused or read within bounds (ASan checks)
            std::string junk = good;
            for (int k = 0; k < 4; ++k)
                junk[rng() % junk.size()] = char(rng());
            pos = 0;
            if (readPyramid(junk, pos, p, error))
                QVERIFY(pos <= junk.size());
        }
        std::vector<TrackExtent> extents;
        QVERIFY(!decodeTrackExtents(std::string_view("\xff\xff\xff\xff\xff\xff\xff\x7f", 8), extents, error));
    }

    // A flipped byte inside a section fails the open with that section named.
    void damagedSectionIsNamed()
    {
        const ReportPtr source = ps::test::loadTestReport(ps::test::nsysDir() + "/ppcu-lab7__report1.sqlite");
        const std::string path = digestOf(source, "damaged.sqlite", true);
        QCOMPARE(ps::test::flipSectionByte(QString::fromStdString(path), "PYRD", 5), 1);
        std::string error;
        QVERIFY(!readDigestOutline(path, error));
        QVERIFY2(error.find("PYRD") != std::string::npos && error.find(path) == 0, error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestDigestOutline)
#include "tst_digestoutline.moc"
