// The one stats CSV format (core/trace/statscsv.h) of the CLI and the Stats pane: quoting,
// column sets and number formats, on rows summarised from a real nsys export.

#include "tests/support/sqlref.h"
#include "tests/support/testdata.h"

#include "core/common/csvfield.h"
#include "core/trace/read/traceloader.h"
#include "core/trace/statscsv.h"

#include <QtTest>

#include <algorithm>

using namespace ps::core::trace;
using ps::core::csvField;
using ps::core::csvTextField;

class TestStatsCsv : public QObject
{
    Q_OBJECT
private slots:
    void fieldQuoting_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("field");
        QTest::newRow("plain") << "MPI:MPI_Send"
                               << "MPI:MPI_Send";
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("comma") << "void f<int, float>()"
                               << "\"void f<int, float>()\"";
        QTest::newRow("quote") << "say \"hi\""
                               << "\"say \"\"hi\"\"\"";
        QTest::newRow("newline") << "a\nb"
                                 << "\"a\nb\"";
        QTest::newRow("carriage return") << "a\rb"
                                         << "\"a\rb\"";
    }
    void fieldQuoting()
    {
        QFETCH(QString, text);
        QFETCH(QString, field);
        QCOMPARE(QString::fromStdString(csvField(text.toStdString())), field);
    }

    // A trace's name in the CLI's CSV: control characters escaped, so a record stays one line and
    // nothing reaches the terminal raw; then quoted as any field.
    void textFieldEscapes()
    {
        QCOMPARE(csvTextField("a\nb"), std::string("a\\nb"));
        QCOMPARE(csvTextField("x\x1b[2J,y"), std::string("\"x\\x1b[2J,y\""));
        QCOMPARE(csvTextField("plain"), std::string("plain"));
        StatRow r;
        r.name = "k\n1,9";
        QVERIFY(statsCsvLine(r, {}).starts_with("\"k\\n1,9\","));
    }

    void headers()
    {
        QCOMPARE(statsCsvHeader({}),
                 std::string("name,count,total_ns,avg_ns,med_ns,min_ns,max_ns,stddev_ns,time_pct\n"));
        QCOMPARE(statsCsvHeader({true, true}),
                 std::string("report,name,count,total_ns,avg_ns,med_ns,min_ns,max_ns,stddev_ns,time_pct,style\n"));
    }

    void line()
    {
        StatRow r;
        r.name = "a,b";
        r.style = "PushPop";
        r.count = 3;
        r.totalNs = 13634300;
        r.avgNs = 4544766.66666;
        r.medNs = 4000000;
        r.minNs = 1;
        r.maxNs = 9000000;
        r.stddevNs = 0.04;
        r.timePct = 66.66;
        QCOMPARE(statsCsvLine(r, {}), std::string("\"a,b\",3,13634300,4544766.7,4000000.0,1,9000000,0.0,66.7\n"));
        QCOMPARE(statsCsvLine(r, {true, true}, "(all)"),
                 std::string("(all),\"a,b\",3,13634300,4544766.7,4000000.0,1,9000000,0.0,66.7,PushPop\n"));
        // Ties at the printed digit go away from zero, as nsys stats' SQL round() prints them
        // (iostreams print 4.2, 2.2 and 12.2).
        r.name = "k";
        r.avgNs = 4.25; // durations 4, 4, 4, 5
        r.medNs = 2.25;
        r.stddevNs = 0.15;
        r.timePct = 12.25;
        QCOMPARE(statsCsvLine(r, {}), std::string("k,3,13634300,4.3,2.3,1,9000000,0.2,12.3\n"));
    }

    // Every row of a real export: one line each, as many fields as the header once unquoted,
    // and the counts of the rows.
    void realRows()
    {
        const QString saxpy = ps::test::nsysDir() + "/pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite";
        LoadOptions opt;
        opt.useCache = false;
        const LoadResult loaded = loadReports({saxpy.toStdString()}, opt);
        QCOMPARE(loaded.reports.size(), size_t(1));
        const StatsResult s = summarize(loaded.reports, StatsKind::KernelSum);
        QVERIFY(!s.overall.empty());
        for (const StatRow &r : s.overall) {
            const std::string l = statsCsvLine(r, {});
            QCOMPARE(std::count(l.begin(), l.end(), '\n'), 1L);
            QVERIFY(QString::fromStdString(l).endsWith(QString::number(r.timePct, 'f', 1) + "\n"));
            QVERIFY(l.find("," + std::to_string(r.count) + "," + std::to_string(r.totalNs) + ",") != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestStatsCsv)
#include "tst_statscsv.moc"
