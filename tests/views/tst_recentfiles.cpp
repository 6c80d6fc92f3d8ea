#include "views/common/recentfiles.h"

#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

class TestRecentFiles : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("ProfStudioTest");
        QCoreApplication::setApplicationName("tst_recentfiles");
    }
    void init() { QSettings().clear(); }

    void mostRecentFirstWithoutDuplicatesAndCapped()
    {
        QTemporaryDir dir;
        QStringList files;
        for (int i = 0; i < 5; ++i) {
            files << dir.filePath(QString("r%1.sqlite").arg(i));
            QFile f(files.last());
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        ps::views::RecentFiles recent("recent/test", 3);
        for (const QString &f : files)
            recent.add(f);
        recent.add(files[2]); // re-adding moves it to the front
        QCOMPARE(recent.entries(), (QStringList{files[2], files[4], files[3]}));
    }
    void missingFilesAreDropped()
    {
        QTemporaryDir dir;
        const QString f = dir.filePath("gone.yaml");
        {
            QFile file(f);
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        ps::views::RecentFiles recent("recent/test");
        recent.add(f);
        QCOMPARE(recent.entries().size(), 1);
        QFile::remove(f);
        QCOMPARE(recent.entries().size(), 0);
    }
};

QTEST_MAIN(TestRecentFiles)
#include "tst_recentfiles.moc"
