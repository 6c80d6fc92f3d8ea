// Line diff of the diff-against-preset pane (core/configedit/linediff.h).
#include "core/configedit/linediff.h"

#include <QtTest>

using namespace ps::core::configedit;

class TestLineDiff : public QObject
{
    Q_OBJECT
private slots:
    void diff_data()
    {
        QTest::addColumn<QString>("oldText");
        QTest::addColumn<QString>("newText");
        QTest::addColumn<QString>("unified");
        QTest::newRow("equal") << "a\nb\n"
                               << "a\nb\n"
                               << "";
        QTest::newRow("change in middle") << "a\nb\nc\nd\ne\nf\ng\nh\n"
                                          << "a\nb\nc\nd\nX\nf\ng\nh\n"
                                          << "@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+X\n f\n g\n h\n";
        QTest::newRow("append") << "a\n"
                                << "a\nb\n"
                                << "@@ -1,1 +1,2 @@\n a\n+b\n";
        QTest::newRow("remove first") << "a\nb\n"
                                      << "b\n"
                                      << "@@ -1,2 +1,1 @@\n-a\n b\n";
        QTest::newRow("from empty") << ""
                                    << "x\n"
                                    << "@@ -0,0 +1,1 @@\n+x\n";
    }
    void diff()
    {
        QFETCH(QString, oldText);
        QFETCH(QString, newText);
        QFETCH(QString, unified);
        const auto d = diffLines(splitLines(oldText.toStdString()), splitLines(newText.toStdString()));
        QCOMPARE(QString::fromStdString(unifiedDiff(d, 3)), unified);
    }

    void lcsKeepsCommonLines()
    {
        const auto d = diffLines({"a", "b", "c", "d"}, {"a", "c", "b", "d"});
        int same = 0;
        for (const auto &l : d)
            same += l.kind == DiffLine::Kind::Same;
        QCOMPARE(same, 3); // a, one of b/c, d
    }
};

QTEST_GUILESS_MAIN(TestLineDiff)
#include "tst_linediff.moc"
