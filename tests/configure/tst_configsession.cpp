// The session model (views/config/configsession.h): edits are undoable override-list changes,
// recomposition happens off the GUI thread, bursts of edits coalesce and stale results are
// dropped (views/common/latestjob.h).
#include "configuretestutil.h"

#include "views/config/configsession.h"

#include <QSignalSpy>
#include <QThread>
#include <QUndoStack>

using namespace ps::views;
using namespace ps::core::configedit;
using ps::core::config::Node;

namespace {
bool waitIdle(ConfigSession &s)
{
    QElapsedTimer t;
    t.start();
    while ((s.isBusy() || !s.result()) && t.elapsed() < 30000)
        QTest::qWait(5);
    return !s.isBusy() && s.result();
}

SessionBase verlBase()
{
    SessionBase b;
    b.configDirs = {cfgtest::verlRoot().toStdString()};
    b.configName = "ppo_trainer";
    return b;
}
} // namespace

class TestConfigSession : public QObject
{
    Q_OBJECT
private slots:
    void burstOfEditsCoalesces()
    {
        ConfigSession s;
        QSignalSpy ready(&s, &ConfigSession::resultReady);
        QSignalSpy busy(&s, &ConfigSession::busyChanged);
        s.open(verlBase());
        QVERIFY(waitIdle(s));
        ready.clear();
        // 30 edits of one key while the first job runs: one undo step, at most a few jobs.
        for (int i = 1; i <= 30; ++i)
            s.setValue("trainer.total_epochs", Node::integer(100 + i));
        QVERIFY(s.isBusy());
        QVERIFY(waitIdle(s));
        QCOMPARE(ready.count(), 1); // stale intermediate results are dropped
        QCOMPARE(s.state().edits, std::vector<std::string>{"trainer.total_epochs=130"});
        QCOMPARE(s.result()->compose.overrides, s.state().edits);
        QCOMPARE(s.undoStack()->count(), 1); // typing in one field merges
        QVERIFY(!busy.isEmpty());
        QCOMPARE(busy.last().at(0).toBool(), false);
    }

    void undoRedoRecompose()
    {
        ConfigSession s;
        s.open(verlBase());
        QVERIFY(waitIdle(s));
        s.setValue("global_profiler.tool", Node::string("torch"));
        QVERIFY(waitIdle(s));
        s.setValue("global_profiler.steps", Node::list());
        QVERIFY(waitIdle(s));
        s.removeKey("global_profiler.save_path");
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state().edits, (std::vector<std::string>{"global_profiler.tool=torch", "global_profiler.steps=[]",
                                                            "~global_profiler.save_path"}));
        QCOMPARE(s.undoStack()->count(), 3);
        s.undoStack()->undo();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.result()->compose.overrides.size(), size_t(2));
        QVERIFY(s.result()->analysis);
        QCOMPARE(s.result()->analysis->model.verl.savePath, std::string("outputs/profile"));
        s.undoStack()->undo();
        s.undoStack()->undo();
        QVERIFY(waitIdle(s));
        QVERIFY(s.state().edits.empty());
        QVERIFY(s.result()->diff.size() > 0);
        for (const auto &l : s.result()->diff)
            QCOMPARE(int(l.kind), int(DiffLine::Kind::Same));
        s.undoStack()->redo();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state().edits, std::vector<std::string>{"global_profiler.tool=torch"});
    }

    void compositionErrorIsAResult()
    {
        ConfigSession s;
        s.open(verlBase());
        QVERIFY(waitIdle(s));
        s.setEdits({"no_such_key.x=1"}, "typo");
        QVERIFY(waitIdle(s));
        QVERIFY(!s.result()->composed);
        QVERIFY(!s.result()->error.empty());
        QVERIFY(s.result()->baseline); // the preset still composes: the diff has a base
        s.undoStack()->undo();
        QVERIFY(waitIdle(s));
        QVERIFY(s.result()->composed);
    }

    void workRunsOffTheGuiThread()
    {
        // The job function is what the session runs on the pool; the GUI thread only copies inputs.
        ConfigSession s;
        QThread *gui = QThread::currentThread();
        QThread *seen = nullptr;
        QObject::connect(&s, &ConfigSession::resultReady, &s, [&] { seen = QThread::currentThread(); });
        s.open(verlBase());
        QVERIFY(waitIdle(s));
        QCOMPARE(seen, gui);                // delivered on the GUI thread...
        QVERIFY(s.result()->elapsedMs > 0); // ...after composing elsewhere (timed inside the job)
    }
};

QTEST_MAIN(TestConfigSession)
#include "tst_configsession.moc"
