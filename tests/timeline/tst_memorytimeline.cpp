// Memory on the timeline, offscreen. A click on a rank's memory lane (snapshots beside Kineto
// traces of two ranks, written by tests/formats/memoryfixtures.py with python3's pickle) lists in
// the Memory tab the blocks live there: at the planted peak their count and bytes, and their
// allocation sites grouped by user frames, equal the script's own memory_viz count; each block
// shows its user frames first and folds the torch internals under one row; the device's OOMs are
// listed; Esc cancels a read; the tab opens on the highest peak before any click. HTA's real
// memory timeline (tests/formats/data/memory) draws as bands stacked by category whose heights at
// the peak follow the categories there, the category lanes in their bands' colours, and a tooltip
// names each category's bytes.

#include "core/trace/memory/torchmemory.h"
#include "core/trace/read/traceloader.h"
#include "views/memory/memoryblockspane.h"
#include "views/memory/memorycategories.h"
#include "views/timeline/memorywiring.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineworkspace.h"

#include "tests/support/envguard.h"
#include "tests/support/memoryfixtures.h"
#include "workspacewait.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMenu>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include <map>

using namespace ps::views;
namespace tr = ps::core::trace;

namespace {

using Frames = std::vector<std::tuple<QString, QString, qint64>>;

// The memory row of a report (by file name) and lane.
const Row *memoryRow(const TimelineCanvas &c, const QString &fileEnd, std::string_view source)
{
    for (const Row &r : c.layout().rows()) {
        if (r.kind != RowKind::Memory)
            continue;
        const tr::Report &rep = c.scene()->entries[size_t(r.entry)].report->report();
        if (QString::fromStdString(rep.path).endsWith(fileEnd) && rep.meta.memory[size_t(r.counter)].source == source)
            return &r;
    }
    return nullptr;
}

// A block row's user frames (before the folded row), from their tooltips "name\nfile:line".
Frames userFramesOf(const QTreeWidgetItem *block, int *folded)
{
    Frames out;
    *folded = 0;
    for (int i = 0; i < block->childCount(); ++i) {
        const QTreeWidgetItem *child = block->child(i);
        if (child->childCount() > 0) { // the torch internals, folded under one row, last
            *folded = child->childCount();
            if (i != block->childCount() - 1)
                return {};
            continue;
        }
        const QStringList tip = child->toolTip(1).split(QLatin1Char('\n'));
        const qsizetype colon = tip[1].lastIndexOf(QLatin1Char(':'));
        out.emplace_back(tip[0], tip[1].left(colon), tip[1].mid(colon + 1).toLongLong());
    }
    return out;
}

} // namespace

class TestMemoryTimeline : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QJsonObject m_expected;
    ps::test::EnvGuard m_cache{"PROFSTUDIO_CACHE_DIR"};

