// Vendor words: tooltips and the details pane name events as the vendor's tools do (HCCL op,
// mstx range, torch op, Python frame, NVTX range), the statistics picker names what it sums per
// format, the axis of an UTC alignment shows wall-clock dates (relative times otherwise), and the
// "days apart" check compares when reports ran, not an epoch-clock origin of 0 with a real one.
#include "testreports.h"
#include "tests/support/reportload.h"
#include "views/scene/timeformat.h"
#include "views/scene/vendorwords.h"
#include "views/stats/statspane.h"
#include "views/stats/statstablemodel.h"
#include "views/timeline/detailspane.h"
#include "views/timeline/eventinfo.h"
#include "views/timeline/rowlayout.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineview.h"
#include "views/timeline/timelineworkspace.h"
#include "workspacewait.h"

#include <QComboBox>
#include <QFile>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps::views;
using namespace ps::core::trace;
using ps::test::waitIdle;

namespace {
const QString kAscend =
    QStringLiteral(PS_TESTDATA_DIR "/traces/ascend/msinsight__level1__rank0__ascend_pytorch_profiler_0.db");
const QString kKineto = QStringLiteral(PS_TESTDATA_DIR "/traces/kineto/hta__trace_filter__sampled_rank-0.json.gz");
const QString kNsys = QStringLiteral(PS_TESTDATA_DIR "/traces/nsys/extrap__concurrent.s1.sqlite");

// The kind word of every range event, by track label ("HCCL · group ..." -> {"HCCL op"}).
QMap<QString, QSet<QString>> rangeWords(const Report &r)
{
    QMap<QString, QSet<QString>> out;
    const EventStore &store = *r.store;
    for (const Track &t : store.tracks()) {
        if (!isRangeKind(t.kind()))
            continue;
        const QString label = RowLayout::trackLabel(store, t, r.meta.format);
        for (uint32_t i = 0; i < t.size(); ++i)
            out[label] << eventKindWord(r.meta.format, store, t, i);
    }
    return out;
}

QSet<QString> allWords(const QMap<QString, QSet<QString>> &byTrack)
{
    QSet<QString> all;
    for (const QSet<QString> &s : byTrack)
        all.unite(s);
    return all;
}
} // namespace

