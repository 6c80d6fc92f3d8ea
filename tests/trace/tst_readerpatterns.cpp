// Which file is a report is answered once, by the readers' own patterns through the registry: the
// loader's folder scan, the CLI, the desktop's drop and Open dialog all ask it. The answers are
// case-insensitive, a folder takes only names that are reports there (RLinf's trace_events.jsonl,
// not a run's log .jsonl; torch_memory_*.pickle, not any pickle), and a file given by name is
// taken by any reader that reads its extension.

#include "core/trace/persist/digest.h"
#include "core/trace/read/traceloader.h"
#include "core/trace/read/tracereader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace ps::core::trace;

class TestReaderPatterns : public QObject
{
    Q_OBJECT

private slots:
    void everyReaderSaysWhatItReads()
    {
        const auto readers = ReaderRegistry::instance().readers();
        QVERIFY(readers.size() >= 7); // nsys, .nsys-rep, rocpd, Ascend, Kineto, RLinf, memory
        for (const auto &r : readers)
            QVERIFY2(!r->namePatterns().empty(), traceFormatName(r->format()).data());
    }

    void namesAreReportsCaseInsensitively_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("given");
        QTest::addColumn<bool>("inFolder");
        QTest::newRow("nsys export") << "rank0.sqlite" << true << true;
        QTest::newRow("upper case") << "RANK0.SQLITE" << true << true;
        QTest::newRow("nsys-rep") << "worker_process_1234.1.Nsys-Rep" << true << true;
        QTest::newRow("kineto") << "host_1234.1700000000.pt.trace.json.gz" << true << true;
        QTest::newRow("rocpd / ascend") << "ascend_pytorch_profiler_0.db" << true << true;
        QTest::newRow("digest") << "rank0.sqlite.psdigest" << true << true;
        QTest::newRow("rlinf tracer") << "trace_events.jsonl" << true << true;
        QTest::newRow("rlinf tracer, upper") << "TRACE_EVENTS.JSONL" << true << true;
        QTest::newRow("a log jsonl") << "train_log.jsonl" << true << false;
        QTest::newRow("verl memory snapshot") << "torch_memory_rank0_pid42.pickle" << true << true;
        QTest::newRow("gzipped snapshot") << "memory_snapshot.pickle.gz" << true << true;
        QTest::newRow("any pickle") << "weights.pickle" << true << false;
        QTest::newRow("memory timeline") << "rank0_memory_timeline.raw.gz" << true << true;
        QTest::newRow("yaml") << "config.yaml" << false << false;
        QTest::newRow("log") << "run.log" << false << false;
    }
    void namesAreReportsCaseInsensitively()
    {
        QFETCH(QString, name);
        QFETCH(bool, given);
        QFETCH(bool, inFolder);
        const ReaderRegistry &r = ReaderRegistry::instance();
        QCOMPARE(r.isReportName("/runs/x/" + name.toStdString(), NameScope::Given), given);
        QCOMPARE(r.isReportName(name.toStdString(), NameScope::InFolder), inFolder);
    }

    void oneFileOfManyReportsIsTheRlinfTrace()
    {
        const ReaderRegistry &r = ReaderRegistry::instance();
        QVERIFY(r.holdsManyReports("/runs/a/trace_events.jsonl"));
        QVERIFY(r.holdsManyReports("/runs/a/other.JSONL")); // given by name, the RLinf reader reads it
        QVERIFY(!r.holdsManyReports("/runs/a/rank0.sqlite"));
        QVERIFY(!r.holdsManyReports("/runs/a/rank0.sqlite.psdigest"));
    }

    void theOpenDialogOffersEveryPatternOnce()
    {
        const std::vector<std::string> globs = ReaderRegistry::instance().namePatterns();
        for (const char *want : {"*.psdigest", "*.sqlite", "*.nsys-rep", "*.db", "*.json.gz", "*.jsonl", "*.pickle.gz"})
            QVERIFY2(std::find(globs.begin(), globs.end(), want) != globs.end(), want);
        std::vector<std::string> sorted = globs;
        std::sort(sorted.begin(), sorted.end());
        QVERIFY(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
    }

    // The loader's folder scan asks the same question: mixed case is found, logs are not.
    void aFolderYieldsItsReports()
    {
        QTemporaryDir dir;
        const QStringList names{
            "Rank0.SQLite", "trace_events.jsonl", "train_log.jsonl", "notes.txt", "torch_memory_rank1_pid7.pickle",
            "model.pickle"};
        for (const QString &n : names) {
            QFile f(dir.filePath(n));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("x");
        }
        std::vector<std::string> found = findReports({dir.path().toStdString()}, nullptr);
        QStringList got;
        for (const std::string &f : found)
            got << QFileInfo(QString::fromStdString(f)).fileName();
        got.sort();
        QCOMPARE(got, (QStringList{"Rank0.SQLite", "torch_memory_rank1_pid7.pickle", "trace_events.jsonl"}));
    }
};

QTEST_GUILESS_MAIN(TestReaderPatterns)
#include "tst_readerpatterns.moc"
