// Natural order of report paths: digit runs compare by value, so a 1024-rank run lists r0, r1,
// ..., r9, r10 and not r0, r1, r10, r100, ...
#include "core/common/naturalorder.h"

#include <QtTest>

#include <algorithm>
#include <string>
#include <vector>

using ps::core::naturalLess;

class TestNaturalOrder : public QObject
{
    Q_OBJECT
private slots:
    void ranksInNumericOrder()
    {
        std::vector<std::string> paths;
        for (int r : {10, 2, 1024, 0, 1, 100, 9})
            paths.push_back("runs/exp/ActorGroup_" + std::to_string(r) + "_pid.sqlite");
        std::sort(paths.begin(), paths.end(),
                  [](const std::string &a, const std::string &b) { return naturalLess(a, b); });
        QStringList got;
        for (const auto &p : paths)
            got << QString::fromStdString(p).section('_', 1, 1);
        QCOMPARE(got, (QStringList{"0", "1", "2", "9", "10", "100", "1024"}));
    }

    void orderIsStrictAndTotal_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::newRow("digits by value") << "r9/x"
                                         << "r10/x";
        QTest::newRow("letters") << "a1"
                                 << "b0";
        QTest::newRow("prefix first") << "rank"
                                      << "rank0";
        QTest::newRow("zero padding, then plain order") << "r010"
                                                        << "r10";
        QTest::newRow("later digit run") << "n2/r3"
                                         << "n2/r20";
        QTest::newRow("huge numbers") << "x99999999999999999999"
                                      << "x100000000000000000000";
    }
    void orderIsStrictAndTotal()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        const std::string x = a.toStdString(), y = b.toStdString();
        QVERIFY(naturalLess(x, y));
        QVERIFY(!naturalLess(y, x));
        QVERIFY(!naturalLess(x, x));
    }
};

QTEST_APPLESS_MAIN(TestNaturalOrder)
#include "tst_naturalorder.moc"
