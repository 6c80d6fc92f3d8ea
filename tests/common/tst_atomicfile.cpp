#include "core/common/atomicfile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

class TestAtomicFile : public QObject
{
    Q_OBJECT
private slots:
    void replacesContentAndLeavesNoTemp()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("out.yaml").toStdString();
        QCOMPARE(QString::fromStdString(ps::core::writeFileAtomically(path, "old\n")), QString());
        QCOMPARE(QString::fromStdString(ps::core::writeFileAtomically(path, "new content\n")), QString());
        std::string content, error;
        QVERIFY(ps::core::readWholeFile(path, content, error));
        QCOMPARE(QString::fromStdString(content), QString("new content\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no stray temp file
    }
    // A write that cannot complete reports why and leaves what was there (and no temp file).
    void failureLeavesTargetAndNoTemp()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath("busy");
        QVERIFY(QDir().mkpath(target + "/child")); // a non-empty directory cannot be replaced by a file
        const std::string err = ps::core::writeFileAtomically(target.toStdString(), "data");
        QVERIFY(QString::fromStdString(err).contains("busy"));
        QVERIFY(QFileInfo(target).isDir());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);
    }
    void missingDirectoryIsAnError()
    {
        QVERIFY(!ps::core::writeFileAtomically("/nonexistent-dir/x.yaml", "x").empty());
    }
    void readMissingFileReportsPath()
    {
        std::string content, error;
        QVERIFY(!ps::core::readWholeFile("/nonexistent/x.yaml", content, error));
        QVERIFY(QString::fromStdString(error).contains("/nonexistent/x.yaml"));
    }
    // A FIFO, a folder and a file over the bound are refused, not waited on or read in full.
    void readRefusesWhatIsNotARegularFileOrTooLarge()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("f").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        std::string content, error;
        QVERIFY(!ps::core::readWholeFile(fifo, content, error));
        QCOMPARE(error, "cannot read " + fifo + ": not a regular file");
        QVERIFY(!ps::core::readWholeFile(dir.path().toStdString(), content, error));
        const std::string big = dir.filePath("big").toStdString();
        QVERIFY(ps::core::writeFileAtomically(big, std::string(100, 'x')).empty());
        QVERIFY(!ps::core::readWholeFile(big, content, error, 99));
        QVERIFY2(error.find("100 bytes, more than the 99") != std::string::npos, error.c_str());
        QVERIFY(ps::core::readWholeFile(big, content, error, 100));
        QCOMPARE(content, std::string(100, 'x'));
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomicfile.moc"
