#include "views/common/filedialogs.h"
#include "views/common/recentfiles.h"

#include <QDir>
#include <QFileInfo>
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
    // File dialogs start in the folder last used for the same purpose, with a suggested name.
    void dialogsRememberTheirFolder()
    {
        using namespace ps::views;
        QCOMPARE(dialogStartPath("yaml"), QDir::homePath()); // nothing remembered yet
        QTemporaryDir dir;
        const QString saved = dir.filePath("ppo_trainer.composed.yaml");
        rememberDialogPath("yaml", saved);
        QCOMPARE(dialogStartPath("yaml", "next.composed.yaml"), QDir(dir.path()).filePath("next.composed.yaml"));
        QCOMPARE(dialogStartPath("reports"), QDir::homePath()); // purposes are kept apart
        rememberDialogPath("reports", dir.path());              // a chosen folder is itself the place
        QCOMPARE(dialogStartPath("reports"), QFileInfo(dir.path()).absoluteFilePath());
        rememberDialogPath("reports", QString()); // a cancelled dialog changes nothing
        QCOMPARE(dialogStartPath("reports"), QFileInfo(dir.path()).absoluteFilePath());
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