class TestVendorWords : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("ProfStudioTest");
        QCoreApplication::setApplicationName("tst_vendorwords");
    }

    void ascendSaysHcclOpsAndTorchOps()
    {
        const ReportPtr r = ps::test::loadTestReport(kAscend);
        QVERIFY(r);
        const auto words = rangeWords(*r);
        bool hccl = false;
        for (auto it = words.cbegin(); it != words.cend(); ++it) {
            if (it.key().startsWith("HCCL")) {
                hccl = true;
                QCOMPARE(it.value(), QSet<QString>{"HCCL op"});
            }
        }
        QVERIFY(hccl);
        const QSet<QString> all = allWords(words);
        QVERIFY2(all.contains("torch op"), qPrintable(QStringList(all.values()).join(", ")));
        for (const QString &w : all)
            QVERIFY2(!w.contains("NVTX"), qPrintable(w));
    }

    void kinetoSaysTorchOpsAndPythonFrames()
    {
        const ReportPtr r = ps::test::loadTestReport(kKineto);
        QVERIFY(r);
        const QSet<QString> all = allWords(rangeWords(*r));
        QVERIFY2(all.contains("torch op"), qPrintable(QStringList(all.values()).join(", ")));
        for (const QString &w : all)
            QVERIFY2(!w.contains("NVTX"), qPrintable(w));
        // The shared traces were recorded without with_stack: a trace that has Python frames.
        QTemporaryDir dir;
        QFile f(dir.filePath("stack.pt.trace.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"schemaVersion": 1, "traceEvents": [
            {"ph": "X", "cat": "python_function", "name": "train.py(10): step", "pid": 1, "tid": 1, "ts": 100, "dur": 50},
            {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 110, "dur": 10}]})");
        f.close();
        const ReportPtr stack = ps::test::loadTestReport(f.fileName());
        QVERIFY(stack);
        QCOMPARE(allWords(rangeWords(*stack)), (QSet<QString>{"Python frame", "torch op"}));
    }

    void nsysKeepsNvtx()
    {
        const ReportPtr r = ps::test::loadTestReport(kNsys);
        QVERIFY(r);
        const QSet<QString> all = allWords(rangeWords(*r));
        QVERIFY(!all.isEmpty());
        for (const QString &w : all)
            QVERIFY2(w.startsWith("NVTX range"), qPrintable(w));
    }

    // The tooltip and details of an Ascend event, and the statistics picker, in Ascend's words.
    void workspaceSpeaksTheFormat()
    {
        TimelineWorkspace w;
        w.resize(1280, 720);
        w.show();
        w.openPaths({kAscend});
        QVERIFY(waitIdle(w));
        const QString picker = w.stats()->kindPicker()->itemText(0);
        QVERIFY2(!picker.contains("NVTX") && picker.contains("torch ops"), qPrintable(picker));
        QCOMPARE(w.stats()->kindPicker()->itemText(1), QStringLiteral("NPU tasks"));
        const TimelineScene &scene = *w.scene();
        std::optional<TimelineSelection> range;
        const EventStore &store = scene.entries[0].report->store();
        for (uint32_t t = 0; t < store.tracks().size() && !range; ++t)
            if (isRangeKind(store.track(t).kind()) && store.track(t).size() > 0)
                range = TimelineSelection{0, {t, 0}};
        QVERIFY(range);
        const EventInfo info = describeEvent(scene.entries[0], range->ref);
        QVERIFY2(!info.kind.contains("NVTX"), qPrintable(info.kind));
        QVERIFY(!info.toolTip().contains("NVTX"));

        TimelineWorkspace nsys;
        nsys.openPaths({kNsys});
        QVERIFY(waitIdle(nsys));
        QCOMPARE(nsys.stats()->kindPicker()->itemText(0), QStringLiteral("NVTX ranges (nvtx_sum)"));
        // The Style column: nvtx_sum's words for nsys, what the ranges are for Ascend.
        const auto styles = [](TimelineWorkspace &ws) {
            ws.flushDeferred();
            QSet<QString> out;
            const StatsTableModel *m = ws.stats()->model();
            for (int r = 0; r < m->rowCount(); ++r)
                out << m->index(r, StatsTableModel::Style).data().toString();
            return out;
        };
        QVERIFY(waitIdle(w) && waitIdle(nsys));
        const QSet<QString> ascendStyles = styles(w), nsysStyles = styles(nsys);
        QVERIFY2(!ascendStyles.isEmpty() && ascendStyles.contains("nested") && !ascendStyles.contains("PushPop") &&
                     !ascendStyles.contains("StartEnd"),
                 qPrintable(QStringList(ascendStyles.begin(), ascendStyles.end()).join(',')));
        QVERIFY2(nsysStyles.contains("PushPop") && !nsysStyles.contains("nested"),
                 qPrintable(QStringList(nsysStyles.begin(), nsysStyles.end()).join(',')));
    }

    void wallClockLabels()
    {
        QCOMPARE(formatWallClock(1'736'410'576'380'000'000, 1'000'000), QStringLiteral("2025-01-09 08:16:16.380 UTC"));
        QCOMPARE(formatWallClock(1'736'410'576'380'000'000, 2'000'000'000), QStringLiteral("2025-01-09 08:16:16 UTC"));
        QCOMPARE(formatWallClock(1'736'410'576'000'001'500, 1000), QStringLiteral("2025-01-09 08:16:16.000001 UTC"));
        // Ticks of a UTC axis fall on round wall-clock times.
        const int64_t origin = 1'736'410'576'380'000'000;
        const AxisTicks t = computeReadableTicks(0, 2'000'000'000, 1000, 7, origin);
        QVERIFY(!t.ticks.isEmpty());
        for (int64_t tick : t.ticks)
            QCOMPARE((origin + tick) % t.step, int64_t(0));
    }

    // Aligned by UTC the axis says dates; by start, times from the start.
    void axisShowsDatesInUtc()
    {
        TimelineWorkspace w;
        w.resize(1280, 720);
        w.show();
        w.openPaths({kKineto});
        QVERIFY(waitIdle(w));
        QVERIFY(w.setAlignment("utc"));
        QVERIFY(waitIdle(w));
        QTest::qWait(20);
        QStringList labels = w.view()->axisLabels();
        QVERIFY(!labels.isEmpty());
        for (const QString &l : labels)
            QVERIFY2(
                QRegularExpression("^20\\d\\d-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(\\.\\d+)? UTC$").match(l).hasMatch(),
                qPrintable(l));
        QVERIFY(w.setAlignment("start"));
        QVERIFY(waitIdle(w));
        labels = w.view()->axisLabels();
        QVERIFY(!labels.isEmpty());
        for (const QString &l : labels)
            QVERIFY2(!l.contains("UTC") && l.size() < 12, qPrintable(l));
    }

    // The details pane says times as the axis does: UTC dates in UTC mode, relative times
    // otherwise.
    void detailsSayTimesAsTheAxis()
    {
        TimelineWorkspace w;
        w.resize(1280, 720);
        w.show();
        w.addReports({ps::test::makeRank(0, 2, 10'000'000)});
        QVERIFY(waitIdle(w));
        QVERIFY(w.setAlignment("utc"));
        QVERIFY(waitIdle(w));
        w.canvas()->reveal({0, {0, 0}}); // the first "step": 1 ms after the report's UTC origin
        const QRegularExpression date("start\\s+2023-11-14 22:13:20\\.001000000 UTC\\s");
        QVERIFY2(date.match(w.details()->text()).hasMatch(), qPrintable(w.details()->text()));
        QVERIFY(w.details()->text().contains(QRegularExpression("end\\s+2023-11-14 22:13:20\\.011000000 UTC")));
        QVERIFY(w.setAlignment("start"));
        QVERIFY(waitIdle(w));
        w.canvas()->reveal({0, {0, 0}}); // realigning dropped the selection
        QVERIFY2(!w.details()->text().contains("UTC"), qPrintable(w.details()->text()));
        QVERIFY2(w.details()->text().contains(QRegularExpression("start\\s+0\\s+end\\s+10 ms")),
                 qPrintable(w.details()->text()));
    }

    // A report on an epoch clock (origin 0) and one with a real origin, run the same hour, are
    // not "days apart": they stay aligned by UTC.
    void epochClockIsNotAMissingOrigin()
    {
        constexpr int64_t kWhen = 1'736'410'576'000'000'000;
        ReportPtr epoch = ps::test::makeRank(0, 2, 10'000'000);
        ReportPtr real = ps::test::makeRank(1, 2, 10'000'000);
        auto shifted = std::make_shared<Report>(*epoch);
        {
            StoreBuilder b;
            const TrackHandle h = b.track({TrackKind::NvtxPushPop, 100, 11, 0});
            b.add(h, kWhen + 1'000'000, kWhen + 9'000'000, b.intern("step"));
            shifted->store = std::make_shared<EventStore>(std::move(b).build());
        }
        shifted->meta.utcStartNs = 0;
        // The alignment a workspace chooses for `origin` as the real report's UTC origin, and its
        // warnings ("" when it did not settle).
        const auto alignedWith = [&](int64_t origin) {
            auto dated = std::make_shared<Report>(*real);
            dated->meta.utcStartNs = origin;
            TimelineWorkspace w;
            w.resize(1280, 720);
            w.show();
            w.addReports({shifted, dated});
            if (!waitIdle(w))
                return std::pair<QString, QString>();
            return std::pair(w.alignment(), w.alignmentWarnings().join(QStringLiteral("; ")));
        };
        const auto [sameHour, sameHourWarnings] = alignedWith(kWhen - 5'000'000);
        QCOMPARE(sameHour, QStringLiteral("utc"));
        QVERIFY2(!sameHourWarnings.contains("days apart"), qPrintable(sameHourWarnings));
        // The note looked for above: the real origin five days earlier is days apart.
        const auto [daysBefore, daysBeforeWarnings] = alignedWith(kWhen - 5 * 86'400'000'000'000);
        QCOMPARE(daysBefore, QStringLiteral("start"));
        QVERIFY2(daysBeforeWarnings.contains("days apart"), qPrintable(daysBeforeWarnings));
    }
};

QTEST_MAIN(TestVendorWords)
#include "tst_vendorwords.moc"
