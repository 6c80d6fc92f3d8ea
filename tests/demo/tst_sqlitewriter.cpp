// SqliteWriter's errors name the file: `trace demo` on a full disk once said only "database or
// disk is full". A page cap stands in for the full disk (SQLite reports SQLITE_FULL for both).

#include "core/demo/sqlitewriter.h"

#include <QTemporaryDir>
#include <QtTest>

#include <string>

using namespace ps::core::demo;

class TestSqliteWriter : public QObject
{
    Q_OBJECT
private slots:
    void fullDiskNamesTheFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("rank0.sqlite.part").toStdString();
        SqliteWriter db;
        QVERIFY(db.create(path));
        db.exec("PRAGMA max_page_count = 4");
        db.exec("CREATE TABLE t (v TEXT)");
        db.exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) "
                "INSERT INTO t SELECT printf('%0500d', i) FROM n");
        QVERIFY(!db.close());
        const QString error = QString::fromStdString(db.error());
        QVERIFY2(error.startsWith(QString::fromStdString(path) + ": ") && error.contains("database or disk is full"),
                 qPrintable(error));
    }

    void cannotCreateNamesTheFileOnce()
    {
        const std::string path = "/nonexistent-dir/rank0.sqlite.part";
        SqliteWriter db;
        QVERIFY(!db.create(path));
        const QString error = QString::fromStdString(db.error());
        QVERIFY2(error.startsWith("cannot create " + QString::fromStdString(path)), qPrintable(error));
        QCOMPARE(error.count(QString::fromStdString(path)), 1);
    }
};

QTEST_GUILESS_MAIN(TestSqliteWriter)
#include "tst_sqlitewriter.moc"
