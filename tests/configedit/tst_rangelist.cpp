// Rank and step lists as typed: "0,1,4-7", "3, 10, 50" (core/configedit/rangelist.h).
#include "core/configedit/rangelist.h"

#include <QtTest>

using ps::core::configedit::formatIntList;
using ps::core::configedit::parseIntList;
using Values = std::vector<long long>;
Q_DECLARE_METATYPE(Values)

class TestRangeList : public QObject
{
    Q_OBJECT
private slots:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("minValue");
        QTest::addColumn<Values>("values");
        QTest::addColumn<QString>("error"); // substring; empty = ok
        QTest::newRow("ranks") << "0,1,4-7" << 0 << Values{0, 1, 4, 5, 6, 7} << "";
        QTest::newRow("steps with spaces") << "3, 10, 50" << 0 << Values{3, 10, 50} << "";
        QTest::newRow("spaces only") << "3 10  50" << 0 << Values{3, 10, 50} << "";
        QTest::newRow("unsorted and duplicate") << "5,1,5,2-3" << 0 << Values{1, 2, 3, 5} << "";
        QTest::newRow("empty") << "" << 0 << Values{} << "";
        QTest::newRow("blank") << "  , " << 0 << Values{} << "";
        QTest::newRow("single range") << "1-3" << 1 << Values{1, 2, 3} << "";
        QTest::newRow("reversed range") << "7-4" << 0 << Values{} << "ends before it starts";
        QTest::newRow("negative") << "-1" << 0 << Values{} << "below 0";
        QTest::newRow("verl step 0") << "0,1" << 1 << Values{} << "counting starts at 1";
        QTest::newRow("word") << "3,x" << 0 << Values{} << "'x' is not a whole number";
        QTest::newRow("float") << "2.5" << 0 << Values{} << "not a whole number";
        QTest::newRow("half range") << "4-" << 0 << Values{} << "not a number or a range";
        QTest::newRow("huge range") << "0-1000000000" << 0 << Values{} << "more than";
        // The YAML pane shows `steps: [2, 4]`: the same text is accepted in the Steps field.
        QTest::newRow("yaml flow list") << "[2,4]" << 1 << Values{2, 4} << "";
        QTest::newRow("yaml flow list, spaced") << " [2, 4, 6-8] " << 1 << Values{2, 4, 6, 7, 8} << "";
        QTest::newRow("yaml empty list") << "[]" << 0 << Values{} << "";
        QTest::newRow("unclosed list") << "[2,4" << 0 << Values{} << "is not a list";
        QTest::newRow("nested list") << "[[2],4]" << 0 << Values{} << "is not a list";
        QTest::newRow("yaml list, below min") << "[0, 1]" << 1 << Values{} << "counting starts at 1";
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(int, minValue);
        QFETCH(Values, values);
        QFETCH(QString, error);
        const auto r = parseIntList(text.toStdString(), minValue);
        if (error.isEmpty()) {
            QVERIFY2(r.ok(), r.error.c_str());
            QCOMPARE(r.values, values);
        } else {
            QVERIFY(!r.ok());
            QVERIFY2(QString::fromStdString(r.error).contains(error), r.error.c_str());
        }
    }

    void format_data()
    {
        QTest::addColumn<Values>("values");
        QTest::addColumn<QString>("text");
        QTest::newRow("runs") << Values{0, 1, 4, 5, 6, 7} << "0,1,4-7";
        QTest::newRow("single") << Values{3} << "3";
        QTest::newRow("pairs stay") << Values{1, 2, 5} << "1,2,5";
        QTest::newRow("empty") << Values{} << "";
        QTest::newRow("two runs") << Values{0, 1, 2, 10, 11, 12, 13} << "0-2,10-13";
    }
    void format()
    {
        QFETCH(Values, values);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(formatIntList(values)), text);
        QCOMPARE(parseIntList(text.toStdString()).values, values); // round trip
    }
};

QTEST_GUILESS_MAIN(TestRangeList)
#include "tst_rangelist.moc"
