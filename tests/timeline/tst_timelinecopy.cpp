// Copying what the timeline shows: Ctrl+C on a selected event copies its name, the event's
// right-click menu copies its name or details and finds all like it, text copied from the details
// pane carries no invisible characters (so it pastes into the search and finds the event), and
// the statistics, phase and compare tables copy their selection as tab-separated text or CSV.
// A run's header row closes that run or all. File > Export Image writes the view as PNG.
#include "testreports.h"
#include "views/common/tablecopy.h"
#include "views/stats/comparepane.h"
#include "views/stats/phasespane.h"
#include "views/stats/statspane.h"
#include "views/timeline/detailspane.h"
#include "views/timeline/imageexport.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineview.h"
#include "views/timeline/timelineworkspace.h"
#include "workspacewait.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSet>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtConcurrent/QtConcurrentRun>
#include <QtTest>

using namespace ps::views;
using namespace ps::core::trace;
using ps::test::waitIdle;

namespace {
constexpr int64_t kMs = 1'000'000;

bool showWithRanks(TimelineWorkspace &w, int n)
{
    w.resize(1400, 900);
    w.show();
    std::vector<ReportPtr> reports;
    for (int r = 0; r < n; ++r)
        reports.push_back(ps::test::makeRank(r, 3, 10 * kMs));
    w.addReports(std::move(reports));
    return waitIdle(w);
}

// The canvas position of an event shown on its track row (a point inside its box).
std::optional<QPoint> eventPos(const TimelineCanvas &c, const TimelineSelection &s)
{
    const TimelineEntry &e = c.scene()->entries[size_t(s.entry)];
    for (const Row &r : c.layout().rows())
        if (r.kind == RowKind::Track && r.entry == s.entry && r.track == s.ref.track) {
            const Track &t = e.report->store().track(s.ref.track);
            const double x = c.mapping().x(t.start(s.ref.index), e.offset) + 2;
            return QPoint(c.lanesLeft() + int(x), r.y - c.scrollY() + 3);
        }
    return std::nullopt;
}

bool triggerMenu(QMenu *menu, const QString &objectName)
{
    std::unique_ptr<QMenu> owned(menu);
    for (QAction *a : menu->actions())
        if (a->objectName() == objectName) {
            a->trigger();
            return true;
        }
    return false;
}

bool hasInvisible(const QString &s)
{
    return s.contains(QChar(0x200B)) || s.contains(QChar(0x00AD)) || s.contains(QChar(0xFEFF));
}

QString clip()
{
    return QApplication::clipboard()->text();
}
} // namespace

