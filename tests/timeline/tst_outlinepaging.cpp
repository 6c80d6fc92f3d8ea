// A report opened from its digest as an outline, on the timeline: its lanes drawn from the
// pyramids cover the pixels its events cover, at the whole range and zoomed in, without paging;
// zoomed past the pyramids, the canvas asks for the events, the pager loads them in the
// background, and the report with its events comes back; more reports than the pager keeps page
// the least recently drawn out.

#include "core/analysis/digestsummary.h"
#include "core/trace/persist/digest.h"
#include "core/trace/persist/reportoutline.h"
#include "core/trace/store/storebuilder.h"
#include "views/scene/preparedreport.h"
#include "views/scene/timelinescene.h"
#include "views/timeline/lodfolder.h"
#include "views/timeline/reportpager.h"
#include "views/timeline/timelinecanvas.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <random>
#include <set>

using namespace ps::core::trace;
using namespace ps::views;

namespace {

// Kernels in bursts on one stream (20 k over about 2 s by default), as a training step's GPU lane
// looks.
ReportPtr kernelReport(const std::string &path, uint64_t seed, int kernels = 20000)
{
    std::mt19937_64 rng(seed);
    StoreBuilder b;
    const TrackHandle k = b.track({TrackKind::Kernel, 7, 13, 0});
    const NameId names[] = {b.intern("gemm"), b.intern("nccl_allreduce"), b.intern("softmax")};
    int64_t t = 1'000'000;
    for (int i = 0; i < kernels; ++i) {
        t += i % 500 == 0 ? 20'000'000 : int64_t(rng() % 40'000);
        const int64_t d = 1'000 + int64_t(rng() % 60'000);
        b.add(k, t, t + d, names[rng() % 3], uint32_t(i + 1), kNoLaunchConfig);
        t += d;
    }
    auto r = std::make_shared<Report>();
    r->path = path;
    r->store = std::make_shared<EventStore>(std::move(b).build());
    return r;
}

std::set<int> coveredColumns(const std::vector<LodMark> &marks)
{
    std::set<int> columns;
    for (const LodMark &m : marks)
        for (int x = int(std::floor(m.x0)); x < int(std::ceil(m.x1)); ++x)
            columns.insert(x);
    return columns;
}

} // namespace

class TestOutlinePaging : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

    ReportPtr outlineOf(const ReportPtr &source)
    {
        const std::string digest = source->path + std::string(kDigestSuffix);
        if (!ps::core::analysis::writeDigestWithSummaries(*source, digest).empty())
            return nullptr;
        std::string error;
        return readDigestOutline(digest, error);
    }