private slots:
    void initTestCase()
    {
        m_cache.set(m_dir.filePath(QStringLiteral("cache")).toUtf8());
        if (!ps::test::haveFixturePython())
            QSKIP("no /usr/bin/python3 to write the fixtures");
        QString error;
        QVERIFY2(ps::test::writeMemoryFixtures(m_dir.path(), m_dir.filePath(QStringLiteral("SENTINEL")), m_expected,
                                               error, QStringLiteral("beside")),
                 qPrintable(error));
    }

    void clickListsTheLiveBlocks()
    {
        TimelineWorkspace w;
        w.resize(1400, 900);
        w.show();
        const QString step = m_dir.filePath(QStringLiteral("run/step5/"));
        w.openPaths({step + QStringLiteral("torch_memory_rank0_pid700.pickle"),
                     step + QStringLiteral("kineto_rank0.pt.trace.json"),
                     step + QStringLiteral("torch_memory_rank1_pid701.pickle"),
                     step + QStringLiteral("kineto_rank1.pt.trace.json")});
        QVERIFY(ps::test::waitIdle(w));
        TimelineCanvas *canvas = w.canvas();
        auto *pane = w.findChild<MemoryBlocksPane *>();
        QVERIFY(pane);
        auto *tabs = qobject_cast<QTabWidget *>(pane->parentWidget()->parentWidget());
        QVERIFY(tabs);

        // Before any click, the tab opens on the higher of the two ranks' peaks.
        const QJsonObject ranks = m_expected[QStringLiteral("ranks")].toObject();
        const bool oneHigher = ranks[QStringLiteral("1")][QStringLiteral("peak_bytes")].toInteger() >
                               ranks[QStringLiteral("0")][QStringLiteral("peak_bytes")].toInteger();
        tabs->setCurrentWidget(pane);
        QTRY_VERIFY(pane->point() && !pane->isBusy());
        QVERIFY(QString::fromStdString(pane->point()->report->path)
                    .endsWith(oneHigher ? "pid701.pickle" : "pid700.pickle"));
        tabs->setCurrentIndex(0);

        // A click on rank 0's allocated lane at its peak: the view 400 µs around it.
        const QJsonObject e = ranks[QStringLiteral("0")].toObject();
        const Row *row = memoryRow(*canvas, QStringLiteral("pid700.pickle"), tr::kSnapshotAllocatedSource);
        QVERIFY(row);
        const int64_t peak =
            e[QStringLiteral("peak_time_ns")].toInteger() + canvas->scene()->entries[size_t(row->entry)].offset;
        canvas->setWindow({peak - 200'000, peak + 200'000});
        canvas->setScrollY(row->y - 40);
        row = memoryRow(*canvas, QStringLiteral("pid700.pickle"), tr::kSnapshotAllocatedSource);
        const QPoint at(canvas->lanesLeft() + int(std::ceil(canvas->mapping().x(peak))),
                        row->y - canvas->scrollY() + 10);
        QVERIFY(memoryToolTipAt(*canvas, at).contains(memoryBytesText(e[QStringLiteral("peak_bytes")].toInteger())));
        QTest::mouseClick(canvas, Qt::LeftButton, {}, at);
        QVERIFY(tabs->currentWidget() == pane);
        QTRY_VERIFY(!pane->isBusy());
        // On the peak's marker, the click asks for the peak itself (the entry that made it).
        QVERIFY(pane->point()->atPeak);
        QCOMPARE(pane->point()->timeNs, e[QStringLiteral("peak_time_ns")].toInteger());
        QVERIFY2(pane->headingText().contains(QStringLiteral("at its peak")), qPrintable(pane->headingText()));

        // The OOMs first, then the blocks, largest first, adding up to the peak.
        const QTreeWidget *tree = pane->tree();
        const QJsonArray ooms = e[QStringLiteral("ooms")].toArray();
        for (qsizetype i = 0; i < ooms.size(); ++i)
            QVERIFY2(tree->topLevelItem(int(i))->text(1).startsWith(
                         QStringLiteral("OOM: requested %1").arg(memoryBytesText(ooms[i][1].toInteger()))),
                     qPrintable(tree->topLevelItem(int(i))->text(1)));
        // Then the allocation sites, largest first, each holding its blocks, adding up to the peak.
        std::map<Frames, std::pair<int64_t, int64_t>> sites; // user frames -> bytes, blocks
        int64_t total = 0, previous = INT64_MAX;
        for (int i = int(ooms.size()); i < tree->topLevelItemCount(); ++i) {
            const QTreeWidgetItem *site = tree->topLevelItem(i);
            const int64_t bytes = site->data(0, Qt::UserRole).toLongLong();
            QVERIFY(bytes <= previous);
            previous = bytes;
            total += bytes;
            int64_t inBlocks = 0, lastBlock = INT64_MAX;
            Frames frames;
            for (int b = 0; b < site->childCount(); ++b) {
                const QTreeWidgetItem *block = site->child(b);
                const int64_t size = block->data(0, Qt::UserRole).toLongLong();
                QVERIFY(size <= lastBlock);
                lastBlock = size;
                inBlocks += size;
                int folded = 0;
                const Frames mine = userFramesOf(block, &folded);
                QVERIFY(!mine.empty());
                QCOMPARE(block->text(1).section(QLatin1Char(' '), 0, 0), std::get<0>(mine.front()));
                if (b == 0)
                    frames = mine;
                QVERIFY(mine == frames); // one site, one stack of user frames
            }
            QCOMPARE(inBlocks, bytes);
            QVERIFY2(
                site->text(1).endsWith(
                    QStringLiteral("— %1 block%2").arg(site->childCount()).arg(site->childCount() == 1 ? "" : "s")),
                qPrintable(site->text(1)));
            sites[frames] = {bytes, site->childCount()};
        }
        QCOMPARE(total, e[QStringLiteral("peak_bytes")].toInteger());
        QVERIFY(pane->headingText().contains(memoryBytesText(total)));
        std::map<Frames, std::pair<int64_t, int64_t>> want;
        for (const QJsonValue g : e[QStringLiteral("live_at_peak")].toArray()) {
            Frames frames;
            for (const QJsonValue f : g[2].toArray())
                frames.emplace_back(f[0].toString(), f[1].toString(), f[2].toInteger());
            want[frames] = {g[0].toInteger(), g[1].toInteger()};
        }
        QVERIFY(sites == want);

        // "Show Blocks at the Peak", from the lane's menu and from the tab: the peak the CLI
        // names, whatever the time clicked.
        QMenu *menu = canvas->contextMenuAt(at);
        QAction *peakAction = nullptr;
        for (QAction *a : menu->actions())
            if (a->text() == QStringLiteral("Show Blocks at the Peak"))
                peakAction = a;
        QVERIFY(peakAction);
        canvas->setWindow({peak - 2'000'000, peak - 1'000'000}); // elsewhere
        peakAction->trigger();
        delete menu;
        QTRY_VERIFY(!pane->isBusy());
        QVERIFY2(pane->headingText().contains(QStringLiteral("at its peak")), qPrintable(pane->headingText()));
        QVERIFY(pane->headingText().contains(memoryBytesText(e[QStringLiteral("peak_bytes")].toInteger())));
        QCOMPARE(pane->point()->timeNs, e[QStringLiteral("peak_time_ns")].toInteger());
        auto *peakButton = pane->findChild<QPushButton *>(QStringLiteral("memoryPeak"));
        QVERIFY(peakButton);
        // After a click elsewhere on the lane, the button names the peak, not the clicked time.
        const QPoint off(canvas->lanesLeft() + 40, at.y());
        canvas->setWindow({peak - 200'000, peak + 200'000});
        QTest::mouseClick(canvas, Qt::LeftButton, {}, off);
        QTRY_VERIFY(!pane->isBusy() && !pane->point()->atPeak);
        const QString clicked = pane->point()->where;
        peakButton->click();
        QTRY_VERIFY(!pane->isBusy());
        QVERIFY2(pane->headingText().startsWith(pane->point()->lane + QStringLiteral(" at its peak: ")) &&
                     !pane->headingText().contains(clicked),
                 qPrintable(pane->headingText()));
        QVERIFY(pane->headingText().contains(memoryBytesText(e[QStringLiteral("peak_bytes")].toInteger())));

        // Esc while a point is being read cancels it: the answer is dropped.
        pane->showPoint(*pane->point());
        QVERIFY(pane->isBusy());
        QTest::keyClick(canvas, Qt::Key_Escape);
        QCOMPARE(pane->headingText(), QStringLiteral("Cancelled."));
        QTRY_VERIFY(!pane->isBusy());
        QCOMPARE(pane->headingText(), QStringLiteral("Cancelled."));
    }

    void timelineStacksByCategory()
    {
        QFile f(QStringLiteral(PS_SOURCE_DIR "/tests/formats/data/memory/expected.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject e =
            QJsonDocument::fromJson(f.readAll()).object()[QStringLiteral("memory_timeline.raw.gz")].toObject();
        std::string error;
        const tr::ReportPtr r =
            tr::loadReport(PS_SOURCE_DIR "/tests/formats/data/memory/memory_timeline.raw.gz", {}, error);
        QVERIFY2(r, error.c_str());
        TimelineCanvas c;
        c.resize(1260, 900);
        c.setScene(std::make_shared<TimelineScene>(buildScene({PreparedReport::prepare(r)}, {})));
        const int64_t peak = e[QStringLiteral("peak_time_ns")].toInteger() + c.scene()->entries[0].offset;
        c.setWindow({peak - 5'000'000, peak + 5'000'000}); // 10 µs a column
        c.show();
        const Row *total = memoryRow(c, QStringLiteral(".raw.gz"), tr::kTimelineTotalSource);
        QVERIFY(total);
        const QImage img = c.grab().toImage();
        // The peak's column bears the peak marker; the peak's sample holds for 515 µs after it, so
        // ten columns on the bands are the peak's.
        const int marker = c.lanesLeft() + int(std::floor(c.mapping().x(peak)));
        QCOMPARE(img.pixel(marker, total->y + 3), qRgb(0xe5, 0x39, 0x35));
        const int x = marker + 10;
        const QJsonArray categories = e[QStringLiteral("categories_at_peak")].toArray();
        const int64_t peakBytes = e[QStringLiteral("peak_bytes")].toInteger();
        const int full = total->height - 4, bottom = total->y + total->height - 2;
        int64_t sum = 0;
        int checked = 0;
        for (qsizetype k = 0; k < categories.size(); ++k) {
            const int below = int(std::lround(double(full) * double(sum) / double(peakBytes)));
            sum += categories[k].toInteger();
            const int top = int(std::lround(double(full) * double(sum) / double(peakBytes)));
            if (top - below < 3)
                continue; // too thin to tell its colour from its neighbours'
            const QRgb want = memoryCategoryColor(size_t(k));
            QCOMPARE(QColor(img.pixel(x, bottom - (below + top) / 2)).name(), QColor(want).name());
            ++checked;
        }
        QVERIFY(checked >= 1); // activations dominate this sample
        // Each category lane in its band's colour: the legend.
        const Row *activation = memoryRow(c, QStringLiteral(".raw.gz"), tr::timelineCategorySource(4));
        QVERIFY(activation);
        QCOMPARE(QColor(img.pixel(x, activation->y + activation->height - 3)).name(),
                 QColor(memoryCategoryColor(4)).name());
        // The tooltip lists the categories with their bytes at the point.
        const QString tip = memoryToolTipAt(c, QPoint(x, total->y + 10));
        QVERIFY2(tip.contains(QStringLiteral("ACTIVATION")) && tip.contains(memoryBytesText(categories[4].toInteger())),
                 qPrintable(tip));
    }
};

QTEST_MAIN(TestMemoryTimeline)
#include "tst_memorytimeline.moc"
