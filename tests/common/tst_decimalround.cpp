// Rounding as nsys stats prints: a tie at the printed digit goes away from zero, checked against
// SQLite's own round(), which nsys stats' SQL uses.
#include "core/common/decimalround.h"

#include <sqlite3.h>

#include <QtTest>

using ps::core::fixedHalfAwayFromZero;

namespace {
// printf('%.Nf', round(v, N)) in SQLite: what an nsys stats report prints for v.
QString sqliteRounded(sqlite3 *db, double v, int decimals)
{
    sqlite3_stmt *s = nullptr;
    sqlite3_prepare_v2(db, "SELECT printf('%.' || ?2 || 'f', round(?1, ?2))", -1, &s, nullptr);
    sqlite3_bind_double(s, 1, v);
    sqlite3_bind_int(s, 2, decimals);
    QString out;
    if (sqlite3_step(s) == SQLITE_ROW)
        out = QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(s, 0)));
    sqlite3_finalize(s);
    return out;
}
} // namespace

class TestDecimalRound : public QObject
{
    Q_OBJECT
private slots:
    void examples_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<QString>("expected");
        QTest::newRow("tie up") << 12.25 << 1 << "12.3"; // printf gives 12.2
        QTest::newRow("tie negative") << -2.25 << 1 << "-2.3";
        QTest::newRow("decimal tie") << 0.15 << 1 << "0.2"; // the double is 0.1499…, read as 0.15
        QTest::newRow("below") << 0.14999 << 1 << "0.1";
        QTest::newRow("carry") << 99.95 << 1 << "100.0";
        QTest::newRow("integer") << 1234.0 << 1 << "1234.0";
        QTest::newRow("zero decimals") << 2.5 << 0 << "3";
        QTest::newRow("small negative to zero") << -0.04 << 1 << "0.0";
        QTest::newRow("large") << 649206.0 << 1 << "649206.0";
        QTest::newRow("huge") << 1e20 << 1 << "100000000000000000000.0";
        QTest::newRow("three decimals") << 1.0005 << 3 << "1.001";
    }
    void examples()
    {
        QFETCH(double, value);
        QFETCH(int, decimals);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(fixedHalfAwayFromZero(value, decimals)), expected);
    }

    // Every binary-exact tie (and the values between them) as SQLite's round() prints it.
    void agreesWithSqliteRound()
    {
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(":memory:", &db), SQLITE_OK);
        int ties = 0;
        for (int k = -4000; k <= 4000; ++k) {
            const double v = k / 8.0 + (k % 3 == 0 ? 1000.0 : 0.0);
            const QString ours = QString::fromStdString(fixedHalfAwayFromZero(v, 1));
            QCOMPARE(ours, sqliteRounded(db, v, 1));
            ties += (k % 4 != 0 && k % 2 == 0); // x.25 and x.75
        }
        QVERIFY(ties > 1000);
        sqlite3_close(db);
    }
};

QTEST_GUILESS_MAIN(TestDecimalRound)
#include "tst_decimalround.moc"