private slots:
    // At any zoom the pyramids serve, the pyramid's marks cover the pixel columns the events'
    // marks cover, give or take the column each fold may round into.
    void pyramidCoversWhatEventsCover()
    {
        const ReportPtr source = kernelReport(m_tmp.filePath("a.sqlite").toStdString(), 1);
        const ReportPtr outline = outlineOf(source);
        QVERIFY(outline);
        std::string error;
        const auto pyramids = trackPyramidsOf(*outline, error).value_or(TrackPyramids{});
        const LodPyramid &p = pyramids[0][0];
        const Track &t = source->store->track(0);
        const int64_t first = t.firstStart(), span = t.lastEnd() - first;
        int zooms = 0;
        for (int64_t divisor = 1;; divisor *= 2, ++zooms) {
            const TimeMapping m({first, first + span / divisor}, 1200);
            const LodLevel *level = p.levelFor(double(span / divisor) / 1200);
            if (!level)
                break; // past the pyramid: the events are paged in (below)
            std::vector<LodMark> fromEvents, fromPyramid;
            foldLane(LaneView{&t, {}}, m, 0, fromEvents);
            foldPyramidLevel(*level, m, 0, fromPyramid);
            const std::set<int> a = coveredColumns(fromEvents), b = coveredColumns(fromPyramid);
            for (int x : a)
                QVERIFY2(b.count(x) || b.count(x - 1) || b.count(x + 1), qPrintable(QString::number(x)));
            for (int x : b)
                QVERIFY2(a.count(x) || a.count(x - 1) || a.count(x + 1), qPrintable(QString::number(x)));
        }
        QVERIFY(zooms >= 2); // the whole range, and deeper where the lane is sparse enough
    }

    void zoomingPastThePyramidPagesEventsIn()
    {
        const ReportPtr source = kernelReport(m_tmp.filePath("b.sqlite").toStdString(), 2);
        const ReportPtr outline = outlineOf(source);
        QVERIFY(outline);
        const PreparedReportPtr prepared = PreparedReport::prepare(outline);
        TimelineCanvas canvas;
        canvas.resize(1200, 400);
        canvas.document()->pager()->setUseCache(false);
        canvas.setScene(std::make_shared<TimelineScene>(buildScene({prepared}, {})));
        QImage image(canvas.size(), QImage::Format_ARGB32_Premultiplied);
        const auto paint = [&] {
            QPainter p(&image);
            canvas.paintTo(p);
        };
        QSignalSpy paged(canvas.document()->pager(), &ReportPager::pagedIn);
        paint(); // the whole range: from the pyramids
        QVERIFY(canvas.lastMarkCount() > 0);
        QCOMPARE(canvas.document()->pager()->pagedCount(), size_t(0));
        const int64_t mid = (source->store->firstStart() + source->store->lastEnd()) / 2;
        canvas.setWindow({mid, mid + 20'000});
        paint(); // 17 ns per pixel: finer than any pyramid level
        QCOMPARE(canvas.document()->pager()->pagedCount(), size_t(1));
        QVERIFY(paged.wait(10000));
        const auto events = paged.at(0).at(1).value<PreparedReportPtr>();
        QVERIFY(!events->isOutline());
        QCOMPARE(events->store().eventCount(), source->store->eventCount());
        QCOMPARE(events->report().path, outline->path);
    }

    // Pyramids that can no longer be read (the digest changed after it was opened) are drawn empty
    // and said: the canvas reports the file and the section.
    void unreadablePyramidsAreReported()
    {
        const ReportPtr source = kernelReport(m_tmp.filePath("d.sqlite").toStdString(), 4, 300000);
        const ReportPtr outline = outlineOf(source);
        QVERIFY(outline);
        const StoredSection *pyramids = outline->outline->stored("PYRD");
        QVERIFY(pyramids && pyramids->inFile); // large enough to be read when drawn
        QFile f(QString::fromStdString(outline->path));
        QVERIFY(f.open(QIODevice::ReadWrite));
        f.seek(qint64(pyramids->offset + 8));
        f.write("XXXX");
        f.close();
        TimelineCanvas canvas;
        canvas.resize(1200, 400);
        canvas.setScene(std::make_shared<TimelineScene>(buildScene({PreparedReport::prepare(outline)}, {})));
        QSignalSpy problem(&canvas, &TimelineCanvas::drawingProblem);
        QImage image(canvas.size(), QImage::Format_ARGB32_Premultiplied);
        QPainter p(&image);
        canvas.paintTo(p);
        p.end();
        QVERIFY(problem.wait(5000));
        const QString why = problem.at(0).at(0).toString();
        QVERIFY2(why.startsWith(QString::fromStdString(outline->path)) && why.contains("PYRD"), qPrintable(why));
    }

    // With more outlines zoomed into than the pager keeps, the least recently drawn go out.
    void pagerKeepsABoundedNumber()
    {
        ReportPager pager;
        pager.setUseCache(false);
        QSignalSpy in(&pager, &ReportPager::pagedIn), out(&pager, &ReportPager::pagedOut);
        const size_t n = ReportPager::kMaxPaged + 2;
        for (size_t i = 0; i < n; ++i) {
            pager.beginFrame();
            const ReportPtr outline =
                outlineOf(kernelReport(m_tmp.filePath(QStringLiteral("c%1.sqlite").arg(i)).toStdString(), i));
            QVERIFY(outline);
            pager.request(PreparedReport::prepare(outline));
            QTRY_COMPARE_WITH_TIMEOUT(in.count(), int(i + 1), 10000);
        }
        QCOMPARE(out.count(), 2);
        QCOMPARE(pager.pagedCount(), ReportPager::kMaxPaged);
    }

    // A digest whose events fail to load is said once: every later pan or zoom asks for it again,
    // and the pager neither loads it again nor reports it again until the run is opened anew.
    void failedLoadIsNotRetried()
    {
        ReportPager pager;
        pager.setUseCache(false);
        QSignalSpy failed(&pager, &ReportPager::failed);
        const ReportPtr outline = outlineOf(kernelReport(m_tmp.filePath("gone.sqlite").toStdString(), 3));
        QVERIFY(outline);
        QVERIFY(QFile::remove(QString::fromStdString(outline->path))); // the digest went away
        const PreparedReportPtr prepared = PreparedReport::prepare(outline);
        pager.request(prepared);
        QVERIFY(failed.wait(10000));
        QVERIFY2(failed.front().front().toString().contains("gone.sqlite.psdigest"),
                 qPrintable(failed.front().front().toString()));
        for (int frame = 0; frame < 3; ++frame) {
            pager.beginFrame();
            pager.request(prepared);
            QTest::qWait(200);
        }
        QCOMPARE(failed.count(), 1);
        QCOMPARE(pager.pagedCount(), size_t(0));
        pager.clear(); // the run opened again: asked for, it is tried again
        pager.request(prepared);
        QVERIFY(failed.wait(10000));
        QCOMPARE(failed.count(), 2);
    }
};

QTEST_MAIN(TestOutlinePaging)
#include "tst_outlinepaging.moc"
