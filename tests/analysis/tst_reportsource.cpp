// One report source (core/trace/read/reportsource.h): a report without events says so, a summary
// comes from the digest or the events and is kept, a missing or damaged summary is an error that
// names the digest; and `trace phases` over a mixed folder answers per report: summary-only
// digests with one raw report beside them (what `collect --full RANK` gathers) give a table over
// every rank, and a damaged digest among healthy ones is named alone while the table covers the
// rest.
#include "core/analysis/digestsummary.h"
#include "core/analysis/phases/phases.h"
#include "core/analysis/phases/phasesummary.h"
#include "core/demo/demorun.h"
#include "core/trace/persist/digest.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/read/traceloader.h"
#include "core/trace/tracesummary.h"
#include "tests/support/clirun.h"
#include "tests/support/demorun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace ps::core::analysis;
namespace tr = ps::core::trace;

class TestReportSource : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    ps::core::demo::DemoResult m_demo;
    std::vector<tr::ReportPtr> m_reports;

    // The summary-only digests of the demo run in a fresh folder, as `trace digest --summary-only
    // --out` writes them (writeDigestWithSummaries, each below the folder as its report is below
    // the run's); digests[i] is report i's.
    QString digestRun(const QString &name, std::vector<std::string> &digests)
    {
        const std::filesystem::path out = m_dir.filePath(name).toStdString();
        digests.clear();
        for (const tr::ReportPtr &r : m_reports) {
            const std::filesystem::path digest =
                out / (std::filesystem::relative(r->path, m_demo.outDir).string() + std::string(tr::kDigestSuffix));
            std::filesystem::create_directories(digest.parent_path());
            tr::DigestOptions o;
            o.summaryOnly = true;
            const std::string error = writeDigestWithSummaries(*r, digest.string(), o);
            if (!error.empty())
                qWarning() << error.c_str();
            digests.push_back(digest.string());
        }
        return QString::fromStdString(out.string());
    }

    static QJsonObject json(const QString &text) { return QJsonDocument::fromJson(text.toUtf8()).object(); }

