// Session files: round trip of reports, alignment, nudges (int64 exact), collapsed rows and view;
// malformed and future-version files are refused with a reason; writes are atomic.
#include "views/timeline/timelinesession.h"

#include <QtTest>

using namespace ps::views;

class TestTimelineSession : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip()
    {
        TimelineSession s;
        s.reports = {"/a/rlinf_profile_ActorGroup_0_1.sqlite", "/a/rlinf_profile_ActorGroup_1_2.sqlite"};
        s.align = "range:step#2";
        s.nudges["/a/rlinf_profile_ActorGroup_1_2.sqlite"] = 1'700'000'000'000'000'123LL; // beyond double precision
        s.collapsed = {"group:run/ActorGroup", "report:/a/x.sqlite"};
        s.hiddenKinds = {"Memset"};
        s.hiddenTracks = {"report:/a/x.sqlite|Sync · GPU 0 · stream 7"};
        s.pinned = {"report:/a/y.sqlite|Kernels · GPU 1 · stream 7", "report:/a/x.sqlite|NVTX · python [11]"};
        s.fullDepth = {"report:/a/x.sqlite|NVTX · python [11]"};
        s.laneOrder["report:/a/x.sqlite"] = {"report:/a/x.sqlite|NVTX · python [11]",
                                             "report:/a/x.sqlite|Kernels · GPU 0 · stream 7"};
        s.labelWidth = 321;
        s.view = TimeWindow{-5'000, 9'007'199'254'740'993LL};
        QTemporaryDir dir;
        const QString file = dir.filePath("s.psession");
        QString error;
        QVERIFY(s.save(file, error));
        const auto back = TimelineSession::load(file, error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->reports, s.reports);
        QCOMPARE(back->align, s.align);
        QCOMPARE(back->nudges, s.nudges);
        QCOMPARE(back->collapsed, s.collapsed);
        QCOMPARE(back->hiddenKinds, s.hiddenKinds);
        QCOMPARE(back->hiddenTracks, s.hiddenTracks);
        QCOMPARE(back->pinned, s.pinned); // pin order kept
        QCOMPARE(back->fullDepth, s.fullDepth);
        QCOMPARE(back->laneOrder, s.laneOrder); // lanes as the user dragged them
        QCOMPARE(back->trackView().order, s.laneOrder);
        QCOMPARE(back->labelWidth, 321);
        QVERIFY(back->view);
        QCOMPARE(*back->view, *s.view);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"s.psession"}); // no temp file left
    }

    void refuses_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("reason");
        QTest::newRow("not json") << QByteArray("{oops") << "not a ProfStudio session";
        QTest::newRow("no version") << QByteArray("{\"reports\":[]}") << "no profstudio_session version";
        QTest::newRow("future") << QByteArray("{\"profstudio_session\":99}") << "newer than this ProfStudio reads";
    }
    void refuses()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, reason);
        QString error;
        QVERIFY(!TimelineSession::fromJson(json, error));
        QVERIFY2(error.contains(reason), qPrintable(error));
    }

    void missingFileSaysWhich()
    {
        QString error;
        QVERIFY(!TimelineSession::load("/nonexistent/x.psession", error));
        QVERIFY(error.contains("/nonexistent/x.psession"));
    }
};

QTEST_GUILESS_MAIN(TestTimelineSession)
#include "tst_timelinesession.moc"
