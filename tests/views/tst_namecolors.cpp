#include "views/common/namecolors.h"

#include <QtTest>

class TestNameColors : public QObject
{
    Q_OBJECT
private slots:
    void stableAndDistinct()
    {
        // Same name → same colour in every run (hash, not insertion order).
        QCOMPARE(ps::views::colorForName("actor/compute_adv"), ps::views::colorForName("actor/compute_adv"));
        QVERIFY(ps::views::colorForName("actor/compute_adv") != ps::views::colorForName("run_training"));
    }
    void labelsStayLegible_data()
    {
        QTest::addColumn<QString>("name");
        // A spread of real names plus many synthetic ones: every hue the hash can give.
        for (int i = 0; i < 200; ++i)
            QTest::newRow(qPrintable(QString("synthetic-%1").arg(i))) << QString("kernel_%1").arg(i);
        for (const char *n : {"run_training", "actor/recv_traj", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL",
                              "cudaLaunchKernel_v7000", "x", ""})
            QTest::newRow(n) << QString(n);
    }
    void labelsStayLegible()
    {
        QFETCH(QString, name);
        const QColor bg = ps::views::colorForName(name.toStdString());
        const QColor fg = ps::views::textColorOn(bg);
        // WCAG-style contrast between label and box stays above 4.5:1.
        auto lum = [](const QColor &c) {
            auto ch = [](double v) {
                v /= 255.0;
                return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
            };
            return 0.2126 * ch(c.red()) + 0.7152 * ch(c.green()) + 0.0722 * ch(c.blue());
        };
        const double l1 = lum(bg), l2 = lum(fg);
        const double contrast = (std::max(l1, l2) + 0.05) / (std::min(l1, l2) + 0.05);
        QVERIFY2(contrast >= 4.5, qPrintable(QString("contrast %1 for %2").arg(contrast).arg(bg.name())));
    }
};

QTEST_MAIN(TestNameColors)
#include "tst_namecolors.moc"