private slots:
    void initTestCase()
    {
        m_demo = writeTestDemo(m_dir.filePath("run"), 4, 2, 11);
        m_demo.outDir = std::filesystem::path(m_demo.outDir).lexically_normal().string();
        tr::LoadOptions lo;
        lo.useCache = false;
        std::vector<std::string> paths;
        for (const auto &r : m_demo.reports)
            paths.push_back(r.path);
        m_reports = tr::loadReports(paths, lo).reports;
        QCOMPARE(m_reports.size(), size_t(4));
    }

    // A report opened from its digest without events says so, and asking for them is an error
    // naming it; its summaries come from the digest and are kept.
    void summariesFromTheDigest()
    {
        std::vector<std::string> digests;
        digestRun("kept", digests);
        std::string error;
        const tr::ReportPtr outline = tr::readDigestOutline(digests[0], error);
        QVERIFY2(outline, error.c_str());
        QVERIFY(!tr::hasEvents(*outline));
        QVERIFY(tr::hasEvents(*m_reports[0]));
        QVERIFY(!tr::eventsOf(*outline, error));
        QVERIFY2(error.find(digests[0]) == 0 && error.find("summary-only") != std::string::npos, error.c_str());
        // It says so in its type: no event store at all (code that reached for one would fail,
        // not read an empty store as zeros), and a layout of the report's tracks for the rows.
        QVERIFY(!outline->store && outline->hasLayout());
        QCOMPARE(outline->layout().tracks().size(), m_reports[0]->store->tracks().size());
        QCOMPARE(outline->layout().eventCount(), size_t(0));
        QCOMPARE(&outline->layout(), outline->layoutPtr().get());
        QCOMPARE(&m_reports[0]->layout(), m_reports[0]->store.get());

        error.clear();
        const auto cells = tr::summaryOf(*outline, kPhaseCells, error);
        QVERIFY2(cells, error.c_str());
        QCOMPARE(tr::summaryOf(*outline, kPhaseCells, error).get(), cells.get()); // decoded once
        const auto fromEvents = tr::summaryOf(*m_reports[0], kPhaseCells, error);
        QVERIFY2(fromEvents, error.c_str());
        QCOMPARE(cells->cells.size(), fromEvents->cells.size());
        for (const auto &[key, cell] : fromEvents->cells)
            QCOMPARE(cells->cells.at(key).wallNs, cell.wallNs);
        const tr::ReportExtent a = tr::extentOf(*outline), b = tr::extentOf(*m_reports[0]);
        QCOMPARE(a.events, b.events);
        QCOMPARE(a.firstStart, b.firstStart);
        QCOMPARE(a.lastEnd, b.lastEnd);
    }

    // A digest without a phase summary, or with one that does not decode, is an error naming the
    // digest and the section, in the phase table too (it used to give empty cells and no word).
    void missingOrDamagedSummaryIsAnError()
    {
        const std::string plain = m_dir.filePath("plain.sqlite.psdigest").toStdString();
        tr::DigestOptions o;
        o.summaryOnly = true;
        QCOMPARE(QString::fromStdString(tr::writeDigest(*m_reports[0], plain, o)), QString());
        const std::string broken = m_dir.filePath("broken.sqlite.psdigest").toStdString();
        o.extraSections.push_back({"PHAS", "{\"version\": 1, \"cells\": 3}"});
        QCOMPARE(QString::fromStdString(tr::writeDigest(*m_reports[1], broken, o)), QString());

        std::string error;
        const tr::ReportPtr a = tr::readDigestOutline(plain, error), b = tr::readDigestOutline(broken, error);
        QVERIFY2(a && b, error.c_str());
        QVERIFY(!tr::summaryOf(*a, kPhaseCells, error));
        QVERIFY2(error.find(plain) == 0 && error.find("PHAS") != std::string::npos, error.c_str());
        error.clear();
        QVERIFY(!tr::summaryOf(*b, kPhaseCells, error));
        QVERIFY2(error.find(broken) == 0 && error.find("damaged digest: section PHAS") != std::string::npos,
                 error.c_str());

        // The two that cannot answer have no column (as `trace phases` leaves them out); their
        // problems name them by their index among the reports given.
        const PhaseTable t = computePhaseTable({m_reports[2], a, b}, PhaseMapping::defaults());
        QCOMPARE(t.columns.size(), size_t(1));
        QCOMPARE(t.columns[0].report, size_t(0));
        QCOMPARE(t.problems.size(), size_t(2));
        QCOMPARE(t.problems[0].first, size_t(1));
        QVERIFY(t.problems[0].second.find(plain) == 0);
        QCOMPARE(t.problems[1].first, size_t(2));
        QVERIFY(t.problems[1].second.find(broken) == 0);
        // Run comparison keeps them as empty columns, to pair columns by position.
        const PhaseTable kept =
            computePhaseTable({m_reports[2], a, b}, PhaseMapping::defaults(), nullptr,
                              PhaseTableOptions{.withStragglers = false, .keepUnanswered = true, .match = {}});
        QCOMPARE(kept.columns.size(), size_t(3));
        QCOMPARE(kept.problems.size(), size_t(2));
        // With the user's own mapping a report without events cannot answer either.
        const std::optional<PhaseMapping> mine = PhaseMapping::parse("foo = rollout\n", "rules.txt", error);
        QVERIFY2(mine, error.c_str());
        error.clear();
        QVERIFY(!reportPhaseCells(*a, *mine, error));
        QVERIFY2(error.find(plain) == 0 && error.find("built-in phases") != std::string::npos, error.c_str());
    }

    // `collect --full 2`: every rank's summary-only digest, and rank 2's raw report beside its
    // digest. The table covers every rank (rank 2 from its events), exit 0.
    void summaryOnlyDigestsWithOneRawReport()
    {
        std::vector<std::string> digests;
        const QString out = digestRun("full2", digests);
        const std::string raw = digests[2].substr(0, digests[2].size() - tr::kDigestSuffix.size());
        QVERIFY(QFile::copy(QString::fromStdString(m_reports[2]->path), QString::fromStdString(raw)));
        const auto run = ps::test::runCli({"trace", "phases", "--no-cache", "--format", "json", out});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject table = json(run.out);
        const QJsonArray columns = table["columns"].toArray();
        QCOMPARE(columns.size(), qsizetype(m_reports.size()));
        QStringList paths;
        for (const auto &c : columns)
            paths << c.toObject()["path"].toString();
        QVERIFY2(paths.contains(QString::fromStdString(raw)), qPrintable(paths.join(", ")));
        QVERIFY(!table["rows"].toArray().isEmpty());
        for (const auto &row : table["rows"].toArray()) // every rank ran every phase
            QCOMPARE(row.toObject()["cells"].toArray().size(), qsizetype(m_reports.size()));
        const auto text = ps::test::runCli({"trace", "phases", "--no-cache", out});
        QVERIFY2(text.out.startsWith("Phases of 4 report(s)"), qPrintable(text.out));
    }

    // One digest with a damaged phase summary and one cut short among healthy ones: each is named
    // with its reason, no healthy one is blamed, and the table covers the rest (exit 1).
    void damagedDigestNamedAlone()
    {
        std::vector<std::string> digests;
        const QString out = digestRun("damaged", digests);
        tr::DigestOptions o;
        o.summaryOnly = true;
        o.extraSections.push_back({"PHAS", "{\"version\": 1, \"cells\": 3}"});
        QVERIFY(QFile::remove(QString::fromStdString(digests[1])));
        QCOMPARE(QString::fromStdString(tr::writeDigest(*m_reports[1], digests[1], o)), QString());
        QFile cut(QString::fromStdString(digests[3]));
        QVERIFY(cut.open(QIODevice::ReadWrite));
        QVERIFY(cut.resize(cut.size() / 2));
        cut.close();

        const auto run = ps::test::runCli({"trace", "phases", "--no-cache", out});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains("\nPhases of 2 report(s)"), qPrintable(run.out));
        const QStringList errors = run.err.trimmed().split('\n');
        QCOMPARE(errors.size(), qsizetype(2));
        QVERIFY2(run.err.contains(QString::fromStdString(digests[1]) + ": damaged digest: section PHAS"),
                 qPrintable(run.err));
        QVERIFY2(run.err.contains(QString::fromStdString(digests[3])), qPrintable(run.err));
        for (size_t healthy : {size_t(0), size_t(2)})
            QVERIFY2(!run.err.contains(QString::fromStdString(digests[healthy])), qPrintable(run.err));
        const QJsonObject table =
            json(ps::test::runCli({"trace", "phases", "--no-cache", "--format", "json", out}).out);
        QCOMPARE(table["columns"].toArray().size(), qsizetype(2));
    }
};

QTEST_GUILESS_MAIN(TestReportSource)
#include "tst_reportsource.moc"