class TestTimelineCopy : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("ProfStudioTest");
        QCoreApplication::setApplicationName("tst_timelinecopy");
    }

    void ctrlCCopiesTheSelectedEventsName()
    {
        TimelineWorkspace w;
        QVERIFY(showWithRanks(w, 2));
        QApplication::clipboard()->setText("before");
        w.canvas()->reveal({1, {2, 1}}); // rank 1's second gemm kernel
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.canvas()->setFocus();
        QTest::keyClick(w.canvas(), Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(clip(), QStringLiteral("gemm"));
        // Nothing selected: nothing copied over what the user had.
        QTest::keyClick(w.canvas(), Qt::Key_Escape);
        QApplication::clipboard()->setText("kept");
        QTest::keyClick(w.canvas(), Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(clip(), QStringLiteral("kept"));
    }

    void eventMenuCopiesAndFinds()
    {
        TimelineWorkspace w;
        QVERIFY(showWithRanks(w, 2));
        const TimelineSelection kernel{1, {2, 1}};
        w.canvas()->reveal(kernel);
        QVERIFY(waitIdle(w));
        const auto pos = eventPos(*w.canvas(), kernel);
        QVERIFY(pos);
        QCOMPARE(*w.canvas()->eventAt(*pos), kernel);

        // Another event selected first: the right-click selects the one under the pointer, so the
        // menu acts on the selection (#38: it acted on the hovered one while another was selected).
        w.canvas()->select(TimelineSelection{0, {2, 0}});
        QVERIFY(triggerMenu(w.canvas()->contextMenuAt(*pos), "copyName"));
        QCOMPARE(clip(), QStringLiteral("gemm"));
        QCOMPARE(w.canvas()->selection(), std::optional<TimelineSelection>(kernel));

        QVERIFY(triggerMenu(w.canvas()->contextMenuAt(*pos), "copyDetails"));
        const QStringList lines = clip().split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.first(), QStringLiteral("name\tgemm"));
        QVERIFY(lines.contains("kind\tKernel"));
        QVERIFY(lines.contains("correlated\tlaunched by cudaLaunchKernel on thread python [11] · pid 101"));
        for (const QString &l : lines)
            QVERIFY2(l.count('\t') == 1, qPrintable(l));

        QVERIFY(triggerMenu(w.canvas()->contextMenuAt(*pos), "findAllLike"));
        QCOMPARE(w.searchEdit()->text(), QStringLiteral("gemm"));
        QVERIFY(waitIdle(w));
        QCOMPARE(w.searchResult()->count, size_t(6)); // 3 steps x 2 ranks

        // The track actions are still there below, and an empty spot has no event actions.
        std::unique_ptr<QMenu> empty(w.canvas()->contextMenuAt({w.canvas()->lanesLeft() + 1, pos->y()}));
        bool copy = false, hide = false;
        for (QAction *a : empty->actions()) {
            copy = copy || a->objectName() == "copyName";
            hide = hide || a->text() == "Hide This Track";
        }
        QVERIFY(!copy);
        QVERIFY(hide);
    }

    // A 261-character kernel name wraps in the details pane; selecting and copying it gives the
    // name as the report stores it, which the search then finds.
    void copiedDetailsPasteIntoTheSearch()
    {
        TimelineWorkspace w;
        w.resize(1280, 720);
        w.show();
        w.openPaths({QStringLiteral(PS_TESTDATA_DIR "/traces/nsys/dlprof__nsys_profile.sqlite")});
        QVERIFY(waitIdle(w));
        const EventStore &store = w.reports().at(0)->store();
        std::optional<EventRef> longest; // the kernel with the longest demangled name
        size_t longestSize = 0;
        for (uint32_t k : store.tracksOfKind(TrackKind::Kernel))
            for (size_t i = 0; i < store.track(k).size(); ++i)
                if (store.name(store.track(k).name(i)).size() > longestSize) {
                    longestSize = store.name(store.track(k).name(i)).size();
                    longest = EventRef{k, uint32_t(i)};
                }
        QVERIFY(longest && longestSize > 200);
        const std::string_view full = store.name(store.track(longest->track).name(longest->index));
        const std::string_view shortName =
            store.name(store.shortNameOf(store.track(longest->track).name(longest->index)));
        int entry = 0;
        for (size_t e = 0; e < w.scene()->entries.size(); ++e)
            if (w.scene()->entries[e].reportIndex == 0)
                entry = int(e);
        w.canvas()->reveal({entry, *longest});
        QVERIFY(waitIdle(w));
        QTextBrowser *text = w.details()->textView();
        text->selectAll();
        text->copy();
        const QString copied = clip();
        QVERIFY(!hasInvisible(copied));
        QVERIFY(copied.contains(QString::fromUtf8(full.data(), qsizetype(full.size()))));
        const QString name = copied.section('\n', 0, 0);
        QCOMPARE(name, QString::fromUtf8(shortName.data(), qsizetype(shortName.size())));
        w.setSearch(QString::fromUtf8(full.data(), qsizetype(full.size())));
        QVERIFY(waitIdle(w));
        QVERIFY(w.searchResult()->count >= 1);
        QVERIFY(w.searchResult()->error.isEmpty());
    }

    // A run's header row offers Close Run (that run only) and Close All.
    void runHeaderMenuClosesRuns()
    {
        TimelineWorkspace w;
        w.resize(1400, 900);
        w.show();
        std::vector<ReportPtr> reports;
        for (const char *run : {"alpha", "beta"})
            for (int r = 0; r < 2; ++r) {
                ReportPtr rank = ps::test::makeRank(r, 2, 10 * kMs);
                auto copy = std::make_shared<Report>(*rank);
                copy->identity.run = run;
                copy->path = std::string("/runs/") + run + "/rank" + std::to_string(r) + ".sqlite";
                reports.push_back(copy);
            }
        w.addReports(std::move(reports));
        QVERIFY(waitIdle(w));
        QCOMPARE(w.runNames(), (QStringList{"alpha", "beta"}));
        const auto header = [&](const QString &label) -> std::optional<QPoint> {
            for (const Row &r : w.canvas()->layout().rows())
                if (r.isHeader() && r.label == label)
                    return QPoint(20, r.y - w.canvas()->scrollY() + 3);
            return std::nullopt;
        };
        const auto beta = header("beta");
        QVERIFY(beta);
        QVERIFY(triggerMenu(w.canvas()->contextMenuAt(*beta), "closeRun"));
        QVERIFY(waitIdle(w));
        QCOMPARE(w.runNames(), QStringList{"alpha"});
        QCOMPARE(w.reports().size(), size_t(2));
        const auto alpha = header("alpha");
        QVERIFY(alpha);
        QVERIFY(triggerMenu(w.canvas()->contextMenuAt(*alpha), "closeAll"));
        QVERIFY(w.reports().empty());
    }

    // A report's header offers Close This Report: that report closes, the others stay (#38: one
    // report with bad clocks must not take the session hostage).
    void reportHeaderMenuClosesThatReport()
    {
        TimelineWorkspace w;
        w.resize(1400, 900);
        w.show();
        std::vector<ReportPtr> reports;
        for (int r = 0; r < 3; ++r)
            reports.push_back(ps::test::makeRank(r, 3, 10 * kMs));
        w.addReports(std::move(reports));
        QVERIFY(waitIdle(w));
        QCOMPARE(w.reports().size(), size_t(3));
        const std::string closing = w.reports()[1]->report().path;
        std::optional<QPoint> at;
        for (const Row &r : w.canvas()->layout().rows())
            if (r.isHeader() && r.kind == RowKind::Report && r.entry >= 0 &&
                w.scene()->entries[size_t(r.entry)].report->report().path == closing)
                at = QPoint(20, r.y - w.canvas()->scrollY() + 3);
        QVERIFY(at);
        QVERIFY(triggerMenu(w.canvas()->contextMenuAt(*at), "closeReport"));
        QVERIFY(waitIdle(w));
        QCOMPARE(w.reports().size(), size_t(2));
        for (const auto &r : w.reports())
            QVERIFY(r->report().path != closing);
    }

    // File > Export Image: the view as PNG at its size on screen or a chosen one, written
    // atomically (a failed write names the file and leaves nothing behind).
    void exportImageWritesPng()
    {
        TimelineWorkspace w;
        QVERIFY(showWithRanks(w, 2));
        QTemporaryDir dir;
        const QString file = dir.filePath("timeline.png");
        QCOMPARE(exportTimelineImage(w.view(), file), QString());
        QImage shot(file);
        QCOMPARE(shot.size(), w.view()->size() * w.view()->devicePixelRatio());
        const QSize before = w.view()->size();
        QCOMPARE(exportTimelineImage(w.view(), file, QSize(1600, 500)), QString());
        QCOMPARE(QImage(file).size(), QSize(1600, 500) * w.view()->devicePixelRatio());
        QCOMPARE(w.view()->size(), before);
        // Drawn on the GUI thread, encoded and written on another (as File > Export Image does).
        const QImage grabbed = grabTimelineImage(w.view(), QSize(800, 300));
        QCOMPARE(w.view()->size(), before);
        QCOMPARE(QtConcurrent::run([&] { return writeTimelineImage(grabbed, file); }).result(), QString());
        QCOMPARE(QImage(file).size(), QSize(800, 300) * w.view()->devicePixelRatio());
        // Not all one colour: the lanes were drawn.
        QSet<QRgb> colours;
        for (int x = 0; x < shot.width(); x += 7)
            colours << shot.pixel(x, shot.height() / 3);
        QVERIFY(colours.size() > 3);
        const QString bad = dir.filePath("missing/dir/timeline.png");
        const QString error = exportTimelineImage(w.view(), bad);
        QVERIFY2(error.contains("missing/dir"), qPrintable(error));
        QVERIFY(!QFile::exists(bad));
    }

    // A table's selection copies as tab-separated text (tabs and line breaks in a cell become
    // spaces) or as CSV (RFC 4180 quoting), rows and columns in the order shown.
    void cellsCopyAsTabsAndCsv()
    {
        QStandardItemModel model(3, 3);
        const char *cells[3][3] = {{"name", "count", "note"}, {"a,b", "2", "say \"hi\""}, {"c\td", "4", ""}};
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                model.setItem(r, c, new QStandardItem(QString::fromUtf8(cells[r][c])));
        QTableView view;
        view.setModel(&model);
        installTableCopy(&view);
        view.selectionModel()->select(QItemSelection(model.index(1, 0), model.index(2, 2)),
                                      QItemSelectionModel::Select);
        QCOMPARE(selectedCellsText(&view, CellFormat::Tsv), QStringLiteral("a,b\t2\tsay \"hi\"\nc d\t4\t\n"));
        QCOMPARE(selectedCellsText(&view, CellFormat::Csv), QStringLiteral("\"a,b\",2,\"say \"\"hi\"\"\"\nc\td,4,\n"));
        view.findChild<QAction *>("copyCellsCsv")->trigger();
        QCOMPARE(clip(), selectedCellsText(&view, CellFormat::Csv));
        // A carriage return ends a CSV record too, so the cell is quoted (RFC 4180).
        model.item(2, 2)->setText(QStringLiteral("x\ry"));
        QCOMPARE(selectedCellsText(&view, CellFormat::Csv),
                 QStringLiteral("\"a,b\",2,\"say \"\"hi\"\"\"\nc\td,4,\"x\ry\"\n"));
    }

    // Ctrl+C in the statistics, phase and compare tables copies the selected row as shown.
    void paneTablesCopyTheirSelection()
    {
        TimelineWorkspace w;
        QVERIFY(showWithRanks(w, 2));
        QTableView *stats = w.stats()->table();
        QTRY_VERIFY(stats->model()->rowCount() > 0);
        stats->selectRow(0);
        QStringList shown;
        for (int c = 0; c < stats->model()->columnCount(); ++c)
            if (!stats->isColumnHidden(c))
                shown << stats->model()->index(0, c).data().toString();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        stats->setFocus();
        QTest::keyClick(stats, Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(clip(), shown.join('\t') + '\n');
        for (QTableView *t : {w.phasesPane()->table(), w.comparePane()->table()}) {
            QVERIFY(t->findChild<QAction *>("copyCells"));
            QVERIFY(t->findChild<QAction *>("copyCellsCsv"));
            QCOMPARE(t->contextMenuPolicy(), Qt::ActionsContextMenu);
        }
    }
};

QTEST_MAIN(TestTimelineCopy)
#include "tst_timelinecopy.moc"
